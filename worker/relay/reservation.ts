/**
 * What the wallet holds before a relay request reaches a supplier: the request's worst case
 * (formula.ts `worstCaseQuota`) from its shape — prompt estimate with its model family's margin
 * (prompt-margins.ts), the request's one output limit (relay-input.ts) or the
 * model's output limit, n, image size/quality, audio length — and, when the client set no output
 * limit, the cap the relay then sends upstream so the answer stops where the money stops; plus
 * root's PreConsumedQuota margin on every token-priced request.
 */
import { affordableOutputTokens, worstCaseQuota, type ModelPrice, type RequestShape } from '../billing/formula'
import { imageRatio, MAX_IMAGE_OUTPUT_TOKENS } from '../billing/image-ratios'
import { outputLimit } from '../billing/output-limits'
import { heldPromptTokens } from '../billing/prompt-margins'
import type { RelayOp } from '../providers/types'
import type { Settings } from '../settings/store'
import type { RelayInput } from './relay-input'

export interface ReservationPlan {
  shape: RequestShape
  /** The worst case to hold. */
  amount: number
  /** Set when the wallet may hold less (what is free, at least this): the client gave no output limit. */
  floor?: number
  /** The output cap to send upstream for what the wallet held (undefined: the client's own limit stands). */
  outputCap(held: number): number | undefined
}

/** Transcript tokens per second of speech, at most. */
const TRANSCRIPT_TOKENS_PER_SECOND = 5

function shapeOf(input: RelayInput, price: ModelPrice, billedModel: string, settings: Settings): RequestShape {
  const op = input.op
  const prompt = heldPromptTokens(settings, billedModel, input.promptEstimate)
  if (op === 'chat' || op === 'completions') {
    return { promptTokens: prompt, outputTokens: input.maxTokens ?? outputLimit(settings, billedModel), n: input.n }
  }
  if (op.startsWith('images.')) {
    return {
      promptTokens: prompt,
      outputTokens: MAX_IMAGE_OUTPUT_TOKENS,
      n: input.n,
      calls: input.n,
      callRatio: imageRatio(settings, price.model, input.imageSize, input.imageQuality),
    }
  }
  if (op === 'audio.speech') {
    const text = input.json?.input
    return { promptTokens: typeof text === 'string' ? text.length : 0, outputTokens: 0 }
  }
  if (op === 'audio.transcriptions' || op === 'audio.translations') {
    const seconds = input.audioSeconds ?? 0
    return { promptTokens: prompt, outputTokens: seconds * TRANSCRIPT_TOKENS_PER_SECOND, calls: Math.max(1, Math.ceil(seconds / 60)) }
  }
  return { promptTokens: prompt, outputTokens: 0 }
}

export function planReservation(input: RelayInput, price: ModelPrice, billedModel: string, groupRatio: number, settings: Settings): ReservationPlan {
  const shape = shapeOf(input, price, billedModel, settings)
  const worst = worstCaseQuota(price, shape, groupRatio)
  // PreConsumedQuota: the margin held on top of a token-priced request's worst case (as one-hub
  // adds it to the prompt's cost); a free model holds nothing, a per-call price is already exact.
  // Settlement gives back whatever the request did not cost, so only the hold grows.
  const extra = worst > 0 && price.type === 'tokens' ? settings.int('PreConsumedQuota') : 0
  const amount = worst + extra
  const capped = (input.op === 'chat' || input.op === 'completions') && input.maxTokens === undefined && price.type === 'tokens'
  if (!capped) return { shape, amount, outputCap: () => undefined }
  return {
    shape,
    amount,
    floor: worstCaseQuota(price, { ...shape, outputTokens: 1 }, groupRatio) + extra,
    // The margin is not spent on output: the cap is what the rest of the hold pays for.
    outputCap: (held) => Math.max(1, affordableOutputTokens(price, shape, groupRatio, held - extra)),
  }
}

/** Reasoning models take the limit as max_completion_tokens; the rest (and every adapter) read max_tokens. */
const COMPLETION_TOKENS_MODELS = /^(o\d|gpt-5)/

/**
 * The upstream body with the request's one output limit (the client's, or the cap the wallet paid
 * for) in the one field its supplier reads; any other limit field (a channel parameter's included)
 * is dropped, so what the supplier may produce is exactly what was held.
 */
export function withOutputLimit(body: Record<string, unknown>, op: RelayOp, limit: number | undefined): Record<string, unknown> {
  if (limit === undefined || (op !== 'chat' && op !== 'completions')) return body
  const { max_tokens: _a, max_completion_tokens: _b, ...rest } = body
  const field = op === 'chat' && COMPLETION_TOKENS_MODELS.test(String(body.model)) ? 'max_completion_tokens' : 'max_tokens'
  return { ...rest, [field]: limit }
}
