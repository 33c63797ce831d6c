/**
 * What one finished relay request records: the request counter, the duration and first-token
 * histograms, tokens by type, quota charged — into the isolate registry (recorder.ts), and, where a
 * Workers Analytics Engine dataset is bound as METRICS_AE (wrangler.toml), one data point (a
 * non-blocking write). Upstream attempts and retries record one line each. No await, no I/O.
 */
import { metrics } from './recorder'

export interface RelayOutcome {
  /** The billed model (bounded by the price table); "other" when the request never got one. */
  model: string
  channelId: number
  channelType: number
  inbound: string
  /** The HTTP status the client got (200 for answered requests). */
  status: number
  /** The error code sent to the client ("" for answered requests). */
  errorCode: string
  group: string
  durationMs: number
  /** Streams only: when the first byte went out. */
  firstByteMs?: number
  inputTokens?: number
  outputTokens?: number
  cachedTokens?: number
  quota?: number
}

export const statusClass = (status: number) => (status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other')

export function recordRelay(env: Env, o: RelayOutcome) {
  const cls = statusClass(o.status)
  const channel = o.channelId ? String(o.channelId) : ''
  const type = o.channelType ? String(o.channelType) : ''
  metrics.inc('gateway_requests_total', [o.model, channel, type, o.inbound, cls, o.errorCode])
  metrics.observe('gen_ai_client_operation_duration_seconds', [o.model, cls], o.durationMs / 1000)
  if (o.firstByteMs !== undefined) metrics.observe('gen_ai_server_time_to_first_token_seconds', [o.model], o.firstByteMs / 1000)
  if (o.inputTokens !== undefined) metrics.observe('gen_ai_client_token_usage', [o.model, 'input'], o.inputTokens)
  if (o.outputTokens !== undefined) metrics.observe('gen_ai_client_token_usage', [o.model, 'output'], o.outputTokens)
  if (o.cachedTokens) metrics.observe('gen_ai_client_token_usage', [o.model, 'cached'], o.cachedTokens)
  if (o.quota) metrics.inc('gateway_quota_charged_total', [o.model, o.group], o.quota)
  env.METRICS_AE?.writeDataPoint({
    indexes: [o.model.slice(0, 96)],
    blobs: [o.model, channel, type, o.inbound, cls, o.errorCode, o.group],
    doubles: [o.durationMs, o.firstByteMs ?? 0, o.inputTokens ?? 0, o.outputTokens ?? 0, o.cachedTokens ?? 0, o.quota ?? 0],
  })
}

/** One upstream attempt took `ms` until the supplier's headers (outcome: ok, or the failure's status class). */
export function recordUpstream(channelType: number, ok: boolean, status: number, ms: number) {
  metrics.observe('gateway_upstream_duration_seconds', [String(channelType), ok ? 'ok' : statusClass(status)], ms / 1000)
}

/** An extra attempt: on another key of the same channel, or a failover to another channel. */
export function recordRetry(kind: 'key' | 'failover') {
  metrics.inc('gateway_retries_total', [kind])
}
