/**
 * Orders as CSV (GET /api/payment/order/export for admins, /api/user/order/export for a user's own):
 * what an operator reconciles against a gateway statement — the amount paid, the discount and the
 * fee in the currency paid (orders.order_fee; the USD fee beside it), with the gateway's own
 * transaction number and the paid time; a plan order names its plan (plan_id, plan_name; its
 * amount_usd and quota are 0). Newest first, at most MAX_EXPORT_ORDERS rows.
 */
import { desc, eq, lt, and, type SQL } from 'drizzle-orm'
import { createDb } from '../db/client'
import { orders, payments, plans, users } from '../db/schema'
import { csvCell, csvTime } from '../lib/csv'
import { orderView } from './payments.service'

export const MAX_EXPORT_ORDERS = 50_000
const PAGE = 1000

const ADMIN_COLUMNS = [
  'id',
  'trade_no',
  'created_at',
  'paid_at',
  'status',
  'user_id',
  'username',
  'gateway_name',
  'gateway_type',
  'gateway_no',
  'plan_id',
  'plan_name',
  'amount_usd',
  'quota',
  'currency',
  'paid_amount',
  'discount',
  'fee',
  'fee_usd',
] as const
const USER_COLUMNS = ADMIN_COLUMNS.filter((c) => c !== 'user_id' && c !== 'username' && c !== 'gateway_type')

function cells(v: ReturnType<typeof orderView>): Record<(typeof ADMIN_COLUMNS)[number], unknown> {
  return {
    id: v.id,
    trade_no: v.trade_no,
    created_at: csvTime(v.created_at),
    paid_at: csvTime(v.paid_at),
    status: v.status,
    user_id: v.user_id,
    username: v.username,
    gateway_name: v.gateway_name,
    gateway_type: v.gateway_type,
    gateway_no: v.gateway_no,
    plan_id: v.plan_id ?? '',
    plan_name: v.plan_name,
    amount_usd: v.amount,
    quota: v.quota,
    currency: v.order_currency,
    paid_amount: v.order_amount.toFixed(2),
    discount: v.discount.toFixed(2),
    // An older non-USD order kept only its USD fee: that cell stays empty rather than guess a rate.
    fee: v.order_fee === null ? '' : v.order_fee.toFixed(2),
    fee_usd: v.fee.toFixed(2),
  }
}

/** Stream the orders matching `where`, newest first; `admin` adds who placed them. */
export function exportOrders(env: Env, where: SQL | undefined, admin: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const columns = admin ? ADMIN_COLUMNS : USER_COLUMNS
  const db = createDb(env.DB)
  let beforeId: number | undefined
  let sent = 0
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF' + columns.join(',') + '\n'))
    },
    async pull(controller) {
      if (sent >= MAX_EXPORT_ORDERS) return controller.close()
      const rows = await db
        .select({ o: orders, username: users.username, gatewayName: payments.name, gatewayType: payments.type, planName: plans.name })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .leftJoin(payments, eq(payments.id, orders.gatewayId))
        .leftJoin(plans, eq(plans.id, orders.planId))
        .where(and(where, beforeId !== undefined ? lt(orders.id, beforeId) : undefined))
        .orderBy(desc(orders.id))
        .limit(Math.min(PAGE, MAX_EXPORT_ORDERS - sent))
      if (rows.length === 0) return controller.close()
      beforeId = rows[rows.length - 1]!.o.id
      sent += rows.length
      const lines = rows.map((r) => {
        const row = cells(orderView({ ...r.o, username: r.username, gatewayName: r.gatewayName, gatewayType: r.gatewayType, planName: r.planName }))
        return columns.map((c) => csvCell(row[c])).join(',')
      })
      controller.enqueue(encoder.encode(lines.join('\n') + '\n'))
    },
  })
}
