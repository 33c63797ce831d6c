/**
 * The administrators' plan figures of GET /api/user/dashboard shaped for the dashboard's plans card:
 * one row per plan that sold in the period or has active subscriptions (revenue per currency, paid
 * orders, active now), busiest first, and the period's revenue per currency as display text.
 */
import type { DashboardPlans } from '@contract/dashboard'
import { formatMoney } from '@/lib/payment-amount'

export interface PlanFigureRow {
  plan_id: number
  plan_name: string
  orders: number
  /** "¥73.00 · $15.00": each currency's revenue, in the order the API answers them. */
  revenue: string
  active: number
}

/** Joins amounts in several currencies ("" when there are none). */
export const joinMoney = (amounts: { currency: string; revenue_cents: number }[]) => amounts.map((a) => formatMoney(a.revenue_cents, a.currency)).join(' · ')

export function planFigureRows(plans: DashboardPlans): PlanFigureRow[] {
  const rows = new Map<number, { plan_id: number; plan_name: string; orders: number; amounts: { currency: string; revenue_cents: number }[]; active: number }>()
  const rowOf = (plan_id: number, plan_name: string) => {
    let row = rows.get(plan_id)
    if (!row) {
      row = { plan_id, plan_name, orders: 0, amounts: [], active: 0 }
      rows.set(plan_id, row)
    }
    return row
  }
  for (const s of plans.sales) {
    const row = rowOf(s.plan_id, s.plan_name)
    row.orders += s.orders
    row.amounts.push({ currency: s.currency, revenue_cents: s.revenue_cents })
  }
  for (const a of plans.active) rowOf(a.plan_id, a.plan_name).active = a.count
  return [...rows.values()]
    .map(({ amounts, ...row }) => ({ ...row, revenue: joinMoney(amounts) }))
    .sort((a, b) => b.orders - a.orders || b.active - a.active || a.plan_id - b.plan_id)
}
