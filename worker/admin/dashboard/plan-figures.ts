/**
 * The administrators' plan figures on the dashboard (issue 33): plan orders paid in the period and
 * not refunded, per plan × currency with totals per currency, and the subscriptions active now per
 * plan. Two aggregate queries read indexes of migration 0035 (`idx_orders_plan_paid`, partial on
 * plan orders; `idx_subscriptions_status_plan`, covering) and join the plan names afterwards.
 */
import { clockNow } from '../../lib/clock'
import { SUBSCRIPTION_STATUS } from '../../../shared/contract/enums'
import type { DashboardPlans, PlanActive, PlanSales } from '../../../shared/contract/dashboard'

/** Paid plan orders with `paid_at` (unix seconds) in [?, ?], per plan and currency. */
export const PLAN_SALES_SQL = `SELECT s.plan_id, COALESCE(p.name, '') AS plan_name, s.currency, s.orders, s.revenue_cents
  FROM (SELECT plan_id, order_currency AS currency, COUNT(*) AS orders, SUM(order_amount) AS revenue_cents
        FROM orders WHERE status = 'success' AND plan_id IS NOT NULL AND paid_at BETWEEN ? AND ?
        GROUP BY plan_id, order_currency) s
  LEFT JOIN plans p ON p.id = s.plan_id ORDER BY s.orders DESC, s.plan_id, s.currency`

/** Active subscriptions not yet past their expiry (unix ms ?; the cron marks them expired soon after), per plan. */
export const PLANS_ACTIVE_SQL = `SELECT s.plan_id, COALESCE(p.name, '') AS plan_name, s.count
  FROM (SELECT plan_id, COUNT(*) AS count FROM subscriptions WHERE status = ? AND (expires_at = 0 OR expires_at > ?) GROUP BY plan_id) s
  LEFT JOIN plans p ON p.id = s.plan_id ORDER BY s.count DESC, s.plan_id`

export async function planFigures(env: Env, start: number, end: number): Promise<DashboardPlans> {
  const [sales, active] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(PLAN_SALES_SQL).bind(start, end),
    env.DB.prepare(PLANS_ACTIVE_SQL).bind(SUBSCRIPTION_STATUS.ACTIVE, clockNow()),
  ])
  const salesRows = sales!.results as unknown as PlanSales[]
  const activeRows = active!.results as unknown as PlanActive[]
  const totals = new Map<string, { currency: string; orders: number; revenue_cents: number }>()
  for (const r of salesRows) {
    const t = totals.get(r.currency) ?? { currency: r.currency, orders: 0, revenue_cents: 0 }
    t.orders += r.orders
    t.revenue_cents += r.revenue_cents
    totals.set(r.currency, t)
  }
  return {
    sales: salesRows,
    sales_totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    active: activeRows,
    active_total: activeRows.reduce((s, r) => s + r.count, 0),
  }
}
