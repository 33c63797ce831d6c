/**
 * What a wallet refusal means to the client: the HTTP status, the OpenAI-style error code and a
 * message (rendered in the caller's own envelope by the relay's error handler). Token-limit
 * refusals carry Retry-After and the x-ratelimit-* headers; a plan window that is used up
 * (`plan_quota_exceeded`) carries Retry-After = the time until the window that frees room starts.
 */
import type { RefusalReason } from '../wallet/wallet-types'
import type { LimitCode } from '../wallet/wallet-limits'
import { ApiError } from '../lib/errors'
import { limitError } from './token-limits'

const REFUSALS: Record<RefusalReason, (retryAfterMs?: number) => ApiError> = {
  user_not_found: () => new ApiError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' }),
  token_not_found: () => new ApiError(401, 'Incorrect API key provided.', { code: 'invalid_api_key' }),
  token_disabled: () => new ApiError(401, 'This API key is disabled.', { code: 'token_disabled' }),
  token_expired: () => new ApiError(401, 'This API key has expired.', { code: 'token_expired' }),
  user_disabled: () => new ApiError(403, 'The account owning this API key is disabled.', { code: 'user_disabled' }),
  insufficient_user_quota: () =>
    new ApiError(429, 'Your balance is too low for this request. Top up, or lower max_tokens.', { code: 'insufficient_quota', type: 'insufficient_quota' }),
  insufficient_token_quota: () => new ApiError(429, 'This API key has used up its quota.', { code: 'insufficient_quota', type: 'insufficient_quota' }),
  rate_limited: () => new ApiError(429, 'Too many requests for your group this minute; please slow down.', { code: 'rate_limit_exceeded' }),
  invalid_amount: () => new ApiError(500, 'The gateway could not price this request.', { code: 'billing_error', type: 'server_error' }),
  duplicate_request: () => new ApiError(500, 'The gateway could not reserve this request.', { code: 'billing_error', type: 'server_error' }),
  rate_limit_exceeded: () => limitError('rate_limit_exceeded', 1000),
  tokens_per_minute_exceeded: () => limitError('tokens_per_minute_exceeded', 1000),
  concurrency_limit_exceeded: () => limitError('concurrency_limit_exceeded', 1000),
  budget_exceeded: () => limitError('budget_exceeded', 1000),
  too_many_open_requests: () =>
    new ApiError(429, 'Too many of your requests are still running; wait for some to finish.', { code: 'too_many_open_requests', headers: { 'retry-after': '1' } }),
  plan_quota_exceeded: (retryAfterMs = 1000) =>
    new ApiError(429, 'Your subscription’s allowance for this request is used up until its next window, and this plan does not fall back to your balance.', {
      code: 'plan_quota_exceeded',
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
    }),
  overrun_limit: () =>
    new ApiError(429, 'Requests were stopped for this account: today they cost more than was reserved beyond the gateway’s limit. Top up to continue.', {
      code: 'insufficient_quota',
      type: 'insufficient_quota',
    }),
}

const LIMIT_CODES = new Set<string>(['rate_limit_exceeded', 'tokens_per_minute_exceeded', 'concurrency_limit_exceeded', 'budget_exceeded'])

/** The error for a refused reserve; `retryAfterMs` and `headers` apply to the token-limit codes. */
export function walletRefusal(reason: RefusalReason, retryAfterMs?: number, headers?: Record<string, string>): ApiError {
  if (LIMIT_CODES.has(reason)) return limitError(reason as LimitCode, retryAfterMs ?? 1000, headers)
  return REFUSALS[reason](retryAfterMs)
}
