/** Wire shape of the user dashboard (GET /api/user/dashboard): balance, today's figures and the per-day × model rollup rows. */

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
}
