/**
 * Key pools and affinity end to end with the official `openai` SDK against the running gateway and
 * the mock upstream: a pool channel holding k1, a revoked key (the mock answers 401
 * invalid_api_key) and k2 serves 30 of 30 requests from three users and disables only the revoked
 * key (failures from two users are needed, as for channels); 20 requests
 * sharing one prompt_cache_key across two equal channels all land on one of them.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI
/** Three users' clients: a key is disabled only on failures from two users (like a channel). */
let clients: OpenAI[] = []
const stamp = Date.now().toString(36)
const POOL_MODEL = `pool-model-${stamp}`
const STICKY_MODEL = `sticky-model-${stamp}`

/** Requests the mock saw per key (all paths). */
async function mockCounts(): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${inject('mockUrl')}/__stats`)).json()) as Record<string, number>
  const out: Record<string, number> = {}
  for (const [k, n] of Object.entries(stats)) out[k.split(' ')[0]!] = (out[k.split(' ')[0]!] ?? 0) + n
  return out
}

beforeAll(async () => {
  fixture = await relayFixture({ username: `pool${stamp}` })
  for (const model of [POOL_MODEL, STICKY_MODEL]) await fixture.root.ok('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 0.1, output: 0.2 })
  await fixture.root.ok('PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'true' })
  // No cooldown: the revoked key is tried again at once, so two users meet it within the run
  // whatever the machine's speed (with the default 5 s freeze the second user's turn was timing).
  await fixture.root.ok('PUT', '/api/option/', { key: 'RetryCooldownSeconds', value: '0' })
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
  const others = [await relayFixture({ username: `pool${stamp}b` }), await relayFixture({ username: `pool${stamp}c` })]
  clients = [client, ...others.map((f) => new OpenAI({ apiKey: f.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 }))]
})

afterAll(async () => {
  await fixture?.root.call('PUT', '/api/option/', { key: 'AutomaticDisableChannelEnabled', value: 'false' })
  await fixture?.root.call('PUT', '/api/option/', { key: 'RetryCooldownSeconds', value: '5' })
})

const channel = (name: string, key: string, model: string, extra: Record<string, unknown> = {}) => ({
  type: 8,
  name,
  key,
  base_url: inject('mockUrl'),
  models: [model],
  group: ['default'],
  ...extra,
})

describe('key pools with the openai SDK', () => {
  it('serves 30/30 requests from a pool with a revoked key and disables only that key', async () => {
    const k1 = `sk-pool-${stamp}-one`
    const k2 = `sk-pool-${stamp}-two`
    const [pool] = await fixture.root.ok<any[]>(
      'POST',
      '/api/channel/',
      channel(`pool-${stamp}`, `${k1}\nmock-401\n${k2}`, POOL_MODEL, { key_mode: 'pool', auto_disable_threshold: 1 })
    )
    expect(pool.key_count).toBe(3)
    const before = await mockCounts()
    const keysOf = () => fixture.root.ok<any>('GET', `/api/channel/${pool.id}/keys`)
    // 30 requests from three users in turn, then more while the revoked key is still enabled: a
    // second user's failure on it disables it.
    let sent = 0
    let served = 0
    const deadline = Date.now() + 25_000
    while (sent < 30 || ((await keysOf()).keys[1].status !== 3 && Date.now() < deadline)) {
      const res = await clients[sent % 3]!.chat.completions.create({ model: POOL_MODEL, messages: [{ role: 'user', content: `conversation ${sent}` }] })
      sent++
      if (res.choices[0]?.message.content) served++
      if (sent >= 30) await new Promise((r) => setTimeout(r, 200))
    }
    expect(sent).toBeGreaterThanOrEqual(30)
    expect(served).toBe(sent)
    const after = await mockCounts()
    expect((after[k1] ?? 0) - (before[k1] ?? 0) + (after[k2] ?? 0) - (before[k2] ?? 0)).toBe(sent)
    const keys = await keysOf()
    expect(keys.keys.map((k: any) => k.status)).toEqual([1, 3, 1])
    expect(keys.keys[1].reason).toContain('401')
    expect(JSON.stringify(keys)).not.toContain(k1)
    expect((await fixture.root.ok<any>('GET', `/api/channel/${pool.id}`)).status).toBe(1)
    const history = await fixture.root.ok<any>('GET', `/api/channel/${pool.id}/history`)
    expect(history.data[0]).toMatchObject({ status: 3, key_hash: keys.keys[1].hash })
  })

  it('lands 20 requests with one prompt_cache_key on one of two equal channels', async () => {
    const a = `sk-sticky-${stamp}-a`
    const b = `sk-sticky-${stamp}-b`
    await fixture.root.ok('POST', '/api/channel/', channel(`sticky-a-${stamp}`, a, STICKY_MODEL))
    await fixture.root.ok('POST', '/api/channel/', channel(`sticky-b-${stamp}`, b, STICKY_MODEL))
    for (let i = 0; i < 20; i++) {
      const res = await client.chat.completions.create({
        model: STICKY_MODEL,
        messages: [{ role: 'user', content: `turn ${i}` }],
        prompt_cache_key: `shared-${stamp}`,
      } as OpenAI.ChatCompletionCreateParamsNonStreaming)
      expect(res.choices[0]!.message.content).toBeTruthy()
    }
    const counts = await mockCounts()
    expect([counts[a] ?? 0, counts[b] ?? 0].sort((x, y) => x - y)).toEqual([0, 20])
  })
})
