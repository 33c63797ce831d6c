/**
 * The hold before the supplier is called uses the price tier the prompt estimate falls into, and
 * the upper tier already when the estimate is within 10 % below the threshold (issue 34); the
 * fee is held too, and the output cap leaves room for it.
 */
import { describe, expect, it } from 'vitest'
import type { ModelPrice } from '../billing/formula'
import { Settings } from '../settings/store'
import type { OptionKey } from '../../shared/contract/settings'
import type { RelayInput } from './relay-input'
import { planReservation } from './reservation'

const settings = new Settings({ PreConsumedQuota: '0' } as Record<OptionKey, string>)
const price: ModelPrice = { model: 'tiered-hold', type: 'tokens', input: 1, output: 2, tier: { threshold: 200_000, input: 2, output: 4 } }
const chat = (promptEstimate: number, maxTokens?: number): RelayInput => ({
  op: 'chat',
  model: 'tiered-hold',
  stream: false,
  includeUsage: false,
  n: 1,
  hasTools: false,
  promptEstimate,
  ...(maxTokens !== undefined ? { maxTokens } : {}),
})

describe('planReservation with a long-context tier', () => {
  it('holds the base rates well below the threshold', () => {
    expect(planReservation(chat(100_000, 1000), price, 'tiered-hold', 1, settings).amount).toBe(100_000 + 2000)
  })

  it('holds the upper tier within 10 % below the threshold and above it', () => {
    expect(planReservation(chat(190_000, 1000), price, 'tiered-hold', 1, settings).amount).toBe(190_000 * 2 + 1000 * 4)
    expect(planReservation(chat(400_000, 1000), price, 'tiered-hold', 1, settings).amount).toBe(400_000 * 2 + 1000 * 4)
  })

  it('caps the output at what the hold pays at the held tier, after the fee', () => {
    const plan = planReservation(chat(190_000), { ...price, fee: 1000 }, 'tiered-hold', 1, settings)
    // 190,000 prompt tokens × 2 + the fee 1,000 leaves 8,000 units: 2,000 output tokens at 4.
    expect(plan.outputCap(190_000 * 2 + 1000 + 8000)).toBe(2000)
    expect(plan.floor).toBe(190_000 * 2 + 4 + 1000)
  })
})
