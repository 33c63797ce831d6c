/** Wire shape of the public site information (GET /api/status): names, links, enabled sign-in methods and display settings. */

/** What GET /api/status answers; the console keeps the last copy and falls back to it when the call fails. */
export interface SiteInfo {
  setup_needed: boolean
  /** While setup is pending: this visitor is not on the server's machine and must give the setup code. */
  setup_code_required: boolean
  version: string
  /** The id of the console build the server now serves ('' when unknown). */
  console_build: string
  start_time: number
  system_name: string
  logo: string
  footer_html: string
  server_address: string
  top_up_link: string
  chat_link: string
  chat_links: string
  quota_per_unit: number
  display_in_currency: boolean
  display_token_stat: boolean
  password_login: boolean
  password_register: boolean
  register_enabled: boolean
  email_verification: boolean
  github_oauth: boolean
  github_client_id: string
  oidc_auth: boolean
  wechat_login: boolean
  wechat_qrcode: string
  lark_login: boolean
  lark_client_id: string
  turnstile_check: boolean
  turnstile_site_key: string
  telegram_bot: string
  mj_notify_enabled: boolean
  chat_cache_enabled: boolean
  /** Online top-up (payment-amount.ts): CNY per USD, the minimum whole-USD amount, the discount map (JSON). */
  payment_usd_rate: number
  payment_min_amount: number
  recharge_discount: string
}
