/**
 * Payments: order creation, the notify handler that credits exactly once, the stale-order sweep and
 * refunds (gateway rows and their config: gateway-rows.ts).
 *
 * Exactly once: a verified notify whose amount and currency equal the order's is credited through
 * the user's wallet under the idempotency key `payment:<trade_no>` (a repeat changes nothing), and
 * only then is the order moved to `success` by a conditional UPDATE; the gateway hears "success"
 * only after both, so any failure makes it retry, and the retry finds the credit already applied.
 * Closed (and failed) orders are still credited when their money arrives. Everything refused —
 * bad signature, unknown order, other gateway, wrong amount or currency, disabled gateway — changes
 * nothing and leaves a log row for root with the raw notify; the refusals anyone can provoke write at
 * most one row a minute per gateway and reason, and an unknown gateway writes nothing
 * (payment-alerts.ts).
 *
 * A plan order (orders.plan_id, plan-orders.ts) passes the same checks; instead of the credit its
 * subscription starts once under `order:<trade_no>` (a renewal order extends its subscription once
 * instead; a recurring gateway's cycles and stops arrive as `renewed` / `recurring_stopped`:
 * plan-renewals.ts), and the balance does not change.
 */
import { and, eq, inArray, lt, ne } from 'drizzle-orm'
import { createDb } from '../db/client'
import { orders, payments, users, type Order, type Payment } from '../db/schema'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import type { SessionUser } from '../env'
import type { Settings } from '../settings/store'
import type { OrderStatus, Order as OrderView, PlacedOrder } from '../../shared/contract/payments'
import { amountProblem, centsToDecimal, discountFor, MAX_TOPUP_AMOUNT, parseDiscounts } from '../../shared/contract/payment-amount'
import { gatewayOf } from './gateways/registry'
import { parseConfig } from './gateway-rows'
import { type AckKind, type NotifyRequest, type PaidNotify } from './gateways/types'
import { gatewayPrice, placeOrder, usableGateway } from './order-placing'
import { revokeOrderedPlan, startOrderedPlan } from './plan-orders'
import { recurringRenewalOrder, renewOrderedPlan, stopRecurring } from './plan-renewals'
import { metrics } from '../lib/metrics/recorder'
import { notifyPayment, notifyPlanPayment } from '../telegram/notify'
import { alertRoot, alertRootThrottled, rawOf } from './payment-alerts'
import { paySignupRewardsQuietly } from '../billing/signup-rewards'
import { walletOf } from '../wallet/wallet-client'
import { LOG_TYPE } from '../../shared/contract/enums'
import { emitInBackground } from '../notify/emit'
import type { BackgroundCtx } from '../cache/versioned'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'payments' })

/** Pending orders older than this are closed by the cron (after asking the gateway). */
export const ORDER_CLOSE_AFTER_SECONDS = 3 * 3600
const CREDITABLE: OrderStatus[] = ['pending', 'closed', 'failed']

// ---- orders ------------------------------------------------------------------------------------

export function orderView(o: Order & { username?: string | null; gatewayName?: string | null; gatewayType?: string | null; planName?: string | null }) {
  return {
    id: o.id,
    trade_no: o.tradeNo,
    gateway_id: o.gatewayId,
    gateway_name: o.gatewayName ?? '',
    gateway_type: o.gatewayType ?? '',
    gateway_no: o.gatewayNo,
    user_id: o.userId,
    username: o.username ?? '',
    amount: o.amount,
    order_amount: o.orderAmount / 100,
    order_currency: o.orderCurrency,
    fee: o.fee / 100,
    order_fee: o.orderFee === null ? null : o.orderFee / 100,
    discount: o.discount / 100,
    quota: o.quota,
    status: o.status as OrderStatus,
    created_at: o.createdAt,
    paid_at: o.paidAt,
    plan_id: o.planId,
    plan_name: o.planId === null ? '' : (o.planName ?? ''),
  } satisfies OrderView
}

