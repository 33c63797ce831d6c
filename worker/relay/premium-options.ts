/**
 * Supplier options billed above the standard price, and what the gateway does with each — the
 * gateway prices a model with one input/output ratio, so an option that makes the supplier charge
 * more must not reach it:
 * - `service_tier` (OpenAI chat/Responses "priority" or "scale", Anthropic's tiers) is removed from
 *   every body: requests run at the channel's default tier, billed at the standard price;
 * - `background: true` (Responses) is refused with a 400: the supplier would keep generating after
 *   the gateway's request ended, billed to nobody;
 * - `anthropic-beta` is forwarded only for betas that do not change prices (prompt caching,
 *   token-efficient tools, interleaved thinking, fine-grained tool streaming, 128k output — the
 *   output stays within the max_tokens the wallet held); the rest (1M context at 2× input,
 *   extended cache TTL at 2× cache writes, …) are dropped.
 */

/** Body fields removed before a body reaches any supplier. */
const PREMIUM_FIELDS = ['service_tier'] as const

/** The body without premium options (a copy only when there is one). */
export function withoutPremiumOptions<T extends Record<string, unknown>>(body: T): T {
  if (!PREMIUM_FIELDS.some((f) => f in body)) return body
  const out = { ...body }
  for (const f of PREMIUM_FIELDS) delete out[f]
  return out
}

/** Prefixes of the Anthropic betas forwarded as they are. */
const STANDARD_PRICE_BETAS = ['prompt-caching-', 'token-efficient-tools-', 'interleaved-thinking-', 'fine-grained-tool-streaming-', 'output-128k-']

/** The client's `anthropic-beta` list reduced to the betas billed at the standard price (undefined when none is left). */
export function standardPriceBetas(header: string | undefined): string | undefined {
  const kept = (header ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b && STANDARD_PRICE_BETAS.some((p) => b.startsWith(p)))
  return kept.length > 0 ? kept.join(',') : undefined
}
