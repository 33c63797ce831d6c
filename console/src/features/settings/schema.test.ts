/** The settings form's number checks follow the shared option metadata (the registry's bounds) for every numeric option. */
import { OPTION_META, type OptionKey, type OptionMeta } from '@contract/settings'
import { describe, expect, it } from 'vitest'
import { modelFallbacksSchema } from '@contract/option-checks'
import { jsonText, numberText } from './schema'

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

describe('jsonText with the ModelFallbacks schema', () => {
  const schema = jsonText((v) => modelFallbacksSchema.safeParse(v).success, 'modelFallbacks')
  const issue = (raw: string) => {
    const r = schema.safeParse(raw)
    return r.success ? undefined : r.error.issues[0]?.message
  }

  it('accepts an empty map and ordered fallbacks', () => {
    expect(issue('{}')).toBeUndefined()
    expect(issue('{"gpt-4o": ["gpt-4.1", "claude-sonnet-4"]}')).toBeUndefined()
  })

  it('names why a value is refused', () => {
    expect(issue('{')).toBe('settings:validation.json')
    expect(issue('["a"]')).toBe('settings:validation.jsonObject')
    expect(issue('{"a": ["a"]}')).toBe('settings:validation.modelFallbacks')
    expect(issue('{"a": ["b"], "b": ["a"]}')).toBe('settings:validation.modelFallbacks')
  })
})