export async function createOrder(env: Env, settings: Settings, me: SessionUser, input: { uuid: string; amount: number }, site: string): Promise<PlacedOrder> {
  const gw = await usableGateway(env, input.uuid)
  const min = settings.int('PaymentMinAmount')
  const problem = amountProblem(input.amount, min)
  if (problem) {
    const message =
      problem === 'below_minimum'
        ? `The amount must be at least ${min}`
        : problem === 'above_maximum'
          ? `The amount must be at most ${MAX_TOPUP_AMOUNT}`
          : 'The amount must be a positive whole number'
    throw badRequest(message, { fields: { amount: message } })
  }
  const multiplier = discountFor(input.amount, parseDiscounts(settings.str('RechargeDiscount')))
  const price = gatewayPrice(settings, gw.row, input.amount * 100, multiplier)
  return placeOrder(
    env,
    settings,
    me,
    gw,
    {
      amount: input.amount,
      quota: input.amount * settings.int('QuotaPerUnit'),
      planId: null,
      planTerms: null,
      price,
      subject: `${settings.str('SystemName') || 'AI Gateway'} top-up ${centsToDecimal(price.payCents)} ${price.currency}`,
      returnPath: '/panel/topup',
    },
    site
  )
}

// ---- notify ------------------------------------------------------------------------------------

export type CompleteResult = { ok: true; duplicate: boolean } | { ok: false; retry: boolean; reason: string }

/**
 * Credit a verified payment for `order` once and mark it success. Shared by the notify and by the
 * cron's gateway query.
 */
export async function completeOrder(
  env: Env,
  gatewayRow: Payment,
  order: Order,
  paid: Pick<PaidNotify, 'gatewayNo' | 'amountCents' | 'currency' | 'recurringId'>,
  via: string
): Promise<CompleteResult> {
  const db = createDb(env.DB)
  const currency = paid.currency || gatewayRow.currency
  const meta = {
    trade_no: order.tradeNo,
    gateway_id: gatewayRow.id,
    gateway_no: paid.gatewayNo,
    paid_cents: paid.amountCents,
    paid_currency: currency,
    order_cents: order.orderAmount,
    order_currency: order.orderCurrency,
    via,
  }
  if (paid.amountCents !== order.orderAmount || currency.toUpperCase() !== order.orderCurrency) {
    await alertRoot(
      env,
      `paid amount ${centsToDecimal(paid.amountCents)} ${currency} does not match order ${order.tradeNo} (${centsToDecimal(order.orderAmount)} ${order.orderCurrency}); not credited`,
      meta
    )
    return { ok: false, retry: false, reason: 'amount or currency mismatch' }
  }
  if (order.status === 'success' || order.status === 'refunded') return { ok: true, duplicate: true }
  if (paid.gatewayNo) {
    const [other] = await db
      .select({ tradeNo: orders.tradeNo })
      .from(orders)
      .where(and(eq(orders.gatewayId, gatewayRow.id), eq(orders.gatewayNo, paid.gatewayNo), ne(orders.tradeNo, order.tradeNo)))
      .limit(1)
    if (other) {
      await alertRoot(env, `gateway transaction ${paid.gatewayNo} was already used for order ${other.tradeNo}; order ${order.tradeNo} not credited`, meta)
      return { ok: false, retry: false, reason: 'transaction already used' }
    }
  }
  const now = nowSeconds()
  const applied =
    order.planId !== null ? await startPlan(env, { ...order, planId: order.planId }, paid.recurringId, meta) : await creditTopup(env, gatewayRow, order, paid, now, meta)
  if (!applied.ok) return applied
  // The credit or subscription is durable; now the order. A concurrent notify may have won: fine.
  await db
    .update(orders)
    .set({ status: 'success', gatewayNo: paid.gatewayNo, paidAt: now, updatedAt: now })
    .where(and(eq(orders.id, order.id), inArray(orders.status, CREDITABLE)))
  if (order.status !== 'pending') await alertRoot(env, `late payment for ${order.status} order ${order.tradeNo} credited`, meta)
  if (!applied.duplicate) {
    // A first payment releases the held sign-up rewards (once).
    await paySignupRewardsQuietly(env, order.userId, 'top-up')
    const money = `${centsToDecimal(order.orderAmount)} ${order.orderCurrency}`
    if (applied.planName !== undefined) await notifyPlanPayment(env, order.userId, money, gatewayRow.name, applied.planName, applied.renewed)
    else await notifyPayment(env, order.userId, money, gatewayRow.name, applied.userQuota)
  }
  return { ok: true, duplicate: applied.duplicate }
}

