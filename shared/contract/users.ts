/** Wire shapes of the user administration endpoints (GET /api/user/, /api/user/:id and the writes that echo a row). */

/** '' (no budget), or the period a budget renews in. */
export type BudgetPeriod = '' | 'day' | 'week' | 'month'

/** Model pattern (exact name, or a prefix ending in `*`) → its own requests/tokens per minute (0 = none). */
export type ModelLimits = Record<string, { rpm: number; tpm: number }>

/** The per-user (and per-key) limits every row carries (admin/shared/limit-fields.ts). */
export interface UserLimits {
  rpm_limit: number
  tpm_limit: number
  concurrency_limit: number
  budget_period: BudgetPeriod
  budget_quota: number
  model_limits: ModelLimits
}

/** A user as the admin list returns it; `role` and `status` use enums.ts. */
export interface AdminUser extends UserLimits {
  id: number
  username: string
  display_name: string
  email: string
  role: number
  status: number
  group: string
  quota: number
  used_quota: number
  request_count: number
  aff_count: number
  inviter_id: number
  github_id: string
  oidc_id: string
  wechat_id: string
  lark_id: string
  telegram_id: number
  created_time: number
  last_login_time: number
  last_login_ip: string
}

/** Every method an account can have bound; passkeys will be one more entry. */
export type SignInMethodType = 'email' | 'github' | 'oidc' | 'wechat' | 'lark' | 'telegram'

/** One row of GET /api/user/:id/sign_in_methods: what is bound and whether it lets the user sign in. */
export interface SignInMethod {
  type: SignInMethodType
  bound: boolean
  value: string
  /** False for Telegram: it links the bot's chat, not a way into the console. */
  sign_in: boolean
}
