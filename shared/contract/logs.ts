/** Wire shapes of the log endpoints (GET /api/log/, /api/log/self): a row, its price metadata and the page. */
import type { Page } from './paging'

export interface ExtraLine {
  kind: string
  count: number
  ratio: number
}

/** What the relay writes into `metadata` (the price breakdown of worker/billing/formula.ts, and more). */
export interface LogMetadata {
  type?: 'tokens' | 'times'
  model?: string
  input_ratio?: number
  output_ratio?: number
  group_ratio?: number
  prompt_tokens?: number
  completion_tokens?: number
  extra?: ExtraLine[]
  billed_prompt?: number
  billed_completion?: number
  input_usd?: number
  output_usd?: number
  /** The price's long-context tier threshold (prompt tokens), and whether this request was above it. */
  tier_threshold?: number
  tier_applied?: boolean
  /** Prompt tokens written to the supplier's cache (5-minute and 1-hour). */
  cache_write_tokens?: number
  /** The price's fee per request in quota units, before the group ratio. */
  fee?: number
  quota?: number
  billed_model?: string
  group?: string
  attempts?: number
  capped_from?: number
  /** The requested model, when a fallback model answered (worker/relay/model-fallbacks.ts). */
  fallback_from?: string
  /** The requested model, when a weighted route sent the request to another (worker/relay/model-routes.ts). */
  routed_from?: string
  cache_hit?: boolean
  status?: number | null
  remark?: string
  [key: string]: unknown
}

/** A log row; `type` uses LOG_TYPE. The last four fields are in the admin view only. */
export interface LogRow {
  id: number
  user_id: number
  created_at: number
  type: number
  content: string
  username: string
  token_name: string
  model_name: string
  quota: number
  prompt_tokens: number
  completion_tokens: number
  /** Milliseconds. */
  request_time: number
  /** Milliseconds to the first byte (streams). */
  first_response_time: number
  is_stream: boolean
  metadata: LogMetadata | null
  channel_id?: number
  upstream_model?: string
  source_ip?: string
  request_id?: string
}

/** A log page: the count stops at a cap (`total_capped` says it did). */
export interface LogPage extends Page<LogRow> {
  total_capped: boolean
}