type Applied =
  | { ok: true; duplicate: boolean; userQuota: number; planName?: undefined }
  | { ok: true; duplicate: boolean; planName: string; renewed?: boolean }
  | Extract<CompleteResult, { ok: false }>

/** A top-up's credit through the wallet, once under `payment:<trade_no>`. */
async function creditTopup(env: Env, gatewayRow: Payment, order: Order, paid: Pick<PaidNotify, 'gatewayNo'>, now: number, meta: Record<string, unknown>): Promise<Applied> {
  const [user] = await createDb(env.DB).select({ username: users.username }).from(users).where(eq(users.id, order.userId)).limit(1)
  let credit
  try {
    credit = await walletOf(env, order.userId).credit({
      userId: order.userId,
      amount: order.quota,
      key: `payment:${order.tradeNo}`,
      log: {
        type: LOG_TYPE.TOPUP,
        createdAt: now,
        username: user?.username,
        content: `Online top-up through ${gatewayRow.name}: paid ${centsToDecimal(order.orderAmount)} ${order.orderCurrency} (order ${order.tradeNo})`,
        metadata: {
          trade_no: order.tradeNo,
          gateway_id: gatewayRow.id,
          gateway_type: gatewayRow.type,
          gateway_no: paid.gatewayNo,
          amount: order.amount,
          order_amount: order.orderAmount / 100,
          order_currency: order.orderCurrency,
        },
      },
    })
  } catch (err) {
    serverLog.error('order credit failed', { trade_no: order.tradeNo, error: err })
    return { ok: false, retry: true, reason: 'credit failed' }
  }
  if (!credit.ok) {
    await alertRoot(env, `order ${order.tradeNo} is paid but could not be credited (${credit.reason})`, meta)
    return { ok: false, retry: true, reason: credit.reason }
  }
  return { ok: true, duplicate: Boolean(credit.duplicate), userQuota: credit.userQuota }
}

/** A plan order's subscription (plan-orders.ts), once under `order:<trade_no>`, or a renewal's extension (plan-renewals.ts); no balance change. */
async function startPlan(env: Env, order: Order & { planId: number }, recurringId: string | undefined, meta: Record<string, unknown>): Promise<Applied> {
  const { subscriptionId } = order
  const started = subscriptionId !== null ? await renewOrderedPlan(env, { ...order, subscriptionId }) : await startOrderedPlan(env, order, recurringId)
  if (started.ok) return started
  await alertRoot(env, `plan order ${order.tradeNo} is paid but its subscription could not be started (${started.reason})`, meta)
  return { ok: false, retry: true, reason: 'subscription not started' }
}

