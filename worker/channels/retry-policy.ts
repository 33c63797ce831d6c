/**
 * Which upstream failures move on to another channel, freeze the (channel, model) pair, or
 * auto-disable the channel — and what status the client finally sees.
 * - Retry on network errors, timeouts, malformed answers, 401/402/403/404/408/429 and every 5xx:
 *   another channel may succeed. Never on the client's own 4xx (400, 413, 415, 422), never on a 429
 *   that says the request itself is too large (oversized-request.ts: no freeze either), and never
 *   once the first byte went to the client.
 * - Every retried failure freezes (channel, model) for RetryCooldownSeconds — except a pool key's
 *   own failures, which freeze that key (failure-report.ts).
 * - Auto-disable (when the setting allows and the channel opts in): authentication and quota
 *   failures only — 401, the supplier's structured code/type (invalid_api_key, insufficient_quota…),
 *   and DisableChannelKeywords matched on 401/402/403 answers. Bodies of other statuses (400, 404,
 *   422…) echo the client's own input, so a keyword there never counts. The caller disables only
 *   after AutoDisableFailureThreshold such failures (channels/health.ts).
 */
import type { UpstreamError } from '../providers/types'
import { oversizedRequest, type OversizedRequest } from './oversized-request'

export interface FailureInput {
  /** HTTP status, or 0 for a network error/timeout/malformed answer. */
  status: number
  error: UpstreamError
}

export interface FailureDecision {
  retry: boolean
  freeze: boolean
  /** Reason to auto-disable the channel, when the failure says its credentials are unusable. */
  disableReason?: string
  /** The 429 was about the request's own size: the client's error. */
  oversized?: OversizedRequest
}

const CLIENT_ERRORS = new Set([400, 413, 415, 422])
const AUTH_CODES = new Set(['invalid_api_key', 'account_deactivated', 'billing_not_active', 'insufficient_quota'])
const AUTH_TYPES = new Set(['insufficient_quota', 'authentication_error', 'permission_error', 'forbidden'])
/** Statuses whose message may be matched against the disable keywords (auth and billing refusals). */
const KEYWORD_STATUSES = new Set([401, 402, 403])

/** `promptTokens`: a lower bound of the request's prompt tokens (oversized-request.ts). */
export function decideFailure(f: FailureInput, keywords: string[], promptTokens = 0): FailureDecision {
  const oversized = oversizedRequest(f.status, f.error, promptTokens)
  if (oversized) return { retry: false, freeze: false, oversized }
  const retry = f.status === 0 || !CLIENT_ERRORS.has(f.status)
  let disableReason: string | undefined
  const message = f.error.message ?? ''
  if (f.status === 401) disableReason = `upstream answered 401: ${message}`
  else if (f.error.code && AUTH_CODES.has(f.error.code)) disableReason = `upstream error code ${f.error.code}: ${message}`
  else if (f.error.type && AUTH_TYPES.has(f.error.type)) disableReason = `upstream error type ${f.error.type}: ${message}`
  else if (KEYWORD_STATUSES.has(f.status)) {
    const lower = message.toLowerCase()
    const hit = keywords.find((k) => k && lower.includes(k.toLowerCase()))
    if (hit) disableReason = `upstream message matched "${hit}": ${message}`
  }
  return { retry, freeze: retry, disableReason: disableReason?.slice(0, 500) }
}

/** Status and OpenAI error type the client sees when the last attempt failed. */
export function clientStatus(status: number): { status: 400 | 404 | 413 | 415 | 429 | 502 | 503 | 504; type: string } {
  if (status === 400 || status === 404 || status === 413 || status === 415) return { status, type: 'invalid_request_error' }
  if (status === 422) return { status: 400, type: 'invalid_request_error' }
  if (status === 429) return { status: 429, type: 'rate_limit_error' }
  if (status === 408 || status === 504 || status === -1) return { status: 504, type: 'upstream_timeout' }
  if (status === 401 || status === 402 || status === 403) return { status: 503, type: 'service_unavailable' }
  return { status: 502, type: 'upstream_error' }
}
