/**
 * Wire shape of the user dashboard (GET /api/user/dashboard): balance, today's figures and the
 * per-day × model rollup rows, and for administrators the plan sales and active subscriptions.
 */

/** One rollup row: a UTC day × model of the signed-in user. `request_time` is the total in ms. */
export interface UsageRow {
  date: string
  model_name: string
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  request_time: number
  /** Prompt tokens served from the supplier's prompt cache (filled by the rollup). */
  cached_tokens: number
  /** Quota the response cache saved on this day × model (cache hits' `saved_quota`). */
  saved_quota: number
}

export interface DashboardData {
  balance: { quota: number; used_quota: number; request_count: number }
  today: { request_count: number; quota: number; tokens: number }
  rows: UsageRow[]
  /** Models the user's group can call. */
  models: string[]
  /** Plan sales and active subscriptions: administrators only (absent for everyone else). */
  plans?: DashboardPlans
}

/** Paid plan orders of one plan in one currency in the dashboard's period. */
export interface PlanSales {
  plan_id: number
  plan_name: string
  /** The currency paid in (orders.order_currency). */
  currency: string
  orders: number
  /** Σ paid amounts in integer cents (fen) of `currency`. */
  revenue_cents: number
}

/** Active subscriptions of one plan, now. */
export interface PlanActive {
  plan_id: number
  plan_name: string
  count: number
}

/**
 * Administrators' plan figures on the dashboard: plan orders paid in the period and not refunded
 * (per plan × currency and their totals per currency), and the subscriptions active now.
 */
export interface DashboardPlans {
  sales: PlanSales[]
  sales_totals: { currency: string; orders: number; revenue_cents: number }[]
  active: PlanActive[]
  active_total: number
}
