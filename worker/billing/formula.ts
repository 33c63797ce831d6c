/**
 * THE billing formula — one pure function from (price, usage, group ratio) to an integer charge
 * and the explanation written into the log row. No I/O here.
 *
 * Units: ratio 1 = $0.002 per 1K tokens = 1 quota unit per token (500,000 units = $1).
 * - tokens: ceil((P' × input + C' × output) × groupRatio), where P' and C' are the prompt and
 *   completion counts adjusted by extra token kinds: each kind adds count × (ratio − 1) to its side.
 * - times:  ceil(1000 × input × groupRatio) per call.
 * A non-zero price never charges less than 1 unit for a call that used tokens (or any times call).
 */

export type PriceType = 'tokens' | 'times'

export interface ModelPrice {
  model: string
  type: PriceType
  input: number
  output: number
  extraRatios?: Record<string, number> | null
}

/** Extra token kinds and the side of the bill they adjust. */
export const EXTRA_TOKEN_SIDES = {
  cached_tokens: 'prompt',
  cached_write_tokens: 'prompt',
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
  cached_read_tokens: 0.1,
}

export interface Usage {
  promptTokens: number
  completionTokens: number
  /** Counts of extra kinds (already included in the prompt/completion totals). */
  extra?: Partial<Record<ExtraTokenKind, number>>
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
  extra: ExtraLine[]
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
  const base = {
    type: price.type,
    model: price.model,
    input_ratio: price.input,
    output_ratio: price.output,
    group_ratio: G,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
  }
  if (price.type === 'times') {
    const raw = 1000 * price.input * G
    const quota = raw > 0 ? Math.max(1, Math.ceil(round9(raw))) : 0
    return {
      ...base,
      extra: [],
      billed_prompt: usage.promptTokens,
      billed_completion: usage.completionTokens,
      input_usd: round9(raw * 0.000002),
      output_usd: 0,
      quota,
    }
  }
  let prompt = usage.promptTokens
  let completion = usage.completionTokens
  const extra: ExtraLine[] = []
  for (const [kind, count] of Object.entries(usage.extra ?? {}) as [ExtraTokenKind, number][]) {
    if (!count || !(kind in EXTRA_TOKEN_SIDES)) continue
    const ratio = price.extraRatios?.[kind] ?? DEFAULT_EXTRA_RATIOS[kind] ?? 1
    extra.push({ kind, count, ratio })
    if (ratio === 1) continue
    if (EXTRA_TOKEN_SIDES[kind] === 'prompt') prompt += count * (ratio - 1)
    else completion += count * (ratio - 1)
  }
  const raw = (prompt * price.input + completion * price.output) * G
  const used = usage.promptTokens + usage.completionTokens > 0
  let quota = used ? Math.ceil(round9(raw)) : 0
  if (used && quota === 0 && (price.input > 0 || price.output > 0) && G > 0) quota = 1
  return {
    ...base,
    extra,
    billed_prompt: round9(prompt),
    billed_completion: round9(completion),
    input_usd: round9(price.input * G * USD_PER_UNIT_RATIO_TOKEN * 1e6),
    output_usd: round9(price.output * G * USD_PER_UNIT_RATIO_TOKEN * 1e6),
    quota,
  }
}

/** Upper-bound estimate reserved before the call (prompt estimate + max_tokens or a fixed pre-charge). */
export function estimateQuota(
  price: ModelPrice,
  promptTokens: number,
  maxTokens: number | undefined,
  groupRatio: number,
  preConsumed: number
): number {
  if (price.type === 'times') return computeQuota(price, { promptTokens: 0, completionTokens: 0 }, groupRatio).quota
  const completion = maxTokens && maxTokens > 0 ? maxTokens : 0
  const tokens = Math.ceil(round9((promptTokens * price.input + completion * price.output) * groupRatio))
  return tokens + (completion > 0 ? 0 : preConsumed)
}

/** Strip binary floating-point noise before rounding up (0.1 × 3 must not become 0.30000000000000004 → 1). */
function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9
}
