/**
 * THE billing formula — one pure function from (price, usage, group ratio) to an integer charge
 * and the explanation written into the log row. No I/O here.
 *
 * Units: ratio 1 = $0.002 per 1K tokens = 1 quota unit per token (500,000 units = $1).
 * - tokens: ceil((P' × input + C' × output + fee) × groupRatio), where P' and C' are the prompt and
 *   completion counts adjusted by extra token kinds: each kind adds count × (ratio − 1) to its side
 *   (cache reads, 5-minute and 1-hour cache writes are such kinds, relative to the input price).
 *   `input` and `output` are the price's tier's when the prompt is above its threshold (suppliers'
 *   long-context prices: Gemini 2.5 Pro and Claude above 200k prompt tokens), else its own.
 * - times:  ceil((1000 × input × calls × callRatio + fee) × groupRatio): `calls` is n for images,
 *   the started minutes of audio for a transcription, else 1; `callRatio` is the image
 *   size/quality ratio (image-ratios.ts), else 1.
 * `fee` is the price's fixed per-request fee in quota units (an integer, 0 when none).
 * A non-zero price never charges less than 1 unit for a call that used tokens (or any times call).
 *
 * Per operation (what `Usage` holds):
 * - chat/completions/embeddings/rerank: the supplier's token usage (sanitized), else tokenizer counts.
 * - images: times prices × n × size/quality ratio; token prices bill the usage tokens the supplier
 *   returns (gpt-image-1), else the prompt.
 * - speech: prompt = characters of the input (OpenAI prices TTS per character).
 * - transcription/translation: times prices bill started minutes when the supplier reports the
 *   duration (usage.seconds or `duration`), else one call; token prices bill the supplier's token
 *   usage, else the transcript's text tokens as completion.
 *
 * Before the call the relay reserves the worst case (worstCaseQuota): prompt estimate + output
 * limit × n at the output price, plus the fee, or the times price for all calls; at the tier the
 * estimate falls into, and at the upper tier already when the estimate is within 10 % below its
 * threshold (an estimate is not an exact count).
 */

export type PriceType = 'tokens' | 'times'

/** The input/output ratios that replace a price's own when the prompt has more than `threshold` tokens. */
export interface PriceTier {
  threshold: number
  input: number
  output: number
}

export interface ModelPrice {
  model: string
  type: PriceType
  input: number
  output: number
  extraRatios?: Record<string, number> | null
  tier?: PriceTier | null
  /** Fixed fee per request, quota units (a non-negative integer). */
  fee?: number
}

/** An estimate this close below a threshold (a fraction of it) is held at the upper tier. */
const TIER_MARGIN = 0.1

/** The rates a prompt of `promptTokens` is billed at: the tier's above its threshold, else the price's own. */
function ratesFor(price: ModelPrice, promptTokens: number): { input: number; output: number; tier?: PriceTier } {
  const tier = price.tier
  if (tier && promptTokens > tier.threshold) return { input: tier.input, output: tier.output, tier }
  return { input: price.input, output: price.output }
}

/**
 * The rates a prompt estimate is held at: the price's own below the tier's threshold less the
 * margin, else the upper tier (the dearer of both sides, so a prompt that turns out smaller than
 * its estimate never costs more than was held).
 */
function heldRates(price: ModelPrice, estimate: number): { input: number; output: number } {
  const tier = price.tier
  if (!tier || estimate <= tier.threshold * (1 - TIER_MARGIN)) return { input: price.input, output: price.output }
  return { input: Math.max(price.input, tier.input), output: Math.max(price.output, tier.output) }
}

const feeOf = (price: ModelPrice) => (price.fee && price.fee > 0 ? price.fee : 0)

/** Extra token kinds and the side of the bill they adjust. */
export const EXTRA_TOKEN_SIDES = {
  cached_tokens: 'prompt',
  /** Cache writes kept 5 minutes (Anthropic's default; Bedrock's only kind). */
  cached_write_tokens: 'prompt',
  /** Cache writes kept 1 hour (Anthropic `cache_creation.ephemeral_1h_input_tokens`). */
  cached_write_1h_tokens: 'prompt',
  cached_read_tokens: 'prompt',
  input_audio_tokens: 'prompt',
  input_text_tokens: 'prompt',
  input_image_tokens: 'prompt',
  output_audio_tokens: 'completion',
  reasoning_tokens: 'completion',
  output_text_tokens: 'completion',
  output_image_tokens: 'completion',
} as const

