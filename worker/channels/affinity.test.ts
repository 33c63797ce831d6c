/**
 * Affinity (sticky routing): the key a request sticks by, stability of the channel choice over
 * 100 requests, a move only when the chosen channel freezes, weights respected, and 20 relayed
 * requests with one prompt_cache_key landing on one of two equal channels.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { affinityKey, rendezvousPick } from './affinity'
import { buildRoutingTable } from './routing-table'
import { selectChannel } from './pick'

const ch = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  type: 1,
  name: `c${id}`,
  key: `k${id}`,
  base_url: '',
  group: 'default',
  models: 'gpt-4o',
  priority: 0,
  weight: 1,
  ...extra,
})
const pick = (table: ReturnType<typeof buildRoutingTable>, affinity: string, frozen: number[] = [], tried: number[] = []) =>
  selectChannel(table, { group: 'default', model: 'gpt-4o', tried: new Set(tried), isFrozen: (id) => frozen.includes(id), affinity, random: Math.random })!.id

describe('affinity key', () => {
  it('takes prompt_cache_key, then user, then metadata.user_id, else the prompt prefix', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'hi' },
    ]
    expect(affinityKey('m', { prompt_cache_key: 'p', user: 'u', messages })).toBe('m|k:p')
    expect(affinityKey('m', { user: 'u', messages })).toBe('m|k:u')
    expect(affinityKey('m', { metadata: { user_id: 'a' }, messages })).toBe('m|k:a')
    const prefix = affinityKey('m', { messages })!
    expect(prefix).toMatch(/^m\|p:[0-9a-f]{8}$/)
    // Later turns of the same conversation keep the key; another system prompt does not.
    expect(affinityKey('m', { messages: [...messages, { role: 'assistant', content: 'x' }, { role: 'user', content: 'more' }] })).toBe(prefix)
    expect(affinityKey('m', { messages: [{ role: 'system', content: 'Other.' }, messages[1]] })).not.toBe(prefix)
    expect(affinityKey('other', { messages })).not.toBe(prefix)
    expect(affinityKey('m', { input: 'text' })).toBeUndefined()
  })
})

describe('rendezvous choice', () => {
  const table = buildRoutingTable([ch(1), ch(2), ch(3), ch(4), ch(9, { priority: -1 })])

  it('sends the same key to the same channel over 100 requests', () => {
    const first = pick(table, 'conv-1')
    for (let i = 0; i < 100; i++) expect(pick(table, 'conv-1')).toBe(first)
  })

  it('moves only when the chosen channel freezes, and comes back when it thaws', () => {
    const keys = Array.from({ length: 200 }, (_, i) => `conv-${i}`)
    const before = new Map(keys.map((k) => [k, pick(table, k)]))
    const victim = before.get('conv-1')!
    for (const k of keys) {
      const after = pick(table, k, [victim])
      expect(after).not.toBe(victim)
      // Keys that were not on the frozen channel stay where they were.
      if (before.get(k) !== victim) expect(after).toBe(before.get(k))
    }
    expect(pick(table, 'conv-1')).toBe(victim)
    // The lower tier is used only when the whole tier is out.
    expect(pick(table, 'conv-1', [1, 2, 3, 4])).toBe(9)
  })

  it('spreads keys over the tier by weight', () => {
    const weighted = buildRoutingTable([ch(1, { weight: 1 }), ch(2, { weight: 3 })])
    const counts = { 1: 0, 2: 0 } as Record<number, number>
    for (let i = 0; i < 2000; i++) counts[pick(weighted, `k${i}`)]!++
    expect(counts[2]! / 2000).toBeGreaterThan(0.68)
    expect(counts[2]! / 2000).toBeLessThan(0.82)
    expect(rendezvousPick([], 'x', () => 1)).toBeUndefined()
  })
})

describe('sticky relay', () => {
  let upstream: ReturnType<typeof mockUpstream>
  beforeEach(async () => {
    upstream = mockUpstream()
    await setPrice('gpt-4o', 2, 4)
  })
  afterEach(() => upstream.restore())

  it('lands 20 requests with one prompt_cache_key on one of two equal channels; without affinity they spread', async () => {
    await createChannel({ key: 'equal-a' })
    await createChannel({ key: 'equal-b' })
    const user = await createUser({ quota: 10_000_000 })
    const key = (await createToken(user.id)).key
    for (let i = 0; i < 20; i++) {
      const res = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', prompt_cache_key: 'shared-prefix', messages: [{ role: 'user', content: `turn ${i}` }] } })
      expect(res.status).toBe(200)
    }
    expect([upstream.count('equal-a'), upstream.count('equal-b')].sort()).toEqual([0, 20])

    await setOptions({ ChannelAffinityEnabled: 'false' })
    for (let i = 0; i < 40; i++)
      await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', prompt_cache_key: 'shared-prefix', messages: [{ role: 'user', content: 'x' }] } })
    expect(Math.min(upstream.count('equal-a'), upstream.count('equal-b'))).toBeGreaterThan(0)
  })
})
