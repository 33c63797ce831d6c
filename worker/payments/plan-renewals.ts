/**
 * Renewing subscriptions (issue 33's auto-renew). A renewal order (orders.subscription_id, migration
 * 0037) is a plan order that extends the subscription it names by one duration from its current
 * expiry instead of starting a new one. It is paid like any order (payments.service.ts completeOrder
 * checks amount, currency and the gateway's transaction); the extension happens exactly once: one D1
 * batch marks the order applied (`renewed_from` = the expiry it extended) only while the subscription
 * still has that expiry, and moves the expiry only when the order carries that mark. A renewal paid
 * after its subscription ended (expired or revoked) starts a new subscription from the order instead.
 *
 * Stripe renews by itself: a cycle's `invoice.paid` (outcome `renewed`) becomes a renewal order here,
 * once per invoice (`renewal_key` = `stripe-invoice:<id>`), at the price the first order froze; a
 * different amount or currency is refused. `customer.subscription.deleted` (outcome
 * `recurring_stopped`) switches auto-renew off for good; the subscription runs to its expiry.
 */
import { createDb } from '../db/client'
import { orders, type Order, type Payment } from '../db/schema'
import { eq } from 'drizzle-orm'
import { nowSeconds } from '../lib/time'
import { logger } from '../lib/logger'
import { getSettings } from '../settings/store'
import { findPlan } from '../plans/plan-store'
import { expiryAfter } from '../plans/plan-duration'
import { findSubscription, syncWallet, type SubscriptionRow } from '../plans/subscriptions'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import { centsToDecimal } from '../../shared/contract/payment-amount'
import type { OrderedPlanTerms, PlanDurationUnit } from '../../shared/contract/plans'
import { newTradeNo } from './order-placing'
import { alertRoot } from './payment-alerts'
import { startOrderedPlan, type PlanStart } from './plan-orders'
import type { RenewedNotify } from './gateways/types'

const serverLog = logger({ module: 'plan-renewals' })

const ACTIVE = SUBSCRIPTION_STATUS.ACTIVE

/** The order that started a subscription (its key is `order:<trade_no>`), if it was bought. */
export async function originOrder(env: Env, sub: Pick<SubscriptionRow, 'key' | 'source'>): Promise<Order | undefined> {
  if (sub.source !== 'order' || !sub.key.startsWith('order:')) return undefined
  const [row] = await createDb(env.DB)
    .select()
    .from(orders)
    .where(eq(orders.tradeNo, sub.key.slice('order:'.length)))
    .limit(1)
  return row
}

/** The subscription a live Stripe Subscription renews (the newest holding that id). */
async function subscriptionOfRecurring(env: Env, recurringId: string): Promise<SubscriptionRow | undefined> {
  const row = await env.DB.prepare('SELECT id FROM subscriptions WHERE stripe_subscription_id = ? ORDER BY id DESC LIMIT 1').bind(recurringId).first<{ id: number }>()
  return row ? findSubscription(env, row.id) : undefined
}

/**
 * Writes the pending renewal order of `sub` once under `renewalKey` (a second call answers the first
 * order, `created` false): the origin order's gateway, money and frozen terms. Undefined when the key
 * is taken by another subscription's order (never in practice).
 */
export async function writeRenewalOrder(env: Env, sub: SubscriptionRow, origin: Order, renewalKey: string): Promise<{ order: Order; created: boolean } | undefined> {
  const now = nowSeconds()
  const terms: OrderedPlanTerms | null = origin.planTerms ? { ...origin.planTerms, terms: sub.terms } : null
  const written = await env.DB.prepare(
    `INSERT INTO orders (trade_no, gateway_id, user_id, amount, order_amount, order_currency, quota, fee, order_fee, discount, status, created_at, updated_at, plan_id, plan_terms, subscription_id, renewal_key)
     VALUES (?, ?, ?, 0, ?, ?, 0, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT (renewal_key) DO NOTHING`
  )
    .bind(
      newTradeNo(),
      origin.gatewayId,
      sub.userId,
      origin.orderAmount,
      origin.orderCurrency,
      origin.fee,
      origin.orderFee,
      origin.discount,
      now,
      now,
      sub.planId,
      terms ? JSON.stringify(terms) : null,
      sub.id,
      renewalKey
    )
    .run()
  const [row] = await createDb(env.DB).select().from(orders).where(eq(orders.renewalKey, renewalKey)).limit(1)
  return row && row.subscriptionId === sub.id ? { order: row, created: written.meta.changes > 0 } : undefined
}

type RecurringOrder = { ok: true; order: Order } | { ok: false; reason: string }

