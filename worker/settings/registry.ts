/**
 * Every site setting: its one-hub option key, default, type, validation and whether it is a secret
 * (write-only: never returned to the browser). The settings page, `/api/option` and `/api/status`
 * all read this one table.
 */
import { z } from 'zod'
import { isTimeZone } from '../lib/budget-period'

type Kind = 'bool' | 'int' | 'float' | 'string' | 'json'

export interface OptionDef {
  kind: Kind
  default: string
  secret?: boolean
  /** Extra validation of the raw string (after the kind check). */
  check?: z.ZodType<unknown>
  /** Not editable through the API (internal state). */
  internal?: boolean
}

export const DEFAULT_CHAT_LINKS = [
  { name: 'ChatGPT Next Web', url: 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 1 },
  { name: 'Midjourney Proxy Web', url: 'https://vercel.ddaiai.com/#/?settings={"key":"{key}","url":"{server}"}', show: true, sort: 2 },
  { name: 'ChatBox', url: 'chatbox://setting?key={key}&host={server}', show: false, sort: 3 },
  { name: 'AMA', url: 'ama://set-api-key?server={server}&key={key}', show: false, sort: 4 },
]

export const chatLinkSchema = z.array(
  z.object({
    name: z.string().trim().min(1, 'name is required'),
    url: z.string().trim().min(1, 'url is required'),
    show: z.boolean(),
    sort: z.number().int(),
  })
)

const jsonObjectOfNumbers = z.record(z.string(), z.number().min(0))

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

const b = (d: boolean): OptionDef => ({ kind: 'bool', default: String(d) })
const i = (d: number, min = 0, max = Number.MAX_SAFE_INTEGER): OptionDef => ({
  kind: 'int',
  default: String(d),
  check: z.coerce.number().int().min(min).max(max),
})
const f = (d: number, min = 0): OptionDef => ({ kind: 'float', default: String(d), check: z.coerce.number().min(min) })
const s = (d = ''): OptionDef => ({ kind: 'string', default: d })
const secret = (): OptionDef => ({ kind: 'string', default: '', secret: true })
const url = (): OptionDef => ({
  kind: 'string',
  default: '',
  check: z.union([z.literal(''), z.url('must be a valid URL')]),
})

