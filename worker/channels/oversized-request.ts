/**
 * Whether an upstream 429 is about the request's own size rather than the key's load (issue 31,
 * security finding 8), and what the client is told then.
 * - OpenAI answers "Request too large for <model> … on tokens per min (TPM): Limit L, Requested R"
 *   (error type `tokens`, code `rate_limit_exceeded`) when one request alone is over a key's
 *   tokens-per-minute limit. Its ordinary window 429 says "Rate limit reached … Used U, Requested R".
 * - Anthropic answers "This request would exceed … rate limit … of N input tokens per minute" for a
 *   full window and for a prompt that alone is over N alike, so it counts as too large only when a
 *   lower bound of the prompt's tokens is already over N.
 * Such a 429 is the client's error: every key of the same tier would answer the same, so nothing is
 * frozen and nothing is retried (retry-policy.ts), and the client is told what to change.
 */
import type { UpstreamError } from '../providers/types'

export interface OversizedRequest {
  /** What the limit counts, e.g. "tokens per minute". */
  unit: string
  limit?: number
  /** The tokens the supplier says the request needs (OpenAI only). */
  requested?: number
}

const number = (text: string | undefined) => {
  const n = Number((text ?? '').replace(/[,_\s]/g, ''))
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

const OPENAI_UNITS: Record<string, string> = { min: 'tokens per minute', day: 'tokens per day' }

/**
 * A lower bound of a prompt's tokens from the relay's estimate (relay-input.ts counts ~3 characters
 * a token, an over-estimate; ~4 is below what Claude's and OpenAI's tokenizers count for text).
 */
export const promptTokensAtLeast = (promptEstimate: number) => Math.floor(promptEstimate * 0.75)

/** The request-size 429 this failure is, if it is one. `promptTokens`: a lower bound of the request's prompt. */
export function oversizedRequest(status: number, error: UpstreamError, promptTokens: number): OversizedRequest | undefined {
  if (status !== 429) return undefined
  const message = error.message ?? ''
  const sizes = /\bLimit ([\d,]+), Requested ([\d,]+)/i.exec(message)
  const limit = number(sizes?.[1])
  const requested = number(sizes?.[2])
  const per = /\bon tokens per (min|day)\b/i.exec(message)?.[1]?.toLowerCase()
  const unit = OPENAI_UNITS[per ?? 'min']!
  if (/\brequest too large\b/i.test(message)) return { unit, limit, requested }
  // The same shape without "Used": the request alone is over the limit.
  if (error.type === 'tokens' && !/\bUsed\b/i.test(message) && limit !== undefined && requested !== undefined && requested > limit) return { unit, limit, requested }
  const anthropic = /\b([\d,]+) input tokens per minute\b/i.exec(message)
  const inputLimit = number(anthropic?.[1])
  if (inputLimit !== undefined && promptTokens > inputLimit) return { unit: 'input tokens per minute', limit: inputLimit }
  return undefined
}

/** What the client reads: why the request cannot run and what to change (never the supplier's own text). */
export function oversizedMessage(o: OversizedRequest): string {
  const limit = o.limit !== undefined ? ` of ${o.limit} ${o.unit}` : ` on ${o.unit}`
  const size = o.requested !== undefined ? `it needs ${o.requested} tokens, more than the upstream's limit${limit}` : `it is larger than the upstream's limit${limit}`
  return `Request too large: ${size}, so no retry can succeed. Reduce the prompt or max_tokens and send it again.`
}