/** A Stripe cycle invoice's renewal order (written once per invoice), or why it is refused. */
export async function recurringRenewalOrder(env: Env, gatewayRow: Payment, n: RenewedNotify): Promise<RecurringOrder> {
  const meta = { gateway_id: gatewayRow.id, recurring_id: n.recurringId, invoice: n.invoiceId, paid_cents: n.amountCents, paid_currency: n.currency }
  const sub = await subscriptionOfRecurring(env, n.recurringId)
  const origin = sub && (await originOrder(env, sub))
  if (!sub || !origin || origin.gatewayId !== gatewayRow.id) {
    await alertRoot(env, `renewal invoice ${n.invoiceId} names recurring subscription ${n.recurringId}, which renews none of our subscriptions; not credited`, meta)
    return { ok: false, reason: 'unknown recurring subscription' }
  }
  if (n.amountCents !== origin.orderAmount || n.currency.toUpperCase() !== origin.orderCurrency) {
    await alertRoot(
      env,
      `renewal invoice ${n.invoiceId} paid ${centsToDecimal(n.amountCents)} ${n.currency}, but subscription #${sub.id} renews at ${centsToDecimal(origin.orderAmount)} ${origin.orderCurrency}; not credited`,
      { ...meta, subscription_id: sub.id, order_cents: origin.orderAmount, order_currency: origin.orderCurrency }
    )
    return { ok: false, reason: 'amount or currency mismatch' }
  }
  const written = await writeRenewalOrder(env, sub, origin, `stripe-invoice:${n.invoiceId}`)
  if (!written) return { ok: false, reason: 'renewal order not written' }
  return { ok: true, order: written.order }
}

/** Stripe ended the recurring charge: auto-renew is off for good (the subscription runs to its expiry). */
export async function stopRecurring(env: Env, recurringId: string): Promise<number> {
  const done = await env.DB.prepare('UPDATE subscriptions SET auto_renew = 0, stripe_ended = 1, updated_at = ? WHERE stripe_subscription_id = ? AND stripe_ended = 0')
    .bind(nowSeconds(), recurringId)
    .run()
  return done.meta.changes
}

/** The duration one paid order (or renewal) buys: its frozen terms', else the plan's. */
export async function durationOf(env: Env, order: Order): Promise<{ unit: PlanDurationUnit; count: number }> {
  if (order.planTerms) return { unit: order.planTerms.duration_unit, count: order.planTerms.duration_count }
  const plan = await findPlan(env, order.planId!, true)
  return { unit: plan.durationUnit as PlanDurationUnit, count: plan.durationCount }
}

/**
 * Extends the subscription of a paid renewal order by one duration, exactly once: true when this
 * call extended it, false when the order had already been applied, undefined when the subscription
 * is no longer active (nothing changed).
 */
async function extendOnce(env: Env, order: Order & { subscriptionId: number }): Promise<boolean | undefined> {
  const { unit, count } = await durationOf(env, order)
  const tz = (await getSettings(env)).str('BudgetTimezone') || 'UTC'
  for (let attempt = 0; attempt < 5; attempt++) {
    const [fresh] = await createDb(env.DB).select({ renewedFrom: orders.renewedFrom }).from(orders).where(eq(orders.id, order.id)).limit(1)
    if (fresh && fresh.renewedFrom !== 0) return false
    const sub = await findSubscription(env, order.subscriptionId)
    if (sub.status !== ACTIVE || sub.expiresAt === 0) return undefined
    const from = sub.expiresAt
    const now = nowSeconds()
    const [marked] = await env.DB.batch([
      env.DB.prepare(
        'UPDATE orders SET renewed_from = ?, updated_at = ? WHERE id = ? AND renewed_from = 0 AND EXISTS (SELECT 1 FROM subscriptions WHERE id = ? AND status = ? AND expires_at = ?)'
      ).bind(from, now, order.id, sub.id, ACTIVE, from),
      env.DB.prepare(
        'UPDATE subscriptions SET expires_at = ?, updated_at = ? WHERE id = ? AND status = ? AND expires_at = ? AND EXISTS (SELECT 1 FROM orders WHERE id = ? AND renewed_from = ?)'
      ).bind(expiryAfter(from, unit, count, tz), now, sub.id, ACTIVE, from, order.id, from),
    ])
    if (marked!.meta.changes > 0) {
      await syncWallet(env, sub.userId)
      return true
    }
    // The subscription moved meanwhile (another renewal, an extension, its end): look again.
  }
  throw new Error(`subscription #${order.subscriptionId} kept changing; renewal ${order.tradeNo} not applied yet`)
}

type PlanRenewal = PlanStart & { renewed?: boolean }

/** A paid renewal order: its subscription extended once, or (ended meanwhile) a new one started from it. */
export async function renewOrderedPlan(env: Env, order: Order & { subscriptionId: number; planId: number }): Promise<PlanRenewal> {
  try {
    const extended = await extendOnce(env, order)
    const sub = await findSubscription(env, order.subscriptionId)
    if (extended !== undefined) return { ok: true, duplicate: !extended, planName: sub.terms.name, renewed: true }
    // Paid after the subscription ended: the money buys a fresh period (once, under order:<trade_no>).
    return startOrderedPlan(env, order, sub.stripeEnded ? undefined : sub.stripeSubscriptionId || undefined)
  } catch (err) {
    serverLog.error('renewal not applied', { trade_no: order.tradeNo, subscription_id: order.subscriptionId, error: err })
    return { ok: false, reason: err instanceof Error ? err.message : 'renewal not applied' }
  }
}
