/**
 * Prices that follow suppliers' price lists (issue 34): a long-context tier above a prompt-size
 * threshold, cache reads and 5-minute / 1-hour cache writes at their own ratios, and a fixed fee
 * per request — billed by the one formula, held by its worst case. Exact integers throughout.
 */
import { describe, expect, it } from 'vitest'
import { computeQuota, type ModelPrice, type PriceTier, type RequestShape, type Usage, worstCaseQuota } from './formula'

const TIER: PriceTier = { threshold: 200_000, input: 2, output: 3 }
const price = (over: Partial<ModelPrice> = {}): ModelPrice => ({ model: 'long', type: 'tokens', input: 1, output: 2, tier: TIER, ...over })
/** Gemini 2.5 Pro's list: $1.25/$10 per 1M, $2.50/$15 above 200k prompt tokens. */
const gemini = (fee = 0): ModelPrice => ({ model: 'gemini-2.5-pro', type: 'tokens', input: 0.625, output: 5, tier: { threshold: 200_000, input: 1.25, output: 7.5 }, fee })

describe('computeQuota with tiers, cache kinds and a fee', () => {
  const cases: { name: string; price: ModelPrice; usage: Usage; group?: number; quota: number }[] = [
    { name: 'at the threshold: the base rates', price: price(), usage: { promptTokens: 200_000, completionTokens: 1000 }, quota: 202_000 },
    { name: 'one token above: the tier for both sides', price: price(), usage: { promptTokens: 200_001, completionTokens: 1000 }, quota: 403_002 },
    { name: 'no tier: the base rates at any size', price: price({ tier: null }), usage: { promptTokens: 1_000_000, completionTokens: 10 }, quota: 1_000_020 },
    { name: 'Gemini 2.5 Pro below 200k', price: gemini(), usage: { promptTokens: 100_000, completionTokens: 2000 }, quota: 72_500 },
    { name: 'Gemini 2.5 Pro above 200k', price: gemini(), usage: { promptTokens: 300_000, completionTokens: 2000 }, quota: 390_000 },
    {
      name: 'cache reads below the threshold (default 0.1)',
      price: price(),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_read_tokens: 800 } },
      quota: 280, // 1000 − 800 × 0.9
    },
    {
      name: 'cache reads above the threshold are relative to the tier input',
      price: price(),
      usage: { promptTokens: 300_000, completionTokens: 100, extra: { cached_read_tokens: 100_000 } },
      quota: 420_300, // (300000 − 90000) × 2 + 100 × 3
    },
    {
      name: 'cache reads at the price row ratio',
      price: price({ extraRatios: { cached_read_tokens: 0.25 } }),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_read_tokens: 400 } },
      quota: 700,
    },
    {
      name: '5-minute cache writes (default 1.25)',
      price: price(),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_write_tokens: 400 } },
      quota: 1100,
    },
    {
      name: '1-hour cache writes (default 2)',
      price: price(),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_write_1h_tokens: 400 } },
      quota: 1400,
    },
    {
      name: 'both write lifetimes at the price row ratios',
      price: price({ extraRatios: { cached_write_tokens: 1.5, cached_write_1h_tokens: 3 } }),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_write_tokens: 100, cached_write_1h_tokens: 100 } },
      quota: 1250, // 1000 + 100 × 0.5 + 100 × 2
    },
    { name: 'a fee is added once per request', price: price({ fee: 500 }), usage: { promptTokens: 10, completionTokens: 5 }, quota: 520 },
    { name: 'the group ratio applies to the fee', price: price({ fee: 500 }), usage: { promptTokens: 10, completionTokens: 5 }, group: 1.5, quota: 780 },
    { name: 'a fee is charged without tokens', price: price({ fee: 500 }), usage: { promptTokens: 0, completionTokens: 0 }, quota: 500 },
    { name: 'a fee on a free model', price: price({ input: 0, output: 0, tier: null, fee: 7 }), usage: { promptTokens: 100, completionTokens: 100 }, quota: 7 },
    { name: 'a free group pays no fee', price: price({ fee: 500 }), usage: { promptTokens: 10, completionTokens: 5 }, group: 0, quota: 0 },
    {
      name: 'a times price with a fee',
      price: { model: 'img', type: 'times', input: 0.02, output: 0, fee: 100 },
      usage: { promptTokens: 0, completionTokens: 0, calls: 2 },
      quota: 140,
    },
    {
      name: 'a times price ignores the tier',
      price: { model: 'img', type: 'times', input: 0.02, output: 0, tier: { threshold: 0, input: 9, output: 9 } },
      usage: { promptTokens: 50, completionTokens: 0 },
      quota: 20,
    },
    {
      name: 'tier fractions round up once',
      price: price({ input: 0.1, output: 0.1, tier: { threshold: 10, input: 0.3, output: 0.7 } }),
      usage: { promptTokens: 11, completionTokens: 3 },
      quota: 6,
    },
    {
      name: 'everything at once: tier, cache reads, both writes, fee and group ratio',
      price: gemini(1000),
      usage: { promptTokens: 250_000, completionTokens: 2000, extra: { cached_read_tokens: 50_000, cached_write_tokens: 10_000, cached_write_1h_tokens: 20_000 } },
      group: 0.5,
      quota: 150_188, // ((250000 − 45000 + 2500 + 20000) × 1.25 + 2000 × 7.5 + 1000) × 0.5 = 150187.5, rounded up
    },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const quota = computeQuota(c.price, c.usage, c.group ?? 1).quota
      expect(quota).toBe(c.quota)
      expect(Number.isSafeInteger(quota)).toBe(true)
    })
  }

  it('explains the tier used, the cache writes and the fee', () => {
    const usage: Usage = { promptTokens: 300_000, completionTokens: 10, extra: { cached_write_tokens: 30, cached_write_1h_tokens: 20 } }
    expect(computeQuota(price({ fee: 4 }), usage, 1)).toMatchObject({
      input_ratio: 2,
      output_ratio: 3,
      tier_threshold: 200_000,
      tier_applied: true,
      cache_write_tokens: 50,
      fee: 4,
      input_usd: 4,
      output_usd: 6,
    })
    const below = computeQuota(price(), { promptTokens: 5, completionTokens: 5 }, 1)
    expect(below).toMatchObject({ input_ratio: 1, output_ratio: 2, tier_threshold: 200_000, tier_applied: false, fee: 0 })
    expect(below.cache_write_tokens).toBeUndefined()
    expect(computeQuota(price({ tier: null }), { promptTokens: 5, completionTokens: 5 }, 1).tier_threshold).toBeUndefined()
  })
})

