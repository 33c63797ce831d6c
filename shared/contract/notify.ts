/** Wire types of the alerts API (/api/notify/channel/): the secret never leaves the server (has_secret only). */

export const NOTIFY_CHANNEL_TYPES = ['webhook', 'slack', 'feishu', 'lark', 'dingtalk', 'wecom', 'telegram', 'email'] as const
export type NotifyChannelType = (typeof NOTIFY_CHANNEL_TYPES)[number]

export const NOTIFY_EVENT_LIST = [
  'channel.disabled',
  'channel.enabled',
  'key.disabled',
  'model.unavailable',
  'cron.failed',
  'ledger.dead_letter',
  'wallet.overrun',
  'payment.refused',
  'relay.error_rate',
  'user.balance_low',
  'token.budget_threshold',
  'token.budget_exhausted',
  'key.enabled',
] as const

export type NotifyEventName = (typeof NOTIFY_EVENT_LIST)[number]

/** Body of POST /api/notify/channel/ and PUT /api/notify/channel/:id (root). */
export interface NotifyChannelBody {
  name: string
  type: NotifyChannelType
  /** The webhook types' incoming-hook URL ('' for email and telegram). */
  url: string
  /** Left out: the stored secret stays. */
  secret?: string
  /** Type-specific fields (e.g. chat_id, to). */
  config: Record<string, string>
  events: NotifyEventName[]
  enabled: boolean
}

/** The header a `webhook` channel with a secret signs its body in: hex HMAC-SHA256 of the body. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature'

export interface NotifyChannelView {
  id: number
  name: string
  type: NotifyChannelType
  url: string
  has_secret: boolean
  config: Record<string, string>
  events: string[]
  enabled: boolean
  created_at: number
  updated_at: number
}

export interface NotifyDeliveryView {
  id: number
  channel_id: number
  event: string
  subject: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  http_status: number
  error: string
  created_at: number
  updated_at: number
}

export interface NotifyTestResult {
  delivery_id: number
  ok: boolean
  http_status: number
  error: string
}

/** The alerts on the root system page (GET /api/system/ → `alerts`). */
export interface AlertStatus {
  channels: number
  enabled: number
  /** Deliveries waiting for a retry. */
  pending: number
  /** Deliveries that failed for good in the last 24 hours. */
  failed_24h: number
  /** The latest failed delivery (unix seconds; the error was redacted when recorded). */
  last_failure: { channel: string; event: string; error: string; at: number } | null
}

/** A user's own notices (GET/PUT /api/user/notices). Low balance on Telegram is the bot notices switch (/api/user/telegram). */
export interface UserNoticePrefs {
  /** The low-balance reminder mail. */
  balance_email: boolean
  /** The API keys' budget notices (80 % and 100 % of a period) by mail. */
  budget_email: boolean
  /** The same on the bound Telegram chat (sent only while one is bound and the bot is on). */
  budget_telegram: boolean
}

/** GET /api/user/notices: the choices and where they can go. */
export interface UserNoticesView extends UserNoticePrefs {
  has_email: boolean
  telegram_bound: boolean
}