export type ExtraTokenKind = keyof typeof EXTRA_TOKEN_SIDES

/** Defaults when the price row names no ratio for a kind. */
export const DEFAULT_EXTRA_RATIOS: Partial<Record<ExtraTokenKind, number>> = {
  cached_write_tokens: 1.25,
  cached_write_1h_tokens: 2,
  cached_read_tokens: 0.1,
}

const CACHE_WRITE_KINDS: readonly ExtraTokenKind[] = ['cached_write_tokens', 'cached_write_1h_tokens']

export interface Usage {
  promptTokens: number
  completionTokens: number
  /** Counts of extra kinds (already included in the prompt/completion totals). */
  extra?: Partial<Record<ExtraTokenKind, number>>
  /** Calls billed by a times price (images: n; transcription: started minutes); default 1. */
  calls?: number
  /** Image size/quality ratio applied to a times price; default 1. */
  callRatio?: number
}

export interface ExtraLine {
  kind: ExtraTokenKind
  count: number
  ratio: number
}

export interface Breakdown {
  type: PriceType
  model: string
  input_ratio: number
  output_ratio: number
  group_ratio: number
  prompt_tokens: number
  completion_tokens: number
  /** Times prices: calls billed and their size/quality ratio. */
  calls?: number
  call_ratio?: number
  extra: ExtraLine[]
  /** The tier's threshold when the price has a tier, and whether this prompt was above it. */
  tier_threshold?: number
  tier_applied?: boolean
  /** Prompt tokens written to the supplier's cache (5-minute and 1-hour). */
  cache_write_tokens?: number
  /** The fixed per-request fee in quota units, before the group ratio. */
  fee: number
  /** Prompt and completion after the extra-kind adjustments (tokens type). */
  billed_prompt: number
  billed_completion: number
  /** $ per 1M tokens (tokens) or $ per call (times), after the group ratio. */
  input_usd: number
  output_usd: number
  quota: number
}

const USD_PER_UNIT_RATIO_TOKEN = 0.002 / 1000

export function computeQuota(price: ModelPrice, usage: Usage, groupRatio: number): Breakdown {
  const G = groupRatio
  const fee = feeOf(price)
  const rates = price.type === 'tokens' ? ratesFor(price, usage.promptTokens) : { input: price.input, output: price.output }
  const base = {
    type: price.type,
    model: price.model,
    input_ratio: rates.input,
    output_ratio: rates.output,
    group_ratio: G,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    ...(price.type === 'tokens' && price.tier ? { tier_threshold: price.tier.threshold, tier_applied: Boolean(rates.tier) } : {}),
    fee,
  }
  if (price.type === 'times') {
    const calls = usage.calls ?? 1
    const callRatio = usage.callRatio ?? 1
    const raw = (1000 * price.input * calls * callRatio + fee) * G
    const quota = raw > 0 ? Math.max(1, Math.ceil(round9(raw))) : 0
    return {
      ...base,
      calls,
      call_ratio: callRatio,
      extra: [],
      billed_prompt: usage.promptTokens,
      billed_completion: usage.completionTokens,
      input_usd: round9(1000 * price.input * calls * callRatio * G * 0.000002),
      output_usd: 0,
      quota,
    }
  }
  let prompt = usage.promptTokens
  let completion = usage.completionTokens
  let cacheWrites = 0
  const extra: ExtraLine[] = []
  for (const [kind, count] of Object.entries(usage.extra ?? {}) as [ExtraTokenKind, number][]) {
    if (!count || !(kind in EXTRA_TOKEN_SIDES)) continue
    const ratio = price.extraRatios?.[kind] ?? DEFAULT_EXTRA_RATIOS[kind] ?? 1
    extra.push({ kind, count, ratio })
    if (CACHE_WRITE_KINDS.includes(kind)) cacheWrites += count
    if (ratio === 1) continue
    if (EXTRA_TOKEN_SIDES[kind] === 'prompt') prompt += count * (ratio - 1)
    else completion += count * (ratio - 1)
  }
  const raw = (prompt * rates.input + completion * rates.output + fee) * G
  const used = usage.promptTokens + usage.completionTokens > 0
  let quota = used || fee > 0 ? Math.ceil(round9(raw)) : 0
  if (used && quota === 0 && (rates.input > 0 || rates.output > 0) && G > 0) quota = 1
  return {
    ...base,
    ...(cacheWrites ? { cache_write_tokens: cacheWrites } : {}),
    extra,
    billed_prompt: round9(prompt),
    billed_completion: round9(completion),
    input_usd: round9(rates.input * G * USD_PER_UNIT_RATIO_TOKEN * 1e6),
    output_usd: round9(rates.output * G * USD_PER_UNIT_RATIO_TOKEN * 1e6),
    quota,
  }
}

