/**
 * Placing an order, for top-ups (payments.service.ts) and plan orders (plan-orders.ts) alike: the
 * enabled gateway by uuid, its price of a USD amount (fee and currency, the shared priceOrder of
 * shared/contract/payment-amount.ts), and the pending order written before the gateway hears of it
 * (at most MAX_PENDING_ORDERS unpaid ones per user in 15 minutes), then the gateway's pay request
 * (`requestPayment`, also how a renewal order the cron wrote is paid: renewal-orders.ts).
 */
import { and, eq, sql } from 'drizzle-orm'
import { createDb } from '../db/client'
import { orders, payments, users, type Payment } from '../db/schema'
import { ApiError, badRequest, notFound } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import { logger } from '../lib/logger'
import type { SessionUser } from '../env'
import type { Settings } from '../settings/store'
import type { PlacedOrder } from '../../shared/contract/payments'
import type { OrderedPlanTerms } from '../../shared/contract/plans'
import { type OrderPrice, type PaymentCurrency, priceOrder } from '../../shared/contract/payment-amount'
import { gatewayOf } from './gateways/registry'
import { notifyUrl, parseConfig, siteBase } from './gateway-rows'
import { GatewayError, type PayInput, type PayRequest } from './gateways/types'

const serverLog = logger({ module: 'payments' })

/** At most this many pending orders per user in the last 15 minutes. */
const MAX_PENDING_ORDERS = 10

/**
 * A trade number every gateway accepts (letters and digits, 6–32 characters), unique in practice.
 * It starts with a letter so that no URL parser takes it for a number (19 digits lose precision).
 */
export function newTradeNo(): string {
  const random = crypto.getRandomValues(new Uint32Array(2))
  return `T${Date.now()}${String(random[0]! % 1_000_000).padStart(6, '0')}${String(random[1]! % 1000).padStart(3, '0')}`
}

/** An enabled gateway row by uuid with its implementation: 404 when not offered, 503 when misconfigured. */
export async function usableGateway(env: Env, uuid: string): Promise<{ row: Payment; gateway: NonNullable<ReturnType<typeof gatewayOf>> }> {
  const [row] = await createDb(env.DB)
    .select()
    .from(payments)
    .where(and(eq(payments.uuid, uuid), eq(payments.enable, true), eq(payments.deletedAt, 0)))
    .limit(1)
  if (!row) throw notFound('This payment method is not available')
  const gateway = gatewayOf(row.type)
  if (!gateway || !(gateway.currencies as readonly string[]).includes(row.currency)) throw new ApiError(503, 'This payment method is not configured correctly')
  return { row, gateway }
}

/** The gateway's price of `baseCents` USD: its fee and currency (PaymentUSDRate), with `multiplier` as the discount. */
export function gatewayPrice(settings: Settings, row: Payment, baseCents: number, multiplier: number): OrderPrice {
  return priceOrder({
    baseCents,
    multiplier,
    percentFee: row.percentFee,
    fixedFeeCents: row.fixedFee,
    currency: row.currency as PaymentCurrency,
    usdRate: settings.num('PaymentUSDRate'),
  })
}

export interface OrderPlan {
  /** Whole USD of a top-up (0 for a plan order). */
  amount: number
  quota: number
  planId: number | null
  /** A plan order's terms and duration, frozen now (null for a top-up). */
  planTerms: OrderedPlanTerms | null
  price: OrderPrice
  /** What the gateway shows the payer. */
  subject: string
  /** The console page the payer comes back to (`?trade_no=` is added). */
  returnPath: string
  /** A recurring charge (a Stripe plan order with auto-renew). */
  recurring?: PayInput['recurring']
}

/**
 * Writes the pending order (at most MAX_PENDING_ORDERS recent unpaid ones per user) and asks the
 * gateway for the payment; a refused or unreachable gateway leaves the order failed.
 */
export async function placeOrder(
  env: Env,
  settings: Settings,
  me: SessionUser,
  gw: Awaited<ReturnType<typeof usableGateway>>,
  plan: OrderPlan,
  site: string
): Promise<PlacedOrder> {
  const db = createDb(env.DB)
  const { row } = gw
  const money = plan.price
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
    amount: plan.amount,
    orderAmount: money.payCents,
    orderCurrency: money.currency,
    quota: plan.quota,
    fee: money.feeCents,
    orderFee: money.payFeeCents,
    discount: money.discountCents,
    planId: plan.planId,
    planTerms: plan.planTerms,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
  })
  return requestPayment(
    env,
    settings,
    me.id,
    gw,
    { tradeNo, payCents: money.payCents, currency: money.currency, subject: plan.subject, returnPath: plan.returnPath, recurring: plan.recurring },
    site
  )
}

interface PaymentAsk {
  tradeNo: string
  payCents: number
  currency: PaymentCurrency
  subject: string
  returnPath: string
  recurring?: PayInput['recurring']
}

/**
 * Asks the gateway to collect an order that exists (placeOrder's new one, or a renewal order the cron
 * wrote); a refused or unreachable gateway leaves the order failed (502).
 */
export async function requestPayment(
  env: Env,
  settings: Settings,
  userId: number,
  gw: Awaited<ReturnType<typeof usableGateway>>,
  ask: PaymentAsk,
  site: string
): Promise<PlacedOrder> {
  const db = createDb(env.DB)
  const { row, gateway } = gw
  const { tradeNo } = ask
  const [profile] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
  const base = siteBase(settings, site)
  let pay: PayRequest
  try {
    pay = await gateway.pay(parseConfig(row), {
      tradeNo,
      payCents: ask.payCents,
      currency: ask.currency,
      notifyUrl: notifyUrl(row, settings, site),
      returnUrl: `${base}${ask.returnPath}?trade_no=${tradeNo}`,
      subject: ask.subject,
      user: { id: userId, email: profile?.email ?? '' },
      ...(ask.recurring ? { recurring: ask.recurring } : {}),
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
