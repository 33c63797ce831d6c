/**
 * Site information for the console (`GET /api/status`) and the public content endpoints.
 * Everything comes from the settings snapshot; only "is setup needed" touches D1, once per isolate.
 */
import { createDb } from '../../db/client'
import { config } from '../../lib/env'
import { users } from '../../db/schema'
import type { Settings } from '../../settings/store'
import { onIsolateReset } from '../../cache/isolate'
import { publicBotName } from '../../telegram/config'
import type { SiteInfo } from '../../../shared/contract/site'

/** Set on the first request: module scope runs before the clock starts in workerd. */
let startTime = 0
let setupDone = false
onIsolateReset(() => (setupDone = false))

export async function isSetupNeeded(env: Env): Promise<boolean> {
  if (setupDone) return false
  const [row] = await createDb(env.DB).select({ id: users.id }).from(users).limit(1)
  setupDone = row !== undefined
  return !setupDone
}

export function markSetupDone() {
  setupDone = true
}

/** The console build the assets hold (console/dist/console-build.txt, written by the Vite build), read once per isolate. */
let consoleBuild: Promise<string> | undefined
export function deployedConsoleBuild(env: Env): Promise<string> {
  consoleBuild ??= env.ASSETS.fetch(new Request('https://assets.local/console-build.txt'))
    .then(async (res) => (res.ok ? (await res.text()).trim().slice(0, 64) : ''))
    .catch(() => '')
  return consoleBuild
}

export function siteInfo(env: Env, s: Settings, setupNeeded: boolean): Omit<SiteInfo, 'console_build' | 'setup_code_required'> {
  return {
    setup_needed: setupNeeded,
    version: config(env).appVersion,
    start_time: (startTime ||= Math.floor(Date.now() / 1000)),
    system_name: s.str('SystemName'),
    logo: s.str('Logo'),
    footer_html: s.str('Footer'),
    server_address: s.str('ServerAddress'),
    top_up_link: s.str('TopUpLink'),
    chat_link: s.str('ChatLink'),
    chat_links: s.str('ChatLinks'),
    quota_per_unit: s.int('QuotaPerUnit'),
    display_in_currency: s.bool('DisplayInCurrencyEnabled'),
    display_token_stat: s.bool('DisplayTokenStatEnabled'),
    password_login: s.bool('PasswordLoginEnabled'),
    password_register: s.bool('PasswordRegisterEnabled'),
    register_enabled: s.bool('RegisterEnabled'),
    email_verification: s.bool('EmailVerificationEnabled'),
    github_oauth: s.bool('GitHubOAuthEnabled'),
    github_client_id: s.str('GitHubClientId'),
    oidc_auth: s.bool('OIDCAuthEnabled'),
    wechat_login: s.bool('WeChatAuthEnabled'),
    wechat_qrcode: s.str('WeChatAccountQRCodeImageURL'),
    lark_login: s.bool('LarkAuthEnabled'),
    lark_client_id: s.str('LarkClientId'),
    turnstile_check: s.bool('TurnstileCheckEnabled'),
    turnstile_site_key: s.str('TurnstileSiteKey'),
    telegram_bot: publicBotName(s),
    mj_notify_enabled: s.bool('MjNotifyEnabled'),
    chat_cache_enabled: s.bool('ChatCacheEnabled'),
    payment_usd_rate: s.num('PaymentUSDRate'),
    payment_min_amount: s.int('PaymentMinAmount'),
    recharge_discount: s.str('RechargeDiscount'),
  }
}
