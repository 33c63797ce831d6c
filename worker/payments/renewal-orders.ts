/**
 * Renewal orders on gateways without recurring payments (issue 33's auto-renew). The cron
 * (`placeRenewalOrders`, every five minutes) finds active auto-renewing subscriptions that no Stripe
 * Subscription renews, bought through an order, whose expiry is within the lead time (three days, or
 * half of one duration for shorter plans); for each it writes one pending renewal order under
 * `renew:<subscription>:<expires_at>` (so two passes write one) through the first order's gateway,
 * at its frozen price and terms, and tells the user (mail and/or Telegram, a link to /panel/plans).
 * The user pays it from the plans page (`payRenewal`, POST /api/user/subscription/:id/renew) through
 * the same gateway request as any order (order-placing.ts requestPayment); once a verified notify
 * arrives, plan-renewals.ts extends the subscription by one duration, exactly once.
 */
import { and, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { orders, payments, type Order } from '../db/schema'
import { conflict, notFound } from '../lib/errors'
import { clockNow } from '../lib/clock'
import { nowSeconds } from '../lib/time'
import { logger } from '../lib/logger'
import type { SessionUser } from '../env'
import { getSettings, type Settings } from '../settings/store'
import { expiryAfter } from '../plans/plan-duration'
import { findSubscription, renewalKeyOf, type SubscriptionRow } from '../plans/subscriptions'
import { notifyRenewalDue } from '../notify/user-notices'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import { centsToDecimal, type PaymentCurrency } from '../../shared/contract/payment-amount'
import type { PlacedOrder } from '../../shared/contract/payments'
import { requestPayment, usableGateway } from './order-placing'
import { durationOf, originOrder, writeRenewalOrder } from './plan-renewals'

const serverLog = logger({ module: 'renewal-orders' })

/** The longest lead time: a renewal order is placed at most this long before the expiry. */
const RENEWAL_LEAD_MS = 3 * 86_400_000

/** Subscriptions whose renewal order is placed by the cron (not by Stripe), expiring before `until`. */
async function dueSubscriptions(env: Env, now: number, limit: number): Promise<number[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM subscriptions WHERE status = ? AND auto_renew = 1 AND stripe_subscription_id = '' AND source = 'order'
     AND expires_at > ? AND expires_at <= ? ORDER BY expires_at LIMIT ?`
  )
    .bind(SUBSCRIPTION_STATUS.ACTIVE, now, now + RENEWAL_LEAD_MS, limit)
    .all<{ id: number }>()
  return results.map((r) => r.id)
}

/** One subscription's renewal order if it is due now; true when this call wrote it. */
async function placeOne(env: Env, sub: SubscriptionRow, now: number, tz: string): Promise<boolean> {
  const origin = await originOrder(env, sub)
  if (!origin || origin.planId === null) return false
  const { unit, count } = await durationOf(env, origin)
  const lead = Math.min(RENEWAL_LEAD_MS, (expiryAfter(sub.expiresAt, unit, count, tz) - sub.expiresAt) / 2)
  if (sub.expiresAt - now > lead) return false
  const [gateway] = await createDb(env.DB).select().from(payments).where(eq(payments.id, origin.gatewayId)).limit(1)
  if (!gateway?.enable || gateway.deletedAt) {
    serverLog.warn('renewal not placed: the gateway of the first order is gone', { subscription_id: sub.id, gateway_id: origin.gatewayId })
    return false
  }
  const written = await writeRenewalOrder(env, sub, origin, renewalKeyOf(sub))
  if (!written?.created) return false
  const { order } = written
  const money = `${centsToDecimal(order.orderAmount)} ${order.orderCurrency}`
  await notifyRenewalDue(
    env,
    sub.userId,
    `Your plan "${sub.terms.name}" expires at ${new Date(sub.expiresAt).toISOString().replace('T', ' ').slice(0, 16)} UTC. Its renewal (${money} through ${gateway.name}) is ready to pay.`
  )
  return true
}

/** Cron: the renewal orders now due (a bounded batch per run); the number written. */
export async function placeRenewalOrders(env: Env, limit = 100): Promise<number> {
  const now = clockNow()
  const tz = (await getSettings(env)).str('BudgetTimezone') || 'UTC'
  let placed = 0
  for (const id of await dueSubscriptions(env, now, limit)) {
    try {
      if (await placeOne(env, await findSubscription(env, id), now, tz)) placed++
    } catch (err) {
      serverLog.error('renewal order not placed', { subscription_id: id, error: err })
    }
  }
  return placed
}

/** The renewal order of the subscription's current expiry that is not paid yet (pending, closed or failed). */
async function openRenewalOrder(env: Env, sub: Pick<SubscriptionRow, 'id' | 'expiresAt'>): Promise<Order | undefined> {
  const [row] = await createDb(env.DB)
    .select()
    .from(orders)
    .where(and(eq(orders.renewalKey, renewalKeyOf(sub)), eq(orders.subscriptionId, sub.id)))
    .limit(1)
  return row && ['pending', 'closed', 'failed'].includes(row.status) ? row : undefined
}

/** POST /api/user/subscription/:id/renew: pay the open renewal order of one's own subscription through its gateway. */
export async function payRenewal(env: Env, settings: Settings, me: SessionUser, id: number, site: string): Promise<PlacedOrder> {
  const sub = await findSubscription(env, id).catch(() => undefined)
  if (!sub || sub.userId !== me.id) throw notFound('Subscription not found')
  if (sub.status !== SUBSCRIPTION_STATUS.ACTIVE) throw conflict('This subscription has ended')
  const order = await openRenewalOrder(env, sub)
  if (!order) throw conflict('No renewal is due for this subscription yet')
  const [row] = await createDb(env.DB).select({ uuid: payments.uuid }).from(payments).where(eq(payments.id, order.gatewayId)).limit(1)
  if (!row) throw notFound('This payment method is not available')
  const gw = await usableGateway(env, row.uuid)
  if (gw.row.currency !== order.orderCurrency) throw conflict(`This payment method now charges in ${gw.row.currency}; subscribe again instead`)
  // A renewal order closed by the stale-order sweep or failed at the gateway is asked for again (the
  // sweep may close it again later: a closed order is still credited when its payment arrives).
  await createDb(env.DB)
    .update(orders)
    .set({ status: 'pending', updatedAt: nowSeconds() })
    .where(and(eq(orders.id, order.id), eq(orders.status, order.status)))
  const subject = `${settings.str('SystemName') || 'AI Gateway'} plan "${sub.terms.name}" renewal ${centsToDecimal(order.orderAmount)} ${order.orderCurrency}`
  return requestPayment(
    env,
    settings,
    me.id,
    gw,
    { tradeNo: order.tradeNo, payCents: order.orderAmount, currency: order.orderCurrency as PaymentCurrency, subject, returnPath: '/panel/plans' },
    site
  )
}
