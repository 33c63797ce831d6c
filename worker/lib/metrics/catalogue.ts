/**
 * The metric families the gateway exports on GET /metrics: name, help text, type, label names and
 * (for histograms) bucket bounds. Names follow the OpenTelemetry GenAI semantic conventions where
 * one exists (`gen_ai_*`, labels spelled like the OTel attributes with `_` for `.`); the rest are the
 * gateway's own (`gateway_*`). Label values are bounded by their sources: models by the price table,
 * channels by the channel table, jobs and events by the code; registry.ts caps series per family.
 */

export type MetricKind = 'counter' | 'histogram' | 'gauge'

export interface MetricDef {
  help: string
  kind: MetricKind
  labels: readonly string[]
  /** Histogram upper bounds, ascending (the +Inf bucket is implied). */
  buckets?: readonly number[]
}

/** Seconds: from a cache hit to a long generation (the OTel GenAI advice for operation duration). */
const SECONDS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92] as const
/** Tokens per request (the OTel GenAI advice for token usage, up to 4 M). */
const TOKENS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304] as const

export const METRICS = {
  gateway_requests_total: {
    help: 'Relay requests that reached a channel, by billed model, last channel, channel type, inbound format, HTTP status class and error code.',
    kind: 'counter',
    labels: ['model', 'channel', 'channel_type', 'inbound_format', 'status_class', 'error_code'],
  },
  gen_ai_client_operation_duration_seconds: {
    help: 'Whole relay request duration (for streams: until the last byte), by model and status class.',
    kind: 'histogram',
    labels: ['gen_ai_request_model', 'status_class'],
    buckets: SECONDS,
  },
  gen_ai_server_time_to_first_token_seconds: {
    help: 'Time from the request to the first streamed byte sent to the client, by model.',
    kind: 'histogram',
    labels: ['gen_ai_request_model'],
    buckets: SECONDS,
  },
  gateway_upstream_duration_seconds: {
    help: 'One upstream attempt, until the supplier answered with headers, by channel type and outcome.',
    kind: 'histogram',
    labels: ['channel_type', 'outcome'],
    buckets: SECONDS,
  },
  gen_ai_client_token_usage: {
    help: 'Tokens per billed relay request, by model and token type (input, output, cached).',
    kind: 'histogram',
    labels: ['gen_ai_request_model', 'gen_ai_token_type'],
    buckets: TOKENS,
  },
  gateway_quota_charged_total: {
    help: 'Quota units charged for relay requests, by billed model and group.',
    kind: 'counter',
    labels: ['model', 'group'],
  },
  gateway_retries_total: {
    help: 'Extra upstream attempts: on another key of the same channel (key) or on another channel (failover).',
    kind: 'counter',
    labels: ['kind'],
  },
  gateway_wallet_lease_events_total: {
    help: 'Credit-lease events of the relay isolates: grant and grant_refused (the wallet asked for a lease), report and report_refused (a batch of settlements answered), sync_fallback (a request held exactly in the wallet because no lease could serve it).',
    kind: 'counter',
    labels: ['event'],
  },
  gateway_wallet_overruns_total: {
    help: 'Settlements that cost more than their hold (the difference taken as bounded debt).',
    kind: 'counter',
    labels: [],
  },
  gateway_cron_runs_total: {
    help: 'Cron job runs by job and result (ok, error).',
    kind: 'counter',
    labels: ['job', 'result'],
  },
  gateway_cron_duration_seconds: {
    help: 'Cron job run duration, by job.',
    kind: 'histogram',
    labels: ['job'],
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  },
  gateway_cron_last_success_timestamp_seconds: {
    help: 'Unix time of the last successful run of each cron job.',
    kind: 'gauge',
    labels: ['job'],
  },
  gateway_payment_notifies_total: {
    help: 'Payment notifies to a known gateway, by gateway type and result (accepted, refused).',
    kind: 'counter',
    labels: ['gateway', 'result'],
  },
} as const satisfies Record<string, MetricDef>

export type MetricName = keyof typeof METRICS
