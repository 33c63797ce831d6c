import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_QUOTA_PER_UNIT, displayInCurrency, inputToQuota, quotaPerUnit, quotaToInput, renderNumber, renderQuota } from './format'
import { STORAGE_KEYS } from './storage'

/** The site info the console saved at startup, as localStorage would hold it. */
function site(values: Record<string, string>) {
  const store = new Map(Object.entries(values))
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: () => undefined, removeItem: () => undefined })
}

describe('quota formatters', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('falls back to 500,000 units per dollar and raw units when storage is missing or junk', () => {
    expect(quotaPerUnit()).toBe(DEFAULT_QUOTA_PER_UNIT)
    expect(displayInCurrency()).toBe(false)
    site({ [STORAGE_KEYS.quotaPerUnit]: '-3' })
    expect(quotaPerUnit()).toBe(DEFAULT_QUOTA_PER_UNIT)
    site({ [STORAGE_KEYS.quotaPerUnit]: 'abc' })
    expect(quotaPerUnit()).toBe(DEFAULT_QUOTA_PER_UNIT)
  })

  it('abbreviates raw units at 10k, 1M and 1B', () => {
    expect(renderNumber(9999)).toBe('9999')
    expect(renderNumber(10_000)).toBe('10.0k')
    expect(renderNumber(2_500_000)).toBe('2.5M')
    expect(renderNumber(3_000_000_000)).toBe('3.0B')
  })

  describe('with currency display on', () => {
    beforeEach(() => site({ [STORAGE_KEYS.displayInCurrency]: 'true', [STORAGE_KEYS.quotaPerUnit]: '500000' }))

    it('renders dollars with the asked digits', () => {
      expect(renderQuota(250_000)).toBe('$0.50')
      expect(renderQuota(1, 6)).toBe('$0.000002')
    })

    it('converts form input to whole quota units and back', () => {
      expect(quotaToInput(750_000)).toBe(1.5)
      expect(inputToQuota(1.5)).toBe(750_000)
      expect(inputToQuota(0.0000031)).toBe(2)
      expect(inputToQuota(quotaToInput(123_457))).toBe(123_457)
    })
  })

  it('uses raw units in forms when currency display is off', () => {
    site({ [STORAGE_KEYS.displayInCurrency]: 'false' })
    expect(renderQuota(12_345)).toBe('12.3k')
    expect(quotaToInput(42)).toBe(42)
    expect(inputToQuota(41.6)).toBe(42)
  })
})
