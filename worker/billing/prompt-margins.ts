/**
 * How much the gateway's prompt estimate (relay-input.ts `estimatePromptTokens`) is scaled up per
 * model family before the wallet holds it: suppliers whose tokenizers count more tokens than the
 * estimate assumes for the same text (Claude and Gemini count 10–30 % more than OpenAI's) get a
 * margin, so an honest prompt never costs more than was held. Root overrides or extends the table
 * with the `PromptEstimateMargins` setting (model or trailing-`*` pattern → factor ≥ 1), beside
 * `ModelOutputLimits`.
 */
import type { Settings } from '../settings/store'
import { lookupPattern } from './output-limits'

/** Longest matching prefix wins; a model no pattern matches keeps the estimate as it is (1). */
export const DEFAULT_PROMPT_MARGINS: Record<string, number> = {
  'claude*': 1.3,
  'anthropic.claude*': 1.3,
  'gemini*': 1.3,
  'gemma*': 1.3,
  'command*': 1.2,
  'llama*': 1.2,
  'mistral*': 1.2,
  'qwen*': 1.2,
  'deepseek*': 1.2,
  'glm*': 1.2,
}

/** The factor for `model`: root's table first, then the built-in one, then 1. */
export function promptMargin(settings: Settings, model: string): number {
  const custom = settings.json<Record<string, number>>('PromptEstimateMargins')
  return lookupPattern(custom, model) ?? lookupPattern(DEFAULT_PROMPT_MARGINS, model) ?? 1
}

/** The prompt tokens to hold for an estimate of `estimate` tokens sent to `model`. */
export const heldPromptTokens = (settings: Settings, model: string, estimate: number) => Math.ceil(estimate * promptMargin(settings, model))