describe('worstCaseQuota picks the tier of the prompt estimate', () => {
  const cases: { name: string; price: ModelPrice; shape: RequestShape; quota: number }[] = [
    { name: 'well below: the base rates', price: price(), shape: { promptTokens: 170_000, outputTokens: 1000 }, quota: 172_000 },
    { name: 'exactly 10 % below: still the base rates', price: price(), shape: { promptTokens: 180_000, outputTokens: 1000 }, quota: 182_000 },
    { name: 'within 10 % below: the upper tier', price: price(), shape: { promptTokens: 180_001, outputTokens: 1000 }, quota: 363_002 },
    { name: 'above: the upper tier', price: price(), shape: { promptTokens: 250_000, outputTokens: 1000, n: 2 }, quota: 506_000 },
    { name: 'the fee is held', price: price({ fee: 300 }), shape: { promptTokens: 100, outputTokens: 10 }, quota: 420 },
    {
      name: 'a cheaper tier holds the dearer side',
      price: price({ input: 2, output: 4, tier: { threshold: 100, input: 1, output: 1 } }),
      shape: { promptTokens: 200, outputTokens: 10 },
      quota: 440,
    },
  ]
  for (const c of cases) it(c.name, () => expect(worstCaseQuota(c.price, c.shape, 1)).toBe(c.quota))

  it('never holds less than any usage within the shape costs', () => {
    for (const p of [price({ fee: 9 }), price({ input: 2, output: 4, tier: { threshold: 1000, input: 0.5, output: 1 } }), gemini(3)]) {
      for (const estimate of [10, 900, 999, 1001, 180_001, 200_000, 250_000]) {
        const held = worstCaseQuota(p, { promptTokens: estimate, outputTokens: 64 }, 1.2)
        for (const prompt of [0, Math.floor(estimate / 2), estimate]) {
          expect(held).toBeGreaterThanOrEqual(computeQuota(p, { promptTokens: prompt, completionTokens: 64 }, 1.2).quota)
        }
      }
    }
  })
})
