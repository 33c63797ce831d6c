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
 */
import { and, eq, inArray, lt, ne, sql } from 'drizzle-orm'
import { createDb } from '../db/client'
import { orders, payments, users, type Order, type Payment } from '../db/schema'
import { ApiError, badRequest, conflict, notFound } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import type { SessionUser } from '../env'
import type { Settings } from '../settings/store'
import type { OrderStatus, Order as OrderView, PlacedOrder } from '../../shared/contract/payments'
import { amountProblem, centsToDecimal, computeOrderAmount, MAX_TOPUP_AMOUNT, parseDiscounts, type PaymentCurrency } from '../../shared/contract/payment-amount'
import { gatewayOf } from './gateways/registry'
import { notifyUrl, parseConfig, siteBase } from './gateway-rows'
import { type AckKind, GatewayError, type NotifyRequest, type PaidNotify, type PayRequest } from './gateways/types'
import { metrics } from '../lib/metrics/recorder'
import { notifyPayment } from '../telegram/notify'
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
/** At most this many pending orders per user in the last 15 minutes. */
const MAX_PENDING_ORDERS = 10
const CREDITABLE: OrderStatus[] = ['pending', 'closed', 'failed']

// ---- orders ------------------------------------------------------------------------------------

export function orderView(o: Order & { username?: string | null; gatewayName?: string | null; gatewayType?: string | null }) {
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
  } satisfies OrderView
}

/**
 * A trade number every gateway accepts (letters and digits, 6–32 characters), unique in practice.
 * It starts with a letter so that no URL parser takes it for a number (19 digits lose precision).
 */
export function newTradeNo(): string {
  const random = crypto.getRandomValues(new Uint32Array(2))
  return `T${Date.now()}${String(random[0]! % 1_000_000).padStart(6, '0')}${String(random[1]! % 1000).padStart(3, '0')}`
}

export async function createOrder(env: Env, settings: Settings, me: SessionUser, input: { uuid: string; amount: number }, site: string): Promise<PlacedOrder> {
  const db = createDb(env.DB)
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.uuid, input.uuid), eq(payments.enable, true), eq(payments.deletedAt, 0)))
    .limit(1)
  if (!row) throw notFound('This payment method is not available')
  const gateway = gatewayOf(row.type)
  if (!gateway || !(gateway.currencies as readonly string[]).includes(row.currency)) throw new ApiError(503, 'This payment method is not configured correctly')
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
  const money = computeOrderAmount({
    amount: input.amount,
    discounts: parseDiscounts(settings.str('RechargeDiscount')),
    percentFee: row.percentFee,
    fixedFeeCents: row.fixedFee,
    currency: row.currency as PaymentCurrency,
    usdRate: settings.num('PaymentUSDRate'),
    quotaPerUnit: settings.int('QuotaPerUnit'),
  })
  if (money.payCents < 1) throw badRequest('The price works out to nothing; check the discount settings')
  const now = nowSeconds()
  const [recent] = await db
    .select({ n: sql<number>`count(*)` })
    .from(orders)
    .where(and(eq(orders.userId, me.id), eq(orders.status, 'pending'), sql`${orders.createdAt} > ${now - 900}`))
  if ((recent?.n ?? 0) >= MAX_PENDING_ORDERS) throw new ApiError(429, 'Too many unpaid orders; pay or wait for one of them first')

  const tradeNo = newTradeNo()
  // The order exists before the gateway hears of it, so a payment can never arrive for an unknown order.
  await db.insert(orders).values({
    tradeNo,
    gatewayId: row.id,
    userId: me.id,
    amount: money.amount,
    orderAmount: money.payCents,
    orderCurrency: money.currency,
    quota: money.quota,
    fee: money.feeCents,
    orderFee: money.payFeeCents,
    discount: money.discountCents,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  })
  const [profile] = await db.select({ email: users.email }).from(users).where(eq(users.id, me.id)).limit(1)
  const base = siteBase(settings, site)
  let pay: PayRequest
  try {
    pay = await gateway.pay(parseConfig(row), {
      tradeNo,
      payCents: money.payCents,
      currency: money.currency,
      notifyUrl: notifyUrl(row, settings, site),
      returnUrl: `${base}/panel/topup?trade_no=${tradeNo}`,
      subject: `${settings.str('SystemName') || 'AI Gateway'} top-up ${centsToDecimal(money.payCents)} ${money.currency}`,
      user: { id: me.id, email: profile?.email ?? '' },
    })
  } catch (err) {
    await db
      .update(orders)
      .set({ status: 'failed', updatedAt: nowSeconds() })
      .where(and(eq(orders.tradeNo, tradeNo), eq(orders.status, 'pending')))
    serverLog.error('pay failed', { gateway_type: row.type, gateway_id: row.id, trade_no: tradeNo, error: err })
    throw new ApiError(502, err instanceof GatewayError ? `The payment gateway refused the order: ${err.message}` : 'The payment gateway could not be reached; please try again', {
      cause: err,
    })
  }
  if (pay.gatewayRef) await db.update(orders).set({ gatewayRef: pay.gatewayRef }).where(eq(orders.tradeNo, tradeNo))
  return { trade_no: tradeNo, type: pay.type, data: pay.data }
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
  paid: Pick<PaidNotify, 'gatewayNo' | 'amountCents' | 'currency'>,
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
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, order.userId)).limit(1)
  const now = nowSeconds()
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
  // The credit is durable in the wallet; now the order. A concurrent notify may have won: fine.
  await db
    .update(orders)
    .set({ status: 'success', gatewayNo: paid.gatewayNo, paidAt: now, updatedAt: now })
    .where(and(eq(orders.id, order.id), inArray(orders.status, CREDITABLE)))
  if (order.status !== 'pending') await alertRoot(env, `late payment for ${order.status} order ${order.tradeNo} credited`, meta)
  // A first top-up releases the held sign-up rewards (once).
  if (!credit.duplicate) await paySignupRewardsQuietly(env, order.userId, 'top-up')
  if (!credit.duplicate) await notifyPayment(env, order.userId, `${centsToDecimal(order.orderAmount)} ${order.orderCurrency}`, gatewayRow.name, credit.userQuota)
  return { ok: true, duplicate: Boolean(credit.duplicate) }
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
          const r = await completeOrder(env, row, order, { gatewayNo: q.gatewayNo ?? '', amountCents: q.amountCents, currency: q.currency ?? '' }, 'query')
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

/** Mark a paid order refunded (after the money went back through the gateway's dashboard): the wallet takes the quota back. */
export async function refundOrder(env: Env, actor: SessionUser, id: number) {
  const db = createDb(env.DB)
  const [order] = await db.select().from(orders).where(eq(orders.id, id)).limit(1)
  if (!order) throw notFound('Order not found')
  if (order.status !== 'success') throw conflict('Only a paid order can be refunded')
  const [owner] = await db.select({ id: users.id, username: users.username, role: users.role }).from(users).where(eq(users.id, order.userId)).limit(1)
  if (owner && actor.role < 100 && owner.id !== actor.id && owner.role >= actor.role) throw new ApiError(403, 'You cannot manage an administrator of your level or above')
  const now = nowSeconds()
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
  const [row] = await db
    .update(orders)
    .set({ status: 'refunded', updatedAt: now })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'success')))
    .returning()
  return row ?? { ...order, status: 'refunded' }
}