/** ANY /api/payment/notify/:uuid — the gateway's callback. */
export async function handleNotify(env: Env, uuid: string, req: NotifyRequest, bg?: BackgroundCtx): Promise<Response> {
  const db = createDb(env.DB)
  const [row] = await db.select().from(payments).where(eq(payments.uuid, uuid)).limit(1)
  const gateway = row && gatewayOf(row.type)
  // Anyone can call this route: an unknown gateway is a plain 404 that writes nothing.
  if (!row || !gateway) return new Response('unknown payment gateway', { status: 404 })
  // Every answer to a known gateway is counted (lib/metrics/): ignored events apart from refusals.
  const answer = (kind: AckKind, result: 'accepted' | 'ignored' | 'refused', reason?: string) => {
    metrics.inc('gateway_payment_notifies_total', [row.type, result])
    // Refusals are alerted once per gateway and minute (the minute is part of the dedup subject).
    if (result === 'refused' && bg) {
      emitInBackground(env, bg, {
        event: 'payment.refused',
        subject: `payment_gateway:${row.id}:${Math.floor(Date.now() / 60_000)}`,
        text: `A payment notify to ${row.name} (#${row.id}) was refused: ${reason ?? 'refused'}`,
        data: { gateway_id: row.id, gateway: row.name, gateway_type: row.type, reason: reason ?? '' },
      })
    }
    return gateway.ack(kind, reason)
  }
  if (!row.enable || row.deletedAt) {
    await alertRootThrottled(env, row.id, 'disabled', `notify for disabled gateway ${row.name} (#${row.id}) refused`, { gateway_id: row.id, raw: rawOf(req) })
    return answer('reject', 'refused', 'gateway disabled')
  }
  let outcome
  try {
    outcome = await gateway.parseNotify(parseConfig(row), req)
  } catch (err) {
    serverLog.error('payment notify parse failed', { gateway_type: row.type, gateway_id: row.id, error: err })
    outcome = { kind: 'invalid' as const, reason: 'unreadable notify' }
  }
  if (outcome.kind === 'invalid') {
    await alertRootThrottled(env, row.id, 'invalid', `notify to ${row.name} (#${row.id}) refused: ${outcome.reason}`, {
      gateway_id: row.id,
      trade_no: outcome.tradeNo,
      reason: outcome.reason,
      raw: rawOf(req),
    })
    return answer('reject', 'refused', outcome.reason)
  }
  if (outcome.kind === 'ignored') return answer('ok', 'ignored')
  if (outcome.kind === 'recurring_stopped') return answer('ok', (await stopRecurring(env, outcome.recurringId)) ? 'accepted' : 'ignored')
  if (outcome.kind === 'renewed') {
    const renewal = await recurringRenewalOrder(env, row, outcome)
    if (!renewal.ok) return answer('reject', 'refused', renewal.reason)
    const paid = { gatewayNo: outcome.invoiceId, amountCents: outcome.amountCents, currency: outcome.currency }
    const result = await completeOrder(env, row, renewal.order, paid, 'notify')
    return result.ok ? answer('ok', 'accepted') : answer(result.retry ? 'retry' : 'reject', 'refused', result.reason)
  }
  const [order] = await db.select().from(orders).where(eq(orders.tradeNo, outcome.tradeNo)).limit(1)
  if (!order || order.gatewayId !== row.id) {
    await alertRootThrottled(
      env,
      row.id,
      'unknown-order',
      `notify to ${row.name} (#${row.id}) for ${order ? "another gateway's" : 'an unknown'} order ${outcome.tradeNo.slice(0, 64)} refused`,
      {
        gateway_id: row.id,
        trade_no: outcome.tradeNo.slice(0, 64),
        raw: rawOf(req),
      }
    )
    return answer('reject', 'refused', 'unknown order')
  }
  const result = await completeOrder(env, row, order, outcome, 'notify')
  if (result.ok) {
    if (result.duplicate)
      await alertRootThrottled(env, row.id, 'repeated', `repeated notify for order ${order.tradeNo} acknowledged; nothing credited again`, {
        gateway_id: row.id,
        trade_no: order.tradeNo,
        gateway_no: outcome.gatewayNo,
      })
    return answer('ok', 'accepted')
  }
  return answer(result.retry ? 'retry' : 'reject', 'refused', result.reason)
}

// ---- cron and refunds --------------------------------------------------------------------------

