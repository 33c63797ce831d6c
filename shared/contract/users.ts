/** Wire shapes of the user administration endpoints (GET /api/user/, /api/user/:id and the writes that echo a row). */

/** The per-user limits every row carries (admin/shared/limit-fields.ts). */
export interface UserLimits {
  rpm_limit: number
  tpm_limit: number
  concurrency_limit: number
  budget_period: string
  budget_quota: number
  model_limits: unknown
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
