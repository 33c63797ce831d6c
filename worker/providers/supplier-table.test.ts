/** The README's supplier table equals the one generated from the registry; capabilities come from the adapters. */
import { describe, expect, it } from 'vitest'
import readme from '../../README.md?raw'
import { channelType } from './registry'
import { capabilitiesOf, supplierTable, withSupplierTable } from './supplier-table'

describe('README supplier table', () => {
  it('matches the registry (run `npm run readme:suppliers` after changing a channel type)', () => {
    expect(withSupplierTable(readme)).toBe(readme)
  })

  it('lists every type once', () => {
    const rows = supplierTable()
      .split('\n')
      .filter((l) => /^\| \d+ \|/.test(l))
    expect(rows.length).toBeGreaterThan(20)
    expect(rows.some((r) => r.startsWith('| 32 | AWS Bedrock |'))).toBe(true)
  })
})

describe('capabilities', () => {
  it.each([
    [1, ['chat', 'stream', 'tools', 'vision', 'embeddings', 'rerank', 'images', 'audio']],
    [32, ['chat', 'stream', 'tools', 'vision']],
    [36, ['chat', 'stream', 'tools', 'vision', 'embeddings', 'rerank']],
    [28, ['chat', 'stream', 'tools']],
    [1003, ['chat', 'stream']],
  ])('type %i can %j', (id, caps) => {
    expect(capabilitiesOf(channelType(id)!)).toEqual(caps)
  })
})
