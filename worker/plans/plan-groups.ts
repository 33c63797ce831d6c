/**
 * The group a plan moves its subscriber to (issue 33). Starting a subscription whose terms name a
 * group moves the user there and remembers where they came from (`previous_group`: the group
 * before any plan moved them, so stacked plans still lead back home). When a subscription ends,
 * the user moves to the group of another active subscription that holds one (highest priority,
 * newest first) or else back to the remembered group; only while they are still in the ended
 * plan's group, so a group an administrator set meanwhile is left alone. Cached API keys carry
 * the group, so they are forgotten after a move.
 */
import { forgetToken } from '../access/token-auth'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { PlanTerms } from '../../shared/contract/plans'

export interface PlanUser {
  id: number
  username: string
  role: number
  group: string
}

export async function findPlanUser(env: Env, userId: number): Promise<PlanUser | undefined> {
  return (await env.DB.prepare('SELECT id, username, role, "group" AS "group" FROM users WHERE id = ?').bind(userId).first<PlanUser>()) ?? undefined
}

/** The user's active subscriptions holding a group, the one that decides first. */
async function activeGroupHolders(env: Env, userId: number, exceptId = 0) {
  const { results } = await env.DB.prepare(
    `SELECT id, previous_group, json_extract(terms, '$.group') AS plan_group FROM subscriptions
     WHERE user_id = ? AND status = ? AND id <> ? AND COALESCE(json_extract(terms, '$.group'), '') <> ''
     ORDER BY json_extract(terms, '$.priority') DESC, id DESC`
  )
    .bind(userId, SUBSCRIPTION_STATUS.ACTIVE, exceptId)
    .all<{ id: number; previous_group: string; plan_group: string }>()
  return results
}

/** The group to remember for a new subscription: the one before any plan moved the user. */
export async function groupBeforePlans(env: Env, user: PlanUser): Promise<string> {
  const [holder] = await activeGroupHolders(env, user.id)
  return holder?.previous_group || user.group
}

async function forgetUserTokens(env: Env, userId: number) {
  const { results } = await env.DB.prepare('SELECT key FROM tokens WHERE user_id = ?').bind(userId).all<{ key: string }>()
  await Promise.all(results.map((r) => forgetToken(env, r.key)))
}

/** Moves the user from `from` to `to` (only while they are still in `from`); true when they moved. */
async function moveGroup(env: Env, userId: number, from: string, to: string): Promise<boolean> {
  if (!to || from === to) return false
  const done = await env.DB.prepare('UPDATE users SET "group" = ? WHERE id = ? AND "group" = ?').bind(to, userId, from).run()
  if (!done.meta.changes) return false
  await forgetUserTokens(env, userId)
  return true
}

/** A subscription started: move the user into its plan's group. */
export async function enterPlanGroup(env: Env, user: PlanUser, terms: PlanTerms): Promise<void> {
  if (terms.group) await moveGroup(env, user.id, user.group, terms.group)
}

/** A subscription ended (already no longer active): the next plan's group, or the remembered one. */
export async function leavePlanGroup(env: Env, ended: { id: number; userId: number; terms: PlanTerms; previousGroup: string }): Promise<void> {
  if (!ended.terms.group) return
  const [next] = await activeGroupHolders(env, ended.userId, ended.id)
  await moveGroup(env, ended.userId, ended.terms.group, next ? next.plan_group : ended.previousGroup)
}