/** Close pending orders older than 3 h, asking the gateway first where it can be asked. */
export async function closeStaleOrders(env: Env, limit = 50): Promise<{ closed: number; credited: number }> {
  const db = createDb(env.DB)
  const cutoff = nowSeconds() - ORDER_CLOSE_AFTER_SECONDS
  const stale = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'pending'), lt(orders.createdAt, cutoff)))
    .orderBy(orders.id)
    .limit(limit)
  let closed = 0
  let credited = 0
  const gateways = new Map<number, Payment | undefined>()
  for (const order of stale) {
    if (!gateways.has(order.gatewayId)) gateways.set(order.gatewayId, (await db.select().from(payments).where(eq(payments.id, order.gatewayId)).limit(1))[0])
    const row = gateways.get(order.gatewayId)
    const gateway = row && gatewayOf(row.type)
    if (row && gateway?.query && row.enable && !row.deletedAt) {
      try {
        const q = await gateway.query(parseConfig(row), { tradeNo: order.tradeNo, gatewayRef: order.gatewayRef })
        if (q?.paid && q.amountCents !== undefined) {
          const r = await completeOrder(
            env,
            row,
            order,
            { gatewayNo: q.gatewayNo ?? '', amountCents: q.amountCents, currency: q.currency ?? '', recurringId: q.recurringId },
            'query'
          )
          if (r.ok) {
            credited++
            continue
          }
        }
      } catch (err) {
        serverLog.warn('order query failed; closing anyway', { trade_no: order.tradeNo, error: err })
      }
    }
    const res = await db
      .update(orders)
      .set({ status: 'closed', updatedAt: nowSeconds() })
      .where(and(eq(orders.id, order.id), eq(orders.status, 'pending')))
      .returning({ id: orders.id })
    closed += res.length
  }
  return { closed, credited }
}

/**
 * Mark a paid order refunded (after the money went back through the gateway's dashboard): the wallet
 * takes a top-up's quota back; a plan order's subscription is revoked (plan-orders.ts).
 */
export async function refundOrder(env: Env, actor: SessionUser, id: number) {
  const db = createDb(env.DB)
  const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
  if (!order) throw notFound('Order not found')
  if (order.status !== 'success') throw conflict('Only a paid order can be refunded')
  const [owner] = await db.select({ id: users.id, username: users.username, role: users.role }).from(users).where(eq(users.id, order.userId)).limit(1)
  if (owner && actor.role < 100 && owner.id !== actor.id && owner.role >= actor.role) throw new ApiError(403, 'You cannot manage an administrator of your level or above')
  const now = nowSeconds()
  if (order.planId !== null) await revokeOrderedPlan(env, actor, order, owner)
  else await takeBackTopup(env, actor, order, owner, now)
  const [row] = await db
    .update(orders)
    .set({ status: 'refunded', updatedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'success')))
    .returning()
  return row ?? { ...order, status: 'refunded' }
}

/** A top-up's refund: the wallet takes the quota back (409 when the balance no longer covers it). */
async function takeBackTopup(env: Env, actor: SessionUser, order: Order, owner: { username: string } | undefined, now: number) {
  const debit = await walletOf(env, order.userId).credit({
    userId: order.userId,
    amount: -order.quota,
    key: `payment-refund:${order.tradeNo}`,
    log: {
      type: LOG_TYPE.MANAGE,
      createdAt: now,
      username: owner?.username,
      content: `Top-up order ${order.tradeNo} refunded by ${actor.username}: ${centsToDecimal(order.orderAmount)} ${order.orderCurrency} returned, quota taken back`,
      metadata: { trade_no: order.tradeNo, actor_id: actor.id, actor: actor.username },
    },
  })
  if (!debit.ok) {
    if (debit.reason === 'insufficient_user_quota') throw conflict('The user has already spent part of this top-up; the balance cannot cover the refund')
    throw new ApiError(503, `The refund could not be taken from the balance (${debit.reason})`)
  }
}
