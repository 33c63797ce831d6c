/** The registry validates every option by the shared metadata (shared/contract/settings.ts) the console form also reads. */
import { describe, expect, it } from 'vitest'
import { OPTION_META, type OptionMeta, SECRET_OPTION_KEYS } from '../../shared/contract/settings'
import { checkOptionValue } from '../../shared/contract/option-checks'
import { OPTION_KEYS, OPTIONS } from './registry'

const metaOf = (key: string): OptionMeta => OPTION_META[key as keyof typeof OPTION_META]

describe('settings registry built from the contract', () => {
  it('has every option of the metadata with its kind, default and flags', () => {
    expect(OPTION_KEYS).toEqual(Object.keys(OPTION_META))
    for (const key of OPTION_KEYS) {
      const meta = metaOf(key)
      expect(OPTIONS[key]).toMatchObject({ kind: meta.kind, default: meta.default })
      expect(Boolean(OPTIONS[key].secret)).toBe(Boolean(meta.secret))
      expect(Boolean(OPTIONS[key].internal)).toBe(Boolean(meta.internal))
      expect(checkOptionValue(key, meta.default).ok).toBe(true)
    }
    expect([...SECRET_OPTION_KEYS].every((k) => OPTIONS[k as keyof typeof OPTIONS].secret)).toBe(true)
  })

  it('enforces the numeric bounds of the metadata', () => {
    for (const key of OPTION_KEYS) {
      const meta = metaOf(key)
      if (meta.kind !== 'int' && meta.kind !== 'float') continue
      const min = meta.min ?? 0
      expect(checkOptionValue(key, String(min)).ok, key).toBe(true)
      expect(checkOptionValue(key, String(min - 1)).ok, key).toBe(false)
      if (meta.max !== undefined) {
        expect(checkOptionValue(key, String(meta.max)).ok, key).toBe(true)
        expect(checkOptionValue(key, String(meta.max + 1)).ok, key).toBe(false)
      }
    }
  })

  it('keeps links and enumerations to their values', () => {
    expect(checkOptionValue('TopUpLink', 'not a url').ok).toBe(false)
    expect(checkOptionValue('TopUpLink', '').ok).toBe(true)
    expect(checkOptionValue('MjImageProxy', 'gateway').ok).toBe(true)
    expect(checkOptionValue('MjImageProxy', 'elsewhere').ok).toBe(false)
  })
})
