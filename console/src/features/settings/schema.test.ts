/** The settings form's number checks follow the shared option metadata (the registry's bounds) for every numeric option. */
import { OPTION_META, type OptionKey, type OptionMeta } from '@contract/settings'
import { describe, expect, it } from 'vitest'
import { numberText } from './schema'

const numeric = (Object.entries(OPTION_META) as [OptionKey, OptionMeta][]).filter(([, m]) => m.kind === 'int' || m.kind === 'float')

describe('numberText follows the option metadata', () => {
  it('covers the numeric options', () => {
    expect(numeric.map(([k]) => k)).toEqual(expect.arrayContaining(['RetryTimes', 'SMTPPort', 'PaymentUSDRate', 'AutoDisableWindowSeconds']))
  })

  it.each(numeric)('%s: accepts its bounds, refuses just outside them', (key, meta) => {
    const schema = numberText(key)
    const min = meta.min ?? 0
    expect(schema.safeParse(String(min)).success).toBe(true)
    expect(schema.safeParse(String(min - 1)).success).toBe(false)
    if (meta.max !== undefined) {
      expect(schema.safeParse(String(meta.max)).success).toBe(true)
      expect(schema.safeParse(String(meta.max + 1)).success).toBe(false)
    }
    expect(schema.safeParse(String(min + 0.5)).success).toBe(meta.kind === 'float')
  })

  it('refuses an option that is not a number', () => {
    expect(() => numberText('SystemName')).toThrow()
  })
})
