/**
 * Plan orders (issue 33): buying a subscription plan through an enabled payment gateway. The order
 * costs the plan's price (USD cents) with the gateway's fee and currency, like a top-up without its
 * discount, carries quota 0, names the plan (orders.plan_id) and freezes its terms and duration
 * (orders.plan_terms, migration 0035). Once a verified notify passes the
 * same checks as a top-up's (payments.service.ts completeOrder), the subscription starts under the
 * key `order:<trade_no>` — exactly once, however many notifies arrive — instead of a wallet credit:
 * the balance never changes. A paid order is honoured with the terms frozen when it was placed, even
 * if the plan was edited, unpublished or deleted after ordering (an order placed before migration
 * 0035 froze none: it gets the plan's current stored terms), and the per-user limit (checked when ordering)
 * does not refuse it. Refunding a plan order revokes the subscription it started, or a renewal order
 * the subscription it extended (no balance refund).
 * With `auto_renew`, the subscription starts with auto-renew on; on a gateway with recurring
 * charges (Stripe) the order is one: every day/week/month/year × count (hours and unlimited plans
 * cannot recur: 400), renewed later by plan-renewals.ts.
 */
import { conflict, notFound, badRequest } from '../lib/errors'
import { logger } from '../lib/logger'
import type { SessionUser } from '../env'
import type { Order } from '../db/schema'
import type { Settings } from '../settings/store'
import { auditLog } from '../logs/audit-log'
import { findPlan, orderedTermsOf } from '../plans/plan-store'
import { atPlanLimit, findSubscription, startSubscription, subscriptionByKey } from '../plans/subscriptions'
import { revokeSubscription } from '../plans/subscription-end'
import { centsToDecimal } from '../../shared/contract/payment-amount'
import type { PlacedOrder } from '../../shared/contract/payments'
import type { PlanSubscribeBody } from '../../shared/contract/plans'
import { type PayInput, RECURRING_INTERVALS, type RecurringInterval } from './gateways/types'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import { gatewayPrice, placeOrder, usableGateway } from './order-placing'

const serverLog = logger({ module: 'plan-orders' })

/** The key of the subscription a plan order started. */
const orderKey = (tradeNo: string) => `order:${tradeNo}`

/** Stripe's longest recurring interval is three years. */
const RECURRING_MAX_COUNT: Record<RecurringInterval, number> = { day: 1095, week: 156, month: 36, year: 3 }

/** The recurring charge of an auto-renewing plan order on a gateway that has them (400 when the plan's duration cannot recur). */
function recurringOf(gatewayRecurs: boolean, plan: { id: number; durationUnit: string; durationCount: number }, autoRenew: boolean): PayInput['recurring'] {
  if (!autoRenew) return undefined
  if (plan.durationUnit === 'unlimited') throw badRequest('This plan never expires, so it cannot renew; subscribe without auto-renew')
  if (!gatewayRecurs) return undefined
  const interval = RECURRING_INTERVALS.find((i) => i === plan.durationUnit)
  if (!interval) throw badRequest('This payment method cannot renew a plan of hours automatically; subscribe without auto-renew or choose another payment method')
  if (plan.durationCount > RECURRING_MAX_COUNT[interval]) throw badRequest('This payment method cannot renew a plan longer than three years automatically')
  return { interval, count: plan.durationCount, planId: plan.id }
}

/** POST /api/plan/subscribe: a published, priced plan the user may still buy, through an enabled gateway. */
export async function createPlanOrder(env: Env, settings: Settings, me: SessionUser, input: PlanSubscribeBody, site: string): Promise<PlacedOrder> {
  const gw = await usableGateway(env, input.uuid)
  const plan = await findPlan(env, input.plan_id)
  if (!plan.published) throw notFound('Plan not found')
  if (plan.priceCents <= 0) throw badRequest('This plan has no price; it cannot be bought')
  const autoRenew = input.auto_renew ?? false
  const recurring = recurringOf(Boolean(gw.gateway.recurring), plan, autoRenew)
  if (await atPlanLimit(env, me.id, plan)) throw conflict(`You already hold this plan's limit of ${plan.maxPerUser} subscription(s)`)
  const price = gatewayPrice(settings, gw.row, plan.priceCents, 1)
  return placeOrder(
    env,
    settings,
    me,
    gw,
    {
      amount: 0,
      quota: 0,
      planId: plan.id,
      planTerms: { ...orderedTermsOf(plan), ...(autoRenew ? { auto_renew: true } : {}) },
      price,
      recurring,
      subject: `${settings.str('SystemName') || 'AI Gateway'} plan "${plan.name}" ${centsToDecimal(price.payCents)} ${price.currency}`,
      returnPath: '/panel/plans',
    },
    site
  )
}

export type PlanStart = { ok: true; duplicate: boolean; planName: string } | { ok: false; reason: string }

/**
 * A paid plan order's subscription, started once under `order:<trade_no>`; a failure is retried by
 * the gateway. `recurringId`: the Stripe Subscription the payment started, which renews it.
 */
export async function startOrderedPlan(env: Env, order: Order & { planId: number }, recurringId?: string): Promise<PlanStart> {
  try {
    const { subscription, created } = await startSubscription(env, {
      userId: order.userId,
      planId: order.planId,
      key: orderKey(order.tradeNo),
      source: 'order',
      paid: true,
      ordered: order.planTerms,
      autoRenew: Boolean(order.planTerms?.auto_renew || recurringId),
      ...(recurringId ? { stripeSubscriptionId: recurringId } : {}),
    })
    return { ok: true, duplicate: !created, planName: subscription.terms.name }
  } catch (err) {
    serverLog.error('plan order not started', { trade_no: order.tradeNo, plan_id: order.planId, error: err })
    return { ok: false, reason: err instanceof Error ? err.message : 'subscription not started' }
  }
}

/** The refund of a paid plan order: its subscription is revoked (nothing goes back to the balance). */
export async function revokeOrderedPlan(env: Env, actor: SessionUser, order: Order, owner: { id: number; username: string } | undefined): Promise<void> {
  // A paid renewal order extended its subscription (plan-renewals.ts) unless that had ended and it started its own.
  const renewed = order.subscriptionId !== null && order.renewedFrom !== 0 ? await findSubscription(env, order.subscriptionId) : undefined
  const sub = (await subscriptionByKey(env, orderKey(order.tradeNo))) ?? renewed
  if (!sub) throw conflict('This plan order started no subscription, so there is nothing to revoke')
  // An expired or already revoked subscription has nothing left to take back.
  if (sub.status === SUBSCRIPTION_STATUS.ACTIVE) await revokeSubscription(env, sub.id, { refund: false, actor })
  if (owner) {
    await auditLog(
      env,
      actor,
      owner,
      `Plan order ${order.tradeNo} refunded by ${actor.username}: ${centsToDecimal(order.orderAmount)} ${order.orderCurrency} returned, subscription #${sub.id} to "${sub.terms.name}" revoked`,
      { trade_no: order.tradeNo, subscription_id: sub.id, plan_id: sub.planId }
    )
  }
}
