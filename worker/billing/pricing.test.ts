/**
 * Price and group-ratio lookups by a client's name are own-key only (issue 12): `constructor` or
 * `toString` is an unpriced model and an unknown group, never an Object.prototype member.
 */
import { describe, expect, it } from 'vitest'
import { groupRatio, resolvePrice, type PriceTable } from './pricing'
import type { Settings } from '../settings/store'

const table = (): PriceTable => JSON.parse(JSON.stringify({ exact: { 'gpt-4o': { model: 'gpt-4o', type: 'tokens', input: 1, output: 2 } }, wildcards: [] }))

describe('prototype names in price lookups', () => {
  it('treats prototype names as unpriced models', () => {
    for (const model of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(resolvePrice(table(), model)).toBeUndefined()
    }
    expect(resolvePrice(table(), 'gpt-4o')?.input).toBe(1)
  })

  it('treats prototype names as unknown groups', () => {
    const settings = { json: () => JSON.parse('{"default":1,"vip":0.5}') } as unknown as Settings
    for (const group of ['constructor', 'toString', '__proto__']) expect(groupRatio(settings, group)).toBeUndefined()
    expect(groupRatio(settings, 'vip')).toBe(0.5)
  })
})
