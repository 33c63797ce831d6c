import { describe, expect, it } from 'vitest'
import { buildRoutingTable } from './routing-table'
import { mapModel, selectChannel } from './pick'

const ch = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 1,
  name: `c${id}`,
  key: 'k',
  base_url: '',
  group: 'default',
  models: 'gpt-4o,gpt-4o-mini',
  priority: 0,
  weight: 1,
  ...extra,
})

const never = () => false

describe('selectChannel', () => {
  it('uses the highest priority tier first and falls to lower tiers only when it is exhausted', () => {
    const table = buildRoutingTable([ch(1, { priority: 10 }), ch(2, { priority: 10 }), ch(3, { priority: 0 })])
    for (let i = 0; i < 50; i++) {
      const pick = selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never })
      expect([1, 2]).toContain(pick!.id)
    }
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set([1, 2]), isFrozen: never })!.id).toBe(3)
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set([1, 2, 3]), isFrozen: never })).toBeUndefined()
  })

  it('skips channels frozen for the model, and only for that model', () => {
    const table = buildRoutingTable([ch(1, { priority: 5 }), ch(2)])
    const frozen = (id: number, model: string) => id === 1 && model === 'gpt-4o'
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: frozen })!.id).toBe(2)
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o-mini', tried: new Set(), isFrozen: frozen })!.id).toBe(1)
  })

  it('picks by weight inside a tier', () => {
    const table = buildRoutingTable([ch(1, { weight: 1 }), ch(2, { weight: 3 })])
    const counts = { 1: 0, 2: 0 } as Record<number, number>
    for (let i = 0; i < 1000; i++) {
      const r = (i + 0.5) / 1000
      counts[selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never, random: () => r })!.id]!++
    }
    expect(counts[1]).toBe(250)
    expect(counts[2]).toBe(750)
  })

  it('matches trailing wildcards and respects groups', () => {
    const table = buildRoutingTable([ch(1, { models: 'claude-*', group: 'vip' }), ch(2, { models: 'gpt-4o', group: 'default,vip' })])
    expect(selectChannel(table, { group: 'vip', model: 'claude-sonnet-4-5', tried: new Set(), isFrozen: never })!.id).toBe(1)
    expect(selectChannel(table, { group: 'default', model: 'claude-sonnet-4-5', tried: new Set(), isFrozen: never })).toBeUndefined()
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never })!.id).toBe(2)
  })

  it('keeps chat-only channels away from tool calls', () => {
    const table = buildRoutingTable([ch(1, { only_chat: 1, priority: 9 }), ch(2)])
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never, hasTools: true })!.id).toBe(2)
    expect(selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(), isFrozen: never })!.id).toBe(1)
  })
})

describe('mapModel', () => {
  it('maps and bills the upstream model, or the requested one with "+"', () => {
    const table = buildRoutingTable([ch(1, { model_mapping: '{"gpt-4o":"gpt-4o-2024-11-20","cheap":"+gpt-4o-mini"}' })])
    const c = table.channels[1]!
    expect(mapModel(c, 'gpt-4o')).toEqual({ upstream: 'gpt-4o-2024-11-20', billed: 'gpt-4o-2024-11-20' })
    expect(mapModel(c, 'cheap')).toEqual({ upstream: 'gpt-4o-mini', billed: 'cheap' })
    expect(mapModel(c, 'other')).toEqual({ upstream: 'other', billed: 'other' })
  })
})