export const OPTIONS = {
  // --- operation: general
  TopUpLink: url(),
  ChatLink: url(),
  ChatLinks: { kind: 'json', default: JSON.stringify(DEFAULT_CHAT_LINKS), check: chatLinkSchema } as OptionDef,
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
  // --- operation: monitoring
  AutomaticDisableChannelEnabled: b(false),
  /** Auth/billing failures of a channel (or a pool key) within the window before the relay disables it; channels may override. */
  AutoDisableFailureThreshold: i(3, 1, 100),
  /** Seconds of that failure window; channels may override. */
  AutoDisableWindowSeconds: i(600, 10, 86400),
  AutomaticEnableChannelEnabled: b(false),
  /** First cron retest of an auto-disabled channel or key after this many minutes, doubling after each failed retest (up to a day). */
  AutoRetestBaseMinutes: i(5, 1, 1440),
  /** Sticky routing: requests sharing prompt_cache_key / user / a prompt prefix keep their channel and key. */
  ChannelAffinityEnabled: b(true),
  ChannelDisableThreshold: f(5),
  QuotaRemindThreshold: i(1000),
  DisableChannelKeywords: s(DEFAULT_KEYWORDS),
  /** Minutes between scheduled channel tests; 0 turns them off. */
  ChannelTestFrequency: i(0, 0, 10080),
  /** Minutes between scheduled balance refreshes; 0 turns them off. */
  ChannelBalanceFrequency: i(0, 0, 10080),
  // --- operation: quota
  PreConsumedQuota: i(500),
  QuotaForNewUser: i(0),
  QuotaForInviter: i(0),
  QuotaForInvitee: i(0),
  /** Invitations an inviter is rewarded for per day (0 = none); more invitees still register. */
  InviteRewardDailyLimit: i(10, 0, 10000),
  /** IANA time zone whose midnight starts the tokens' budget periods (day, week from Monday, month). */
  BudgetTimezone: { kind: 'string', default: 'UTC', check: z.string().refine(isTimeZone, 'must be an IANA time zone such as UTC or Asia/Shanghai') } as OptionDef,
  /** Output-token limits per model or trailing-`*` pattern, over the built-in table (billing/output-limits.ts). */
  ModelOutputLimits: { kind: 'json', default: '{}', check: z.record(z.string(), z.number().int().min(1).max(10_000_000)) } as OptionDef,
  /** Image size/quality ratios per model, over the built-in table (billing/image-ratios.ts). */
  ImagePriceRatios: {
    kind: 'json',
    default: '{}',
    check: z.record(z.string(), z.record(z.string(), z.number().min(0).max(1000))),
  } as OptionDef,
  // --- operation: other
  ChatCacheEnabled: b(false),
  ChatCacheExpireMinute: i(5, 1, 10080),
  ChatImageRequestProxy: url(),
  CFWorkerImageUrl: url(),
  CFWorkerImageKey: secret(),
  MjNotifyEnabled: b(false),
  /**
   * Midjourney result images as clients see them: 'off' (the upstream's own links), 'gateway'
   * (signed short-lived /mj/image/<task id> links streamed by the gateway) or 'worker' (links to the
   * CFWorkerImageUrl image-proxy Worker, signed with CFWorkerImageKey). tasks/task-images.ts.
   */
  MjImageProxy: { kind: 'string', default: 'off', check: z.enum(['off', 'gateway', 'worker']) } as OptionDef,
  /** A fast-mode Midjourney submit refused for want of fast hours (code 3) is sent once more in relax mode, at the relax price. */
  MjFastFallbackRelax: b(false),
  /** Price used for models with no price row: '' refuses them (no silent default). */
  DefaultModelPrice: {
    kind: 'string',
    default: '',
    check: z.union([
      z.literal(''),
      z.string().transform((v, ctx) => {
        try {
          const parsed = z.object({ type: z.enum(['tokens', 'times']), input: z.number().min(0), output: z.number().min(0) }).safeParse(JSON.parse(v))
          if (!parsed.success) ctx.addIssue({ code: 'custom', message: 'must be {"type":"tokens"|"times","input":n,"output":n}' })
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be valid JSON' })
        }
        return v
      }),
    ]),
  } as OptionDef,
  /** Seconds to wait for an upstream's response headers before trying another channel; 0 waits forever. */
  UpstreamTimeoutSeconds: i(300, 0, 3600),
  // --- operation: payment and group ratio
  PaymentUSDRate: f(7.3),
  PaymentMinAmount: i(1, 1, 1000000),
  RechargeDiscount: { kind: 'json', default: '{}', check: jsonObjectOfNumbers } as OptionDef,
  GroupRatio: { kind: 'json', default: '{"default":1,"vip":1,"svip":1}', check: jsonObjectOfNumbers } as OptionDef,
  // --- system
  ServerAddress: url(),
  PasswordLoginEnabled: b(true),
  PasswordRegisterEnabled: b(true),
  EmailVerificationEnabled: b(false),
  /** Mail the user when their password is changed or reset (worker/mail/password-notice.ts). */
  PasswordChangeMailEnabled: b(true),
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
  TelegramWebhookSecret: {
    kind: 'string',
    default: '',
    secret: true,
    check: z.string().regex(/^[A-Za-z0-9_-]{0,256}$/, 'must be at most 256 characters of A-Z a-z 0-9 _ -'),
  } as OptionDef,
  TelegramMode: { kind: 'string', default: 'webhook', check: z.enum(['webhook', 'polling']) } as OptionDef,
  TelegramApiBase: {
    kind: 'string',
    default: 'https://api.telegram.org',
    check: z.url('must be a valid URL').regex(/^https?:\/\//, 'must be an http(s) URL'),
  } as OptionDef,
  // --- other: content
  Notice: s(),
  About: s(),
  HomePageContent: s(),
  Footer: s(),
  SystemName: s('AI Gateway'),
  Logo: url(),
  // --- internal
  TokenSecret: { kind: 'string', default: '', secret: true, internal: true } as OptionDef,
  /** What the last Telegram reload applied (menus, the bot's getMe answer, mode); see telegram/config.ts. */
  TelegramApplied: { kind: 'string', default: '', internal: true } as OptionDef,
} satisfies Record<string, OptionDef>

export type OptionKey = keyof typeof OPTIONS
export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[]

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTIONS, key)

/** Validate a raw option value; returns the normalised string or an error message. */
export function checkOptionValue(key: OptionKey, raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const def: OptionDef = OPTIONS[key]
  let value = raw.trim()
  switch (def.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false') return { ok: false, message: `${key} must be true or false` }
      break
    case 'int':
      if (!/^-?\d+$/.test(value)) return { ok: false, message: `${key} must be an integer` }
      break
    case 'float':
      if (value === '' || !Number.isFinite(Number(value))) return { ok: false, message: `${key} must be a number` }
      break
    case 'json':
      try {
        value = JSON.stringify(JSON.parse(value))
      } catch {
        return { ok: false, message: `${key} must be valid JSON` }
      }
      break
    case 'string':
      value = raw
      break
  }
  if (def.check) {
    const parsed = def.check.safeParse(def.kind === 'json' ? JSON.parse(value) : value)
    if (!parsed.success) return { ok: false, message: `${key}: ${parsed.error.issues[0]?.message ?? 'invalid value'}` }
  }
  return { ok: true, value }
}
