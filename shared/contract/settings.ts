/**
 * Every site setting's runtime-free metadata: its kind, default (the stored string), numeric bounds,
 * allowed values, and whether it is a URL, a secret (write-only: never returned to the browser) or
 * internal (not editable through the API). worker/settings/registry.ts adds the zod checks and
 * serves the table; the console's settings schema takes its bounds and secret keys from here, so the
 * two cannot drift. Keys are PascalCase because they are one-hub's option keys (imports and
 * existing clients write them as they are).
 */

import { DEFAULT_LOG_MAX_ROWS } from './log-budget'

export type OptionKind = 'bool' | 'int' | 'float' | 'string' | 'json'

export interface OptionMeta {
  kind: OptionKind
  /** The stored string a missing row reads as. */
  default: string
  /** Numeric options: the smallest value accepted. */
  min?: number
  /** The largest value accepted (integers: none = up to Number.MAX_SAFE_INTEGER). */
  max?: number
  /** String options limited to these values. */
  values?: readonly string[]
  /** A link: empty or a valid URL. */
  url?: boolean
  secret?: boolean
  internal?: boolean
}

/** One chat client link of the ChatLinks option (`{key}` and `{server}` are filled in by the console). */
export interface ChatLink {
  name: string
  url: string
  show: boolean
  sort: number
}

/** The four built-in chat clients: two web apps shown, two desktop/mobile deep links hidden. */
export const DEFAULT_CHAT_LINKS: ChatLink[] = [
  { name: 'ChatGPT Next Web', url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 1 },
  { name: 'Midjourney Proxy Web', url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 2 },
  { name: 'ChatBox', url: 'chatbox://setting?key={key}&host={server}', show: false, sort: 3 },
  { name: 'AMA', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 4 },
]

const DEFAULT_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'Quota exceeded for quota metric',
  'API key not valid',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
  'your account balance is insufficient',
  'Your account is currently blocked',
  'too many invalid requests',
].join('\n')

const b = (d: boolean): OptionMeta => ({ kind: 'bool', default: String(d) })
const i = (d: number, min = 0, max?: number): OptionMeta => ({ kind: 'int', default: String(d), min, ...(max === undefined ? {} : { max }) })
const f = (d: number, min = 0): OptionMeta => ({ kind: 'float', default: String(d), min })
const s = (d = ''): OptionMeta => ({ kind: 'string', default: d })
const secret = (): OptionMeta => ({ kind: 'string', default: '', secret: true })
const url = (): OptionMeta => ({ kind: 'string', default: '', url: true })
const json = (d: string): OptionMeta => ({ kind: 'json', default: d })
const oneOf = (d: string, values: readonly string[]): OptionMeta => ({ kind: 'string', default: d, values })

