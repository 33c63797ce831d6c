/**
 * The built-in price table that seeds a fresh install (at setup, when no price exists). Ratios are
 * in one-hub units: ratio 1 = $2 per 1M tokens, so ratio = list price per 1M tokens ÷ 2; per-call
 * ("times") prices are $ per call ÷ 0.002, including the per-action Midjourney and Suno task prices. Admins edit or replace them from the pricing page.
 * Data only: the worker seeds it (worker/billing/default-prices.ts) and the importer writes it into
 * a target without prices (shared/import/map-settings.ts).
 */
import type { PriceTier, PriceType } from './pricing'

type Row = [model: string, type: PriceType, channelType: number, input: number, output: number, extra?: Record<string, number>]

const OPENAI = 1
const CLAUDE = 14
const GEMINI = 25
const DEEPSEEK = 28
const MIDJOURNEY = 34
const SUNO = 41

const ROWS: Row[] = [
  ['gpt-4o', 'tokens', OPENAI, 1.25, 5, { cached_tokens: 0.5 }],
  ['gpt-4o-mini', 'tokens', OPENAI, 0.075, 0.3, { cached_tokens: 0.5 }],
  ['gpt-4.1', 'tokens', OPENAI, 1, 4, { cached_tokens: 0.25 }],
  ['gpt-4.1-mini', 'tokens', OPENAI, 0.2, 0.8, { cached_tokens: 0.25 }],
  ['gpt-4.1-nano', 'tokens', OPENAI, 0.05, 0.2, { cached_tokens: 0.25 }],
  ['gpt-5', 'tokens', OPENAI, 0.625, 5, { cached_tokens: 0.1 }],
  ['gpt-5-mini', 'tokens', OPENAI, 0.125, 1, { cached_tokens: 0.1 }],
  ['gpt-5-nano', 'tokens', OPENAI, 0.025, 0.2, { cached_tokens: 0.1 }],
  ['o3', 'tokens', OPENAI, 1, 4],
  ['o3-mini', 'tokens', OPENAI, 0.55, 2.2],
  ['o4-mini', 'tokens', OPENAI, 0.55, 2.2],
  ['text-embedding-3-small', 'tokens', OPENAI, 0.01, 0],
  ['text-embedding-3-large', 'tokens', OPENAI, 0.065, 0],
  ['omni-moderation-latest', 'tokens', OPENAI, 0, 0],
  ['dall-e-3', 'times', OPENAI, 20, 0],
  ['gpt-image-1', 'times', OPENAI, 20, 0],
  ['whisper-1', 'times', OPENAI, 3, 0],
  ['tts-1', 'tokens', OPENAI, 7.5, 0],
  ['claude-opus-4-1', 'tokens', CLAUDE, 7.5, 37.5],
  ['claude-sonnet-4-5', 'tokens', CLAUDE, 1.5, 7.5],
  ['claude-haiku-4-5', 'tokens', CLAUDE, 0.5, 2.5],
  ['claude-3-5-haiku-latest', 'tokens', CLAUDE, 0.4, 2],
  ['gemini-2.5-pro', 'tokens', GEMINI, 0.625, 5],
  ['gemini-2.5-flash', 'tokens', GEMINI, 0.15, 1.25],
  ['gemini-2.0-flash', 'tokens', GEMINI, 0.05, 0.2],
  ['deepseek-chat', 'tokens', DEEPSEEK, 0.135, 0.55],
  ['deepseek-reasoner', 'tokens', DEEPSEEK, 0.275, 1.095],
  ...midjourneyRows(),
  ['chirp-v3-0', 'times', SUNO, 50, 0],
  ['chirp-v3-5', 'times', SUNO, 50, 0],
  ['suno_lyrics', 'times', SUNO, 5, 0],
]

/** one-hub's Midjourney per-action prices, the same in the fast (mj_x), turbo (mj_turbo_x) and relax (mj_relax_x) modes. */
function midjourneyRows(): Row[] {
  const byAction: Record<string, number> = {
    imagine: 50,
    variation: 50,
    reroll: 50,
    blend: 50,
    modal: 50,
    zoom: 50,
    shorten: 50,
    high_variation: 50,
    low_variation: 50,
    pan: 50,
    describe: 25,
    upscale: 25,
    swap_face: 25,
    inpaint: 0,
    custom_zoom: 0,
    upload: 0,
  }
  return ['', 'turbo_', 'relax_'].flatMap((mode) => Object.entries(byAction).map(([action, price]): Row => [`mj_${mode}${action}`, 'times', MIDJOURNEY, price, 0]))
}

/**
 * Long-context tiers from the suppliers' price lists: above 200k prompt tokens Gemini 2.5 Pro costs
 * $2.50/$15 per 1M (instead of $1.25/$10) and Claude Sonnet 4.5 $6/$22.50 (instead of $3/$15).
 */
const TIERS: Record<string, PriceTier> = {
  'gemini-2.5-pro': { threshold_tokens: 200_000, input: 1.25, output: 7.5 },
  'claude-sonnet-4-5': { threshold_tokens: 200_000, input: 3, output: 11.25 },
}

export const DEFAULT_PRICES = ROWS.map(([model, type, channel_type, input, output, extra_ratios]) => ({
  model,
  type,
  channel_type,
  input,
  output,
  extra_ratios: extra_ratios ?? null,
  tier: TIERS[model] ?? null,
  fee: 0,
}))
