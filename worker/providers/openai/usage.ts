/** OpenAI usage objects (chat, completions, embeddings, images) → the billing `Usage`. */
import type { Usage } from '../../billing/formula'

interface OpenAIUsage {
  prompt_tokens?: number
  completion_tokens?: number
  input_tokens?: number
  output_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number }
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number }
  input_tokens_details?: { text_tokens?: number; image_tokens?: number; cached_tokens?: number }
}

export function fromOpenAIUsage(u: unknown): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined
  const usage = u as OpenAIUsage
  const prompt = usage.prompt_tokens ?? usage.input_tokens
  const completion = usage.completion_tokens ?? usage.output_tokens ?? 0
  if (typeof prompt !== 'number') return undefined
  const extra: Usage['extra'] = {}
  const cached = usage.prompt_tokens_details?.cached_tokens ?? usage.input_tokens_details?.cached_tokens
  if (cached) extra.cached_tokens = cached
  if (usage.prompt_tokens_details?.audio_tokens) extra.input_audio_tokens = usage.prompt_tokens_details.audio_tokens
  if (usage.completion_tokens_details?.reasoning_tokens) extra.reasoning_tokens = usage.completion_tokens_details.reasoning_tokens
  if (usage.completion_tokens_details?.audio_tokens) extra.output_audio_tokens = usage.completion_tokens_details.audio_tokens
  if (usage.input_tokens_details?.image_tokens) extra.input_image_tokens = usage.input_tokens_details.image_tokens
  return { promptTokens: prompt, completionTokens: completion, ...(Object.keys(extra).length ? { extra } : {}) }
}

export function toOpenAIUsage(u: Usage) {
  const out: Record<string, unknown> = {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
  }
  const cached = (u.extra?.cached_tokens ?? 0) + (u.extra?.cached_read_tokens ?? 0)
  if (cached) out.prompt_tokens_details = { cached_tokens: cached }
  if (u.extra?.reasoning_tokens) out.completion_tokens_details = { reasoning_tokens: u.extra.reasoning_tokens }
  return out
}