export const OPTION_META = {
  // --- operation: general
  TopUpLink: url(),
  ChatLink: url(),
  ChatLinks: json(JSON.stringify(DEFAULT_CHAT_LINKS)),
  QuotaPerUnit: i(500000, 1),
  RetryTimes: i(0, 0, 10),
  RetryCooldownSeconds: i(5, 0, 86400),
  /** Seconds after the request started beyond which no further retry starts; 0 = no cap. */
  RetryTimeOut: i(0, 0, 3600),
  DisplayInCurrencyEnabled: b(true),
  DisplayTokenStatEnabled: b(true),
  ApproximateTokenEnabled: b(false),
  // --- operation: log
  LogConsumeEnabled: b(true),
  /** Days of logs to keep; 0 keeps everything. */
  LogCleanupDays: i(0, 0, 3650),
  /** Log rows D1 keeps; the oldest beyond it are archived (LOG_ARCHIVE) and deleted hourly. Default: log-budget.ts. */
  LogMaxRows: i(DEFAULT_LOG_MAX_ROWS, 100, 1_000_000_000),
  // --- operation: monitoring
  AutomaticDisableChannelEnabled: b(false),
  /** Auth/billing failures of a channel (or a pool key) within the window before the relay disables it; channels may override. */
  AutoDisableFailureThreshold: i(3, 1, 100),
  /** Seconds of that failure window; channels may override. */
  AutoDisableWindowSeconds: i(600, 10, 86400),
  AutomaticEnableChannelEnabled: b(false),
  /** First cron retest of an auto-disabled channel or key after this many minutes, doubling after each failed retest (up to a day). */
  AutoRetestBaseMinutes: i(5, 1, 1440),
  /** Alerts (worker/notify/): one notice per (event, subject) within this many minutes; a recovery notice clears it. */
  NotifyCooldownMinutes: i(30, 1, 10080),
  /** relay.error_rate: raised when the share of 5xx answers between two frequent cron runs reaches this percentage… */
  AlertErrorRatePercent: i(20, 1, 100),
  /** …over at least this many relay requests. */
  AlertErrorRateMinRequests: i(20, 1, 1_000_000),
  /** Sticky routing: requests sharing prompt_cache_key / user / a prompt prefix keep their channel and key. */
  ChannelAffinityEnabled: b(true),
  /** Cross-model fallbacks: model → the models tried in order when none of its channels answers (model-fallbacks.ts). */
  ModelFallbacks: json('{}'),
  /** Weighted routes (canary): a requested model, optionally by group, sent to weighted target models (model-routes.ts). */
  ModelRoutes: json('[]'),
  ChannelDisableThreshold: f(5),
  QuotaRemindThreshold: i(1000),
  DisableChannelKeywords: s(DEFAULT_KEYWORDS),
  /** Minutes between scheduled channel tests; 0 turns them off. */
  ChannelTestFrequency: i(0, 0, 10080),
  /** Minutes between scheduled balance refreshes; 0 turns them off. */
  ChannelBalanceFrequency: i(0, 0, 10080),
  // --- operation: quota
  /**
   * Quota held on top of a token-priced request's worst case, given back at settlement
   * (relay/reservation.ts). 0 by default: the worst case already bounds the bill; one-hub's 500 is a
   * margin root may choose (an import carries it over).
   */
  PreConsumedQuota: i(0),
  QuotaForNewUser: i(0),
  QuotaForInviter: i(0),
  QuotaForInvitee: i(0),
  /** Plan every new account is subscribed to at registration (issue 33; 0 = none). */
  DefaultPlanId: i(0, 0),
  /** Invitations an inviter is rewarded for per day (0 = none); more invitees still register. */
  InviteRewardDailyLimit: i(10, 0, 10000),
  /** IANA time zone whose midnight starts the tokens' budget periods (day, week from Monday, month). */
  BudgetTimezone: s('UTC'),
  /** Output-token limits per model or trailing-`*` pattern, over the built-in table (billing/output-limits.ts). */
  ModelOutputLimits: json('{}'),
  /** Image size/quality ratios per model, over the built-in table (billing/image-ratios.ts). */
  ImagePriceRatios: json('{}'),
  /** Prompt-estimate factors per model or trailing-`*` pattern, over the built-in table (billing/prompt-margins.ts). */
  PromptEstimateMargins: json('{}'),
  /** Relay requests one user may have open at once, across keys (0 = no cap): bounds what a misbehaving supplier can overrun. */
  MaxUserOpenRequests: i(64, 0, 100_000),
  /** Quota a user's requests may cost beyond their holds in one day before the user is stopped until topped up (0 = no cap). */
  MaxUserOverrun: i(2_500_000, 0),
  // --- operation: other
  ChatCacheEnabled: b(false),
  ChatCacheExpireMinute: i(5, 1, 10080),
  /** A response-cache hit is billed at this share of what the answer cost (0: free). */
  ChatCacheHitRatio: { kind: 'float', default: '0', min: 0, max: 1 },
  ChatImageRequestProxy: url(),
  CFWorkerImageUrl: url(),
  CFWorkerImageKey: secret(),
  /** Bearer token of GET /metrics (Prometheus); empty: the endpoint answers 404. */
  MetricsToken: secret(),
  MjNotifyEnabled: b(false),
  // --- operation: OpenTelemetry traces (worker/lib/tracing/; README "Traces")
  /** The OTLP/HTTP collector's base URL (spans go to `<base>/v1/traces`); empty turns tracing off. */
  OtlpEndpoint: url(),
  /** Headers sent with every export (a collector's API key): a JSON object or `k=v,k2=v2`. Write-only. */
  OtlpHeaders: secret(),
  /** Share of relay requests traced (0–1) while OtlpEndpoint is set; a client's sampled traceparent is always traced. */
  OtlpSampleRate: { kind: 'float', default: '1', min: 0, max: 1 },
  /** Put prompt and answer text on the spans (gen_ai.input.messages / gen_ai.output.messages); off by default. */
  OtlpRecordContent: b(false),
  /**
   * Midjourney result images as clients see them: 'off' (the upstream's own links), 'gateway'
   * (signed short-lived /mj/image/<task id> links streamed by the gateway) or 'worker' (links to the
   * CFWorkerImageUrl image-proxy Worker, signed with CFWorkerImageKey). tasks/task-images.ts.
   */
  MjImageProxy: oneOf('off', ['off', 'gateway', 'worker']),
  /** A fast-mode Midjourney submit refused for want of fast hours (code 3) is sent once more in relax mode, at the relax price. */
  MjFastFallbackRelax: b(false),
  /** Price used for models with no price row: '' refuses them (no silent default); else {"type":"tokens"|"times","input":n,"output":n}. */
  DefaultModelPrice: s(),
  /** Seconds to wait for an upstream's response headers before trying another channel; 0 waits forever. */
  UpstreamTimeoutSeconds: i(300, 0, 3600),
  /** Realtime (WebSocket) sessions one API key may hold open at once, across every isolate. */
  RealtimeMaxSessionsPerKey: i(8, 1, 1000),
  // --- operation: content safety (worker/relay/policies/content-safety.ts; new-api's keys, so an import keeps them)
  /** Sensitive-word checks at all (new-api's master switch). */
  CheckSensitiveEnabled: b(false),
  /** Check the words in prompts (with CheckSensitiveEnabled). */
  CheckSensitiveOnPromptEnabled: b(true),
  /** Mask the words in answers, streams included (worker/relay/policies/output-filter.ts). */
  CheckSensitiveOnCompletionEnabled: b(false),
  /** One word per line, matched case-insensitively anywhere in the prompt text. */
  SensitiveWords: s(),
  /** 'refuse': 400 sensitive_words_detected before anything is held or sent; 'mask': each occurrence becomes ***. */
  SensitiveWordsAction: oneOf('refuse', ['refuse', 'mask']),
  /** E-mail, phone, mainland China ID, bank card and IPv4 in prompts become placeholders before a supplier sees them. */
  PiiMaskingEnabled: b(false),
  /** Per group over PiiMaskingEnabled: {"group": true|false}. */
  PiiMaskingGroups: json('{}'),
  // --- operation: payment and group ratio
  PaymentUSDRate: f(7.3),
  PaymentMinAmount: i(1, 1, 1000000),
  RechargeDiscount: json('{}'),
  GroupRatio: json('{"default":1,"vip":1,"svip":1}'),
  // --- system
  ServerAddress: url(),
  PasswordLoginEnabled: b(true),
  PasswordRegisterEnabled: b(true),
  EmailVerificationEnabled: b(false),
  /** Mail the user when their password is changed or reset (worker/mail/password-notice.ts). */
  PasswordChangeMailEnabled: b(true),
  /** Administrators and root must turn on two-factor sign-in before any admin route answers (worker/admin/two-factor/policy.ts). */
  Require2FAForAdmins: b(false),
  /** Mail the user when they sign in from a device and address never seen for the account (worker/accounts/device.ts). */
  NewDeviceSignInNotice: b(false),
  GitHubOAuthEnabled: b(false),
  WeChatAuthEnabled: b(false),
  LarkAuthEnabled: b(false),
  OIDCAuthEnabled: b(false),
  TurnstileCheckEnabled: b(false),
  RegisterEnabled: b(true),
  EmailDomainRestrictionEnabled: b(false),
  EmailDomainWhitelist: s('gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com'),
  SMTPServer: s(),
  SMTPPort: i(587, 1, 65535),
  SMTPAccount: s(),
  SMTPFrom: s(),
  SMTPToken: secret(),
  GitHubClientId: s(),
  GitHubClientSecret: secret(),
  WeChatServerAddress: url(),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: url(),
  LarkClientId: s(),
  LarkClientSecret: secret(),
  OIDCClientId: s(),
  OIDCClientSecret: secret(),
  OIDCIssuer: url(),
  OIDCScopes: s('openid,email,profile'),
  OIDCUsernameClaims: s('preferred_username'),
  TurnstileSiteKey: s(),
  TurnstileSecretKey: secret(),
  // --- system: Telegram bot (worker/telegram/); applied by PUT /api/option/telegram/reload
  TelegramBotEnabled: b(false),
  TelegramBotToken: secret(),
  /** Checked against X-Telegram-Bot-Api-Secret-Token; generated at the first reload when empty. */
  TelegramWebhookSecret: secret(),
  TelegramMode: oneOf('webhook', ['webhook', 'polling']),
  TelegramApiBase: s('https://api.telegram.org'),
  // --- other: content
  Notice: s(),
  About: s(),
  HomePageContent: s(),
  Footer: s(),
  SystemName: s('AI Gateway'),
  Logo: url(),
  // --- internal
  TokenSecret: { kind: 'string', default: '', secret: true, internal: true },
  /** What the last Telegram reload applied (menus, the bot's getMe answer, mode); see telegram/config.ts. */
  TelegramApplied: { kind: 'string', default: '', internal: true },
} satisfies Record<string, OptionMeta>

export type OptionKey = keyof typeof OPTION_META

/** Bounds of a numeric option, as the forms show them; undefined for other kinds. */
export function numericBounds(key: string): { min: number; max?: number; integer: boolean } | undefined {
  const meta: OptionMeta | undefined = Object.hasOwn(OPTION_META, key) ? OPTION_META[key as OptionKey] : undefined
  if (!meta || (meta.kind !== 'int' && meta.kind !== 'float')) return undefined
  return { min: meta.min ?? 0, max: meta.max, integer: meta.kind === 'int' }
}

/** Options the server never returns (write-only); a form's value for them is only what is typed. */
export const SECRET_OPTION_KEYS: ReadonlySet<string> = new Set(Object.entries(OPTION_META as Record<string, OptionMeta>).flatMap(([k, m]) => (m.secret && !m.internal ? [k] : [])))

/** One option as GET /api/option/ lists it to root: secrets come back empty, with `configured` saying whether one is set. */
export interface OptionItem {
  key: string
  value: string
  secret: boolean
  configured?: boolean
}