/** What a request may cost at most, known before the call. */
export interface RequestShape {
  /** Upper-ish estimate of the prompt tokens. */
  promptTokens: number
  /** Output tokens per choice at most (the client's max_tokens, or the model's output limit); 0 when the op has no output. */
  outputTokens: number
  /** Choices (chat/completions) or images; default 1. */
  n?: number
  /** Calls and ratio for times prices (see Usage). */
  calls?: number
  callRatio?: number
}

/** The worst-case cost of a request: the amount the wallet holds before the upstream call. */
export function worstCaseQuota(price: ModelPrice, shape: RequestShape, groupRatio: number): number {
  const n = shape.n ?? 1
  if (price.type === 'times') return computeQuota(price, { promptTokens: 0, completionTokens: 0, calls: shape.calls ?? n, callRatio: shape.callRatio }, groupRatio).quota
  const rates = heldRates(price, shape.promptTokens)
  const raw = (shape.promptTokens * rates.input + shape.outputTokens * n * rates.output + feeOf(price)) * groupRatio
  const quota = Math.ceil(round9(raw))
  return quota === 0 && raw > 0 ? 1 : quota
}

/**
 * How many output tokens per choice `held` units pay for after the prompt (0 when not even one);
 * used to cap an answer at what the balance can pay when the client set no limit.
 */
export function affordableOutputTokens(price: ModelPrice, shape: RequestShape, groupRatio: number, held: number): number {
  const rates = heldRates(price, shape.promptTokens)
  if (price.type === 'times' || rates.output <= 0 || groupRatio <= 0) return shape.outputTokens
  const perToken = rates.output * (shape.n ?? 1) * groupRatio
  const left = held - (shape.promptTokens * rates.input + feeOf(price)) * groupRatio
  return Math.max(0, Math.min(shape.outputTokens, Math.floor(round9(left / perToken))))
}

/** A supplier-reported count as money may use it: a non-negative safe integer, else undefined. */
export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

/**
 * Supplier usage made safe for billing: counts must be non-negative safe integers (strings,
 * negatives, NaN, Infinity and fractions are refused). Undefined means "count it yourself".
 */
export function sanitizeUsage(usage: Usage | undefined): Usage | undefined {
  if (!usage) return undefined
  const promptTokens = countOf(usage.promptTokens)
  const completionTokens = countOf(usage.completionTokens)
  if (promptTokens === undefined || completionTokens === undefined) return undefined
  const extra: Usage['extra'] = {}
  for (const [kind, count] of Object.entries(usage.extra ?? {})) {
    const safe = countOf(count)
    if (safe && Object.hasOwn(EXTRA_TOKEN_SIDES, kind)) extra[kind as ExtraTokenKind] = safe
  }
  return { ...usage, promptTokens, completionTokens, extra: Object.keys(extra).length ? extra : undefined }
}

/** Started minutes of audio billed by a times price (at least one call). */
export function audioMinutes(seconds: number | undefined): number {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.ceil(seconds / 60)) : 1
}

/** Strip binary floating-point noise before rounding up (0.1 × 3 must not become 0.30000000000000004 → 1). */
export function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9
}
