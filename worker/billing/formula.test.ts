import { describe, expect, it } from 'vitest'
import { affordableOutputTokens, audioMinutes, computeQuota, sanitizeUsage, worstCaseQuota, type ModelPrice, type Usage } from './formula'

const tokens = (input: number, output: number, extraRatios?: Record<string, number>): ModelPrice => ({
  model: 'm',
  type: 'tokens',
  input,
  output,
  extraRatios,
})
const times = (input: number): ModelPrice => ({ model: 'mj', type: 'times', input, output: 0 })

describe('computeQuota', () => {
  const cases: { name: string; price: ModelPrice; usage: Usage; group: number; quota: number }[] = [
    { name: 'ratio 1 = 1 unit per token', price: tokens(1, 1), usage: { promptTokens: 100, completionTokens: 50 }, group: 1, quota: 150 },
    { name: 'output multiplier', price: tokens(0.075, 0.3), usage: { promptTokens: 1000, completionTokens: 1000 }, group: 1, quota: 375 },
    { name: 'group ratio applies to both sides', price: tokens(1, 2), usage: { promptTokens: 10, completionTokens: 10 }, group: 0.5, quota: 15 },
    { name: 'rounds up fractions', price: tokens(0.1, 0.1), usage: { promptTokens: 3, completionTokens: 2 }, group: 1, quota: 1 },
    { name: 'no float noise (0.1 × 3 = 0.3 → 1, and 0.1 × 30 = 3)', price: tokens(0.1, 0), usage: { promptTokens: 30, completionTokens: 0 }, group: 1, quota: 3 },
    { name: 'minimum 1 unit for a non-zero price', price: tokens(0.001, 0.001), usage: { promptTokens: 1, completionTokens: 1 }, group: 1, quota: 1 },
    { name: 'zero tokens cost nothing', price: tokens(5, 5), usage: { promptTokens: 0, completionTokens: 0 }, group: 1, quota: 0 },
    { name: 'free model stays free', price: tokens(0, 0), usage: { promptTokens: 100, completionTokens: 100 }, group: 1, quota: 0 },
    { name: 'group ratio 0 makes everything free', price: tokens(1, 1), usage: { promptTokens: 100, completionTokens: 100 }, group: 0, quota: 0 },
    {
      name: 'cached read tokens at the default 0.1',
      price: tokens(1, 1),
      usage: { promptTokens: 1000, completionTokens: 0, extra: { cached_read_tokens: 800 } },
      group: 1,
      quota: 280, // 1000 + 800 × (0.1 − 1)
    },
    {
      name: 'cached write tokens at the default 1.25',
      price: tokens(2, 1),
      usage: { promptTokens: 400, completionTokens: 0, extra: { cached_write_tokens: 400 } },
      group: 1,
      quota: 1000, // (400 + 400 × 0.25) × 2
    },
    {
      name: 'price row overrides a kind ratio (audio input × 40)',
      price: tokens(1, 1, { input_audio_tokens: 40 }),
      usage: { promptTokens: 10, completionTokens: 0, extra: { input_audio_tokens: 10 } },
      group: 1,
      quota: 400,
    },
    {
      name: 'reasoning tokens billed on the completion side',
      price: tokens(1, 4, { reasoning_tokens: 2 }),
      usage: { promptTokens: 0, completionTokens: 100, extra: { reasoning_tokens: 50 } },
      group: 1,
      quota: 600, // (100 + 50) × 4
    },
    { name: 'times: 1000 × input × group', price: times(50), usage: { promptTokens: 0, completionTokens: 0 }, group: 1, quota: 50000 },
    { name: 'times with group ratio', price: times(0.02), usage: { promptTokens: 9, completionTokens: 9 }, group: 1.5, quota: 30 },
    { name: 'times minimum 1', price: times(0.0001), usage: { promptTokens: 0, completionTokens: 0 }, group: 1, quota: 1 },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(computeQuota(c.price, c.usage, c.group).quota).toBe(c.quota)
    })
  }

  it('explains the charge', () => {
    const b = computeQuota(tokens(1, 2), { promptTokens: 10, completionTokens: 5, extra: { cached_read_tokens: 5 } }, 1.5)
    expect(b).toMatchObject({
      type: 'tokens',
      input_ratio: 1,
      output_ratio: 2,
      group_ratio: 1.5,
      prompt_tokens: 10,
      completion_tokens: 5,
      extra: [{ kind: 'cached_read_tokens', count: 5, ratio: 0.1 }],
      billed_prompt: 5.5,
      input_usd: 3,
      output_usd: 6,
      quota: Math.ceil((5.5 + 10) * 1.5),
    })
  })
})

