/**
 * Ending and extending subscriptions (issue 33). A revoke ends an active subscription (status 3),
 * optionally refunding the unused share of the price it started at: price × QuotaPerUnit × time
 * left / whole duration, rounded down, credited through the user's wallet once under
 * `plan-revoke:<id>` (credited first, so a failed credit changes nothing and the revoke can be
 * retried). The expiry sweep (cron) marks active subscriptions past their expiry as expired
 * (status 2). Either way the user leaves the plan's group and the wallet reloads. An extension
 * pushes an active subscription's expiry by a duration in BudgetTimezone (`unlimited`: never).
 */
import { ApiError, badRequest } from '../lib/errors'
import { clockNow } from '../lib/clock'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { walletOf } from '../wallet/wallet-client'
import { expiryAfter } from './plan-duration'
import { leavePlanGroup } from './plan-groups'
import { findSubscription, syncWallet, type SubscriptionRow } from './subscriptions'
import { LOG_TYPE, SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { PlanDurationUnit } from '../../shared/contract/plans'

export interface Actor {
  id: number
  username: string
}

/** Quota units of the unused share of the subscription's price at `now` (0 when nothing is left). */
export function unusedShare(sub: Pick<SubscriptionRow, 'startsAt' | 'expiresAt' | 'terms'>, quotaPerUnit: number, now: number): number {
  const cents = sub.terms.price_cents ?? 0
  const whole = sub.expiresAt - sub.startsAt
  const left = Math.min(whole, sub.expiresAt - now)
  if (cents <= 0 || whole <= 0 || left <= 0) return 0
  return Number((BigInt(cents) * BigInt(quotaPerUnit) * BigInt(left)) / (100n * BigInt(whole)))
}

function assertActive(sub: SubscriptionRow) {
  if (sub.status !== SUBSCRIPTION_STATUS.ACTIVE) throw badRequest('This subscription has already ended')
}

/** Marks the subscription ended with `status` (only if still active); true when this call ended it. */
async function markEnded(env: Env, id: number, status: number): Promise<boolean> {
  const done = await env.DB.prepare('UPDATE subscriptions SET status = ?, updated_at = ? WHERE id = ? AND status = ?')
    .bind(status, nowSeconds(), id, SUBSCRIPTION_STATUS.ACTIVE)
    .run()
  return done.meta.changes > 0
}

async function afterEnd(env: Env, sub: SubscriptionRow) {
  await leavePlanGroup(env, sub)
  await syncWallet(env, sub.userId)
}

export interface RevokeResult {
  subscription: SubscriptionRow
  /** Quota units credited to the balance (0 without a refund). */
  refunded: number
}

export async function revokeSubscription(env: Env, id: number, opts: { refund: boolean; actor: Actor }): Promise<RevokeResult> {
  const sub = await findSubscription(env, id)
  assertActive(sub)
  let refunded = 0
  if (opts.refund) {
    if (sub.expiresAt === 0) throw badRequest('A subscription that never expires has no unused share to refund')
    const amount = unusedShare(sub, (await getSettings(env)).int('QuotaPerUnit'), clockNow())
    if (amount > 0) {
      const user = await env.DB.prepare('SELECT username FROM users WHERE id = ?').bind(sub.userId).first<{ username: string }>()
      const result = await walletOf(env, sub.userId).credit({
        userId: sub.userId,
        amount,
        key: `plan-revoke:${sub.id}`,
        log: {
          type: LOG_TYPE.MANAGE,
          createdAt: nowSeconds(),
          username: user?.username ?? '',
          content: `${opts.actor.username} revoked subscription #${sub.id} to "${sub.terms.name}" and refunded its unused share`,
          metadata: { subscription_id: sub.id, plan_id: sub.planId, actor_id: opts.actor.id, actor: opts.actor.username },
        },
      })
      if (!result.ok) throw new ApiError(503, `The refund could not be credited (${result.reason}); the subscription is unchanged`)
      refunded = amount
    }
  }
  // A concurrent revoke may have ended it after the (idempotent) refund: that one did the rest.
  if (await markEnded(env, sub.id, SUBSCRIPTION_STATUS.REVOKED)) await afterEnd(env, sub)
  return { subscription: await findSubscription(env, sub.id), refunded }
}

export async function extendSubscription(env: Env, id: number, unit: PlanDurationUnit, count: number): Promise<SubscriptionRow> {
  const sub = await findSubscription(env, id)
  assertActive(sub)
  if (sub.expiresAt === 0) throw badRequest('This subscription never expires')
  const tz = (await getSettings(env)).str('BudgetTimezone') || 'UTC'
  const expiresAt = expiryAfter(sub.expiresAt, unit, count, tz)
  const done = await env.DB.prepare('UPDATE subscriptions SET expires_at = ?, updated_at = ? WHERE id = ? AND status = ? AND expires_at = ?')
    .bind(expiresAt, nowSeconds(), sub.id, SUBSCRIPTION_STATUS.ACTIVE, sub.expiresAt)
    .run()
  if (!done.meta.changes) throw badRequest('The subscription changed meanwhile; reload and try again')
  await syncWallet(env, sub.userId)
  return findSubscription(env, sub.id)
}

/** Cron: active subscriptions past their expiry become expired (a bounded batch per run); the number ended. */
export async function sweepExpiredSubscriptions(env: Env, limit = 200): Promise<number> {
  const { results } = await env.DB.prepare('SELECT id FROM subscriptions WHERE status = ? AND expires_at > 0 AND expires_at <= ? ORDER BY expires_at LIMIT ?')
    .bind(SUBSCRIPTION_STATUS.ACTIVE, clockNow(), limit)
    .all<{ id: number }>()
  let ended = 0
  for (const { id } of results) {
    const sub = await findSubscription(env, id)
    if (!(await markEnded(env, id, SUBSCRIPTION_STATUS.EXPIRED))) continue
    await afterEnd(env, sub)
    ended++
  }
  return ended
}
