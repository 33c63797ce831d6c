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

/** Body of POST /api/user/ (answers the created AdminUser). */
export interface CreateUserBody {
  username: string
  password: string
  display_name: string
  email: string
  group: string
  /** Initial balance in quota units. */
  quota: number
}

/** Body of PUT /api/user/: the profile fields, optionally a new password, balance and token limits (absent: unchanged). */
export interface UpdateUserBody extends Omit<CreateUserBody, 'quota' | 'password'>, Partial<UserLimits> {
  id: number
  /** '' or absent: the password stays. */
  password?: string
  /** Absent: the balance stays as it is. */
  quota?: number
}

/** What POST /api/user/manage does to one user (`promote` needs a step-up). */
export type ManageAction = 'enable' | 'disable' | 'delete' | 'promote' | 'demote'

/** Body of POST /api/user/manage (answers the changed AdminUser, or null once deleted). */
export interface ManageUserBody {
  id: number
  action: ManageAction
}

/** Body of POST /api/user/quota/:id: a signed change in quota units (never 0) and its remark. */
export interface QuotaChangeBody {
  quota: number
  remark: string
}

/** Answer of POST /api/user/quota/:id: the user's balance after the change. */
export interface QuotaChangeResult {
  quota: number
}

/** Body of PUT /api/user/self: the fields the user changes (a new password needs the current one). */
export interface UpdateSelfBody {
  username?: string
  display_name?: string
  password?: string
  original_password?: string
}
