/**
 * The alert vocabulary: event names with their severity, the notice every sink renders, and the one
 * interface each channel type (sinks/) implements. Shared by emit.ts, deliver.ts and the admin routes.
 */
import type { NOTIFY_EVENT_LIST } from '../../shared/contract/notify'

export const NOTIFY_EVENTS = {
  'channel.disabled': 'warning',
  'channel.enabled': 'info',
  'key.disabled': 'warning',
  'model.unavailable': 'error',
  'cron.failed': 'error',
  'ledger.dead_letter': 'error',
  'wallet.overrun': 'warning',
  'payment.refused': 'warning',
  'relay.error_rate': 'error',
  'user.balance_low': 'info',
  'token.budget_threshold': 'info',
  'token.budget_exhausted': 'warning',
  'key.enabled': 'info',
} as const

export type NotifyEvent = keyof typeof NOTIFY_EVENTS & (typeof NOTIFY_EVENT_LIST)[number]
export type Severity = 'info' | 'warning' | 'error'

/** Recovery events and the problem whose cool-down mark they clear. */
export const RECOVERS: Partial<Record<NotifyEvent, NotifyEvent>> = { 'channel.enabled': 'channel.disabled', 'key.enabled': 'key.disabled' }

/** One notice as every sink receives it; `event` is `test` for the console's "send test". */
export interface Notice {
  event: NotifyEvent | 'test'
  /** ISO 8601 time of the event. */
  at: string
  severity: Severity
  text: string
  data: Record<string, unknown>
}

/** What a sink needs of its channel row. */
export interface SinkTarget {
  url: string
  secret: string
  config: Record<string, string>
}

export interface SendOutcome {
  ok: boolean
  /** The HTTP status the receiver answered (0 when none, e.g. email or a network error). */
  httpStatus: number
  error: string
}

export interface NotifySink {
  type: string
  /** The sink posts to `url` (an incoming webhook); otherwise `config` says where. */
  usesUrl: boolean
  /** Whether `url` may carry a query string (the access token of DingTalk and WeCom lives there). */
  urlQuery?: boolean
  /** Config fields the sink cannot work without. */
  requiredConfig: string[]
  send(env: Env, target: SinkTarget, notice: Notice): Promise<SendOutcome>
}

/** The one-line headline every chat sink starts with. */
export const headline = (n: Notice) => `[${n.severity.toUpperCase()}] ${n.event}`
