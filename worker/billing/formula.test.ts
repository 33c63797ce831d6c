import { describe, expect, it } from 'vitest'
import { computeQuota, estimateQuota, type ModelPrice, type Usage } from './formula'

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

describe('estimateQuota', () => {
  it('reserves prompt × input + max_tokens × output when max_tokens is given', () => {
    expect(estimateQuota(tokens(1, 2), 100, 50, 1, 500)).toBe(200)
  })
  it('adds the pre-consumed quota when max_tokens is absent', () => {
    expect(estimateQuota(tokens(1, 2), 100, undefined, 1, 500)).toBe(600)
  })
  it('reserves the per-call price for times models', () => {
    expect(estimateQuota(times(50), 999, 999, 1, 500)).toBe(50000)
  })
})
