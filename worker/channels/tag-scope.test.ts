import { describe, expect, it } from 'vitest'
import { buildRoutingTable } from './routing-table'
import { selectChannel, usableChannels } from './pick'
import { servingTags, tagFilter } from './tag-scope'

const ch = (id: number, tag: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 1,
  name: `c${id}`,
  key: 'k',
  base_url: '',
  group: 'default',
  models: 'gpt-4o',
  priority: 0,
  weight: 1,
  tag,
  ...extra,
})

const never = () => false
const table = buildRoutingTable([ch(1, ''), ch(2, 'premium'), ch(3, 'fast', { priority: 9 }), ch(4, 'premium', { only_chat: 1 })])

describe('channel tags and plans', () => {
  it('the routing table carries each channel’s tag; an untagged one has none', () => {
    expect([1, 2, 3].map((id) => table.channels[id]!.tag)).toEqual([undefined, 'premium', 'fast'])
  })

  it('the tags serving a request: distinct, non-empty, of the usable channels only', () => {
    const opts = { group: 'default', model: 'gpt-4o', tried: new Set<number>(), isFrozen: never }
    expect(servingTags(usableChannels(table, opts))).toEqual(['fast', 'premium'])
    // Channel 3 tried, channel 2 frozen, channel 4 chat-only for a request with tools: no tag is left.
    expect(servingTags(usableChannels(table, { ...opts, tried: new Set([3]), isFrozen: (id) => id === 2, hasTools: true }))).toEqual([])
  })

  it('a subscription’s tags limit the pick to its channels, even below a higher tier; no tags, no limit', () => {
    const accept = tagFilter(['premium'])!
    for (let i = 0; i < 20; i++) expect([2, 4]).toContain(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never, accept })!.id)
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set([2, 4]), isFrozen: never, accept })).toBeUndefined()
    expect(tagFilter([])).toBeUndefined()
    expect(tagFilter(undefined)).toBeUndefined()
    expect(table.channels[1] && tagFilter(['premium', ''])!(table.channels[1])).toBe(false)
  })
})
