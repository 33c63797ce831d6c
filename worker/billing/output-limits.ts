/**
 * How many tokens a model may answer at most, by model family: the worst case the wallet holds
 * when a client sets no max_tokens, and the limit the relay then sends upstream. Admins override
 * or extend the table with the `ModelOutputLimits` setting (model or trailing-`*` pattern → tokens).
 */
import type { Settings } from '../settings/store'

/** Used for a model no pattern matches. */
export const DEFAULT_OUTPUT_LIMIT = 4096

/** Longest matching prefix wins; a pattern without `*` matches only that exact name. */
export const DEFAULT_OUTPUT_LIMITS: Record<string, number> = {
  'gpt-3.5*': 4096,
  'gpt-4*': 8192,
  'gpt-4-turbo*': 4096,
  'gpt-4o*': 16384,
  'gpt-4.1*': 32768,
  'gpt-5*': 128000,
  'o1*': 100000,
  'o3*': 100000,
  'o4*': 100000,
  'chatgpt-4o*': 16384,
  'claude-3-haiku*': 4096,
  'claude-3-opus*': 4096,
  'claude-3-5*': 8192,
  'claude-3-7*': 64000,
  'claude-sonnet-4*': 64000,
  'claude-opus-4*': 32000,
  'gemini-1.5*': 8192,
  'gemini-2*': 65536,
  'deepseek*': 8192,
  'qwen*': 8192,
  'glm*': 8192,
  'llama*': 8192,
  'mistral*': 8192,
}

/** The value of the longest pattern matching `model` (exact name, or a prefix ending in `*`). */
export function lookupPattern(table: Record<string, number>, model: string): number | undefined {
  if (Object.hasOwn(table, model)) return table[model]
  let best: [number, number] | undefined
  for (const [pattern, limit] of Object.entries(table)) {
    if (!pattern.endsWith('*')) continue
    const prefix = pattern.slice(0, -1)
    if (model.startsWith(prefix) && (!best || prefix.length > best[0])) best = [prefix.length, limit]
  }
  return best?.[1]
}

/** The output limit of `model`: the admin's table first, then the built-in one, then the default. */
export function outputLimit(settings: Settings, model: string): number {
  const custom = settings.json<Record<string, number>>('ModelOutputLimits')
  return lookupPattern(custom, model) ?? lookupPattern(DEFAULT_OUTPUT_LIMITS, model) ?? DEFAULT_OUTPUT_LIMIT
}
