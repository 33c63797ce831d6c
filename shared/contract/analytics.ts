/** Wire shapes of the admin analytics (GET /api/analytics/statistics and /api/analytics/period). */

/** Site totals: users and their balances, channels and redemption codes by status. */
export interface SiteStatistics {
  user_count: number
  /** Sum of the users' balances. */
  total_quota: number
  total_used_quota: number
  invited_count: number
  channels: { enabled: number; disabled: number; auto_disabled: number; test_disabled: number }
  redemptions: { unused: number; disabled: number; used: number; used_quota: number }
}

/** One UTC day of the site's usage. */
export interface DailyUsage {
  date: string
  request_count: number
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** Total duration in ms. */
  request_time: number
  /** Quota the response cache saved site-wide that day. */
  saved_quota: number
}

export interface TopModel {
  model_name: string
  request_count: number
  quota: number
  tokens: number
}

export interface TopUser {
  user_id: number
  /** null once the user is deleted. */
  username: string | null
  request_count: number
  quota: number
}

/** Prompt tokens of a model and how many of them the supplier served from its prompt cache. */
export interface ModelCacheHits {
  model_name: string
  prompt_tokens: number
  cached_tokens: number
}

/** A range's time series (days with traffic only) and its top ten models and users. */
export interface PeriodStatistics {
  daily: DailyUsage[]
  top_models: TopModel[]
  top_users: TopUser[]
  registrations: { date: string; direct: number; invited: number }[]
  redemptions: { date: string; count: number; quota: number }[]
  cache_hits: ModelCacheHits[]
}