describe('worstCaseQuota', () => {
  const cases: { name: string; price: ModelPrice; shape: Parameters<typeof worstCaseQuota>[1]; group: number; quota: number }[] = [
    { name: 'prompt × input + max output × output', price: tokens(1, 2), shape: { promptTokens: 100, outputTokens: 50 }, group: 1, quota: 200 },
    { name: 'n choices multiply the output', price: tokens(1, 2), shape: { promptTokens: 100, outputTokens: 50, n: 3 }, group: 1, quota: 400 },
    { name: 'group ratio', price: tokens(1, 2), shape: { promptTokens: 100, outputTokens: 50 }, group: 1.5, quota: 300 },
    { name: 'no output side (embeddings)', price: tokens(0.01, 0), shape: { promptTokens: 30, outputTokens: 0 }, group: 1, quota: 1 },
    { name: 'times price × calls × ratio', price: times(20), shape: { promptTokens: 9, outputTokens: 0, calls: 4, callRatio: 2 }, group: 1, quota: 160_000 },
    { name: 'times price × n when calls are not given', price: times(20), shape: { promptTokens: 9, outputTokens: 9, n: 3 }, group: 1, quota: 60_000 },
    { name: 'free model', price: tokens(0, 0), shape: { promptTokens: 100, outputTokens: 100 }, group: 1, quota: 0 },
  ]
  for (const c of cases) it(c.name, () => expect(worstCaseQuota(c.price, c.shape, c.group)).toBe(c.quota))

  it('is never less than the cost of any usage within the shape', () => {
    const price = tokens(0.37, 1.13)
    for (const prompt of [0, 1, 7, 999]) {
      for (const output of [0, 1, 13, 4096]) {
        const reserved = worstCaseQuota(price, { promptTokens: prompt, outputTokens: output, n: 2 }, 1.3)
        const cost = computeQuota(price, { promptTokens: prompt, completionTokens: output * 2 }, 1.3).quota
        expect(reserved).toBeGreaterThanOrEqual(cost)
      }
    }
  })
})

describe('affordableOutputTokens', () => {
  it('caps the output at what the held amount pays after the prompt', () => {
    // 100 prompt tokens × 1 = 100 units; 900 units left at 2 per token = 450 tokens.
    expect(affordableOutputTokens(tokens(1, 2), { promptTokens: 100, outputTokens: 16_384 }, 1, 1000)).toBe(450)
    expect(affordableOutputTokens(tokens(1, 2), { promptTokens: 100, outputTokens: 16_384, n: 2 }, 1, 1000)).toBe(225)
    expect(affordableOutputTokens(tokens(1, 2), { promptTokens: 100, outputTokens: 300 }, 1, 1_000_000)).toBe(300)
    expect(affordableOutputTokens(tokens(1, 2), { promptTokens: 100, outputTokens: 300 }, 1, 50)).toBe(0)
  })
  it('a capped answer never costs more than was held', () => {
    const price = tokens(0.3, 0.7)
    for (const held of [10, 77, 1000, 123_457]) {
      const shape = { promptTokens: 20, outputTokens: 1_000_000 }
      const cap = affordableOutputTokens(price, shape, 1.25, held)
      expect(computeQuota(price, { promptTokens: 20, completionTokens: cap }, 1.25).quota).toBeLessThanOrEqual(Math.max(held, 1))
    }
  })
})

describe('sanitizeUsage', () => {
  const hostile: unknown[] = ['100', -5, null, 1e309, Number.NaN, 1.5, 2 ** 53, [], {}, undefined]
  for (const bad of hostile) {
    it(`refuses a supplier count of ${JSON.stringify(bad) ?? String(bad)}`, () => {
      expect(sanitizeUsage({ promptTokens: bad as number, completionTokens: 3 })).toBeUndefined()
      expect(sanitizeUsage({ promptTokens: 3, completionTokens: bad as number })).toBeUndefined()
    })
  }
  it('keeps valid counts and drops bad extra kinds', () => {
    const usage = sanitizeUsage({ promptTokens: 10, completionTokens: 5, extra: { cached_tokens: 4, reasoning_tokens: -1 as number, constructor: 3 } as Usage['extra'] })
    expect(usage).toEqual({ promptTokens: 10, completionTokens: 5, extra: { cached_tokens: 4 } })
  })
})

describe('per-call billing', () => {
  it('times prices multiply by calls and the size/quality ratio', () => {
    expect(computeQuota(times(20), { promptTokens: 0, completionTokens: 0, calls: 3, callRatio: 2 }, 1)).toMatchObject({ quota: 120_000, calls: 3, call_ratio: 2 })
  })
  it('transcriptions bill started minutes, at least one', () => {
    expect([audioMinutes(undefined), audioMinutes(0), audioMinutes(59.9), audioMinutes(60), audioMinutes(61), audioMinutes(Number.POSITIVE_INFINITY)]).toEqual([1, 1, 1, 1, 2, 1])
  })
})
