/**
 * Starting a subscription (issue 33), for an administrator's grant, a default plan, a redemption
 * code or a paid order: the plan's terms are copied in, it starts now and expires after the plan's
 * duration in BudgetTimezone. One conditional INSERT decides, so concurrent starts cannot pass the
 * plan's `max_per_user` (active + expired subscriptions of that plan; 0 = no limit) and a repeated
 * `key` changes nothing and answers the first subscription. The user moves to the plan's group, and
 * the wallet reloads what the user holds (`syncUser`). A paid order (`paid`) is honoured whatever
 * happened since it was placed: its plan may have been unpublished, edited or deleted meanwhile (the
 * terms frozen when it was ordered apply — `ordered`; an order placed before migration 0035 has none
 * and gets the plan's current stored terms) and the limit, checked when ordering, no longer refuses it.
 * An order that asked for auto-renew starts with it on (and, paid through Stripe, names the Stripe
 * Subscription that renews it: payments/plan-renewals.ts).
 */
import { eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { subscriptions } from '../db/schema'
import { conflict, notFound } from '../lib/errors'
import { clockNow } from '../lib/clock'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { walletOf } from '../wallet/wallet-client'
import { findPlan, termsOf } from './plan-store'
import { expiryAfter } from './plan-duration'
import { enterPlanGroup, findPlanUser, groupBeforePlans } from './plan-groups'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { OrderedPlanTerms, PlanDurationUnit } from '../../shared/contract/plans'

export type SubscriptionRow = typeof subscriptions.$inferSelect
export type SubscriptionSource = 'grant' | 'order' | 'redemption' | 'default'

export interface StartInput {
  userId: number
  planId: number
  /** Idempotency key: a second start with it answers the first subscription. */
  key: string
  source: SubscriptionSource
  /** The administrator who granted it (0: the system). */
  createdBy?: number
  /** A paid order: a deleted plan still starts and `max_per_user` does not refuse. */
  paid?: boolean
  /** The terms and duration frozen when a plan order was placed; without them the plan's current ones apply. */
  ordered?: OrderedPlanTerms | null
  /** Starts with auto-renew on (a plan order that asked for it). */
  autoRenew?: boolean
  /** The Stripe Subscription that renews it (a recurring Stripe order). */
  stripeSubscriptionId?: string
}

export interface StartResult {
  subscription: SubscriptionRow
  /** False when the key had already started this subscription. */
  created: boolean
}

/** The key of the one renewal order the cron places for a subscription's current expiry (payments/renewal-orders.ts). */
export const renewalKeyOf = (sub: { id: number; expiresAt: number }) => `renew:${sub.id}:${sub.expiresAt}`

const HOLDING = [SUBSCRIPTION_STATUS.ACTIVE, SUBSCRIPTION_STATUS.EXPIRED] as const

/** Whether the user already holds the plan's `max_per_user` subscriptions (active + expired), as a start counts them. */
export async function atPlanLimit(env: Env, userId: number, plan: { id: number; maxPerUser: number }): Promise<boolean> {
  if (plan.maxPerUser <= 0) return false
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE user_id = ? AND plan_id = ? AND status IN (?, ?)')
    .bind(userId, plan.id, ...HOLDING)
    .first<{ n: number }>()
  return (row?.n ?? 0) >= plan.maxPerUser
}

export async function findSubscription(env: Env, id: number): Promise<SubscriptionRow> {
  const [row] = await createDb(env.DB).select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1)
  if (!row) throw notFound('Subscription not found')
  return row
}

/** The subscription a key started, if any. */
export async function subscriptionByKey(env: Env, key: string): Promise<SubscriptionRow | undefined> {
  const [row] = await createDb(env.DB).select().from(subscriptions).where(eq(subscriptions.key, key)).limit(1)
  return row
}

/** Tell the user's wallet that what they hold changed (it reloads their subscriptions). */
export async function syncWallet(env: Env, userId: number): Promise<void> {
  await walletOf(env, userId).syncUser({ userId })
}

function sameStart(row: SubscriptionRow, input: StartInput): SubscriptionRow {
  if (row.userId !== input.userId || row.planId !== input.planId) throw conflict('This key already started another subscription')
  return row
}

export async function startSubscription(env: Env, input: StartInput): Promise<StartResult> {
  const earlier = await subscriptionByKey(env, input.key)
  if (earlier) {
    const subscription = sameStart(earlier, input)
    // A retry after a wallet that did not answer: tell it now.
    await syncWallet(env, input.userId)
    return { subscription, created: false }
  }
  const plan = await findPlan(env, input.planId, input.paid)
  const user = await findPlanUser(env, input.userId)
  if (!user) throw notFound('User not found')
  const settings = await getSettings(env)
  const tz = settings.str('BudgetTimezone') || 'UTC'
  const startsAt = clockNow()
  const ordered = input.ordered ?? { terms: termsOf(plan), duration_unit: plan.durationUnit as PlanDurationUnit, duration_count: plan.durationCount }
  const expiresAt = expiryAfter(startsAt, ordered.duration_unit, ordered.duration_count, tz)
  const terms = ordered.terms
  const previousGroup = terms.group ? await groupBeforePlans(env, user) : ''
  const now = nowSeconds()
  const inserted = await env.DB.prepare(
    `INSERT INTO subscriptions (user_id, plan_id, terms, status, source, key, starts_at, expires_at, previous_group, created_by, created_at, updated_at, auto_renew, stripe_subscription_id)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     WHERE ? = 0 OR (SELECT COUNT(*) FROM subscriptions WHERE user_id = ? AND plan_id = ? AND status IN (?, ?)) < ?
     ON CONFLICT (key) DO NOTHING RETURNING id`
  )
    .bind(
      user.id,
      plan.id,
      JSON.stringify(terms),
      SUBSCRIPTION_STATUS.ACTIVE,
      input.source,
      input.key,
      startsAt,
      expiresAt,
      previousGroup,
      input.createdBy ?? 0,
      now,
      now,
      // A plan that never expires has nothing to renew.
      input.autoRenew && expiresAt > 0 ? 1 : 0,
      input.stripeSubscriptionId ?? '',
      input.paid ? 0 : plan.maxPerUser,
      user.id,
      plan.id,
      ...HOLDING,
      plan.maxPerUser
    )
    .first<{ id: number }>()
  if (!inserted) {
    const raced = await subscriptionByKey(env, input.key)
    if (raced) return { subscription: sameStart(raced, input), created: false }
    throw conflict(`This user already holds the plan's limit of ${plan.maxPerUser} subscription(s)`)
  }
  await enterPlanGroup(env, user, terms)
  await syncWallet(env, user.id)
  return { subscription: await findSubscription(env, inserted.id), created: true }
}
