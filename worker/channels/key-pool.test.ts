/**
 * Key pools: rotation over a pool's keys, a failing key disabled alone (with its reason, the
 * request retried on another key) once failures from two users reach the threshold, the channel
 * disabled only when no key is left, a rate-limited key frozen alone (the model on the channel only
 * once no key is left), and the per-channel auto-disable threshold within its window.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { keyHash, pickKey, poolKeys } from './key-pool'
import { routingSnapshot } from './routing-table'

let upstream: ReturnType<typeof mockUpstream>
const limited = () => new Response(JSON.stringify({ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } }), { status: 429 })
const dead = () => new Response(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }), { status: 401 })
beforeEach(async () => {
  upstream = mockUpstream((_req, _body, key) => (key.startsWith('revoked') ? dead() : key.startsWith('limited') ? limited() : undefined))
  await setPrice('gpt-4o', 2, 4)
  await setOptions({ AutomaticDisableChannelEnabled: 'true', RetryCooldownSeconds: '0', RetryTimes: '0' })
})
afterEach(() => upstream.restore())

async function poolChannel(keys: string[], extra: { threshold?: number; window?: number; priority?: number } = {}) {
  const id = await createChannel({ key: keys.join('\n'), priority: extra.priority ?? 0 })
  await env.DB.prepare("UPDATE channels SET key_mode = 'pool', auto_disable_threshold = ?, auto_disable_window = ? WHERE id = ?")
    .bind(extra.threshold ?? 0, extra.window ?? 0, id)
    .run()
  await routingSnapshot.invalidate(env)
  return id
}

async function apiKey() {
  const user = await createUser({ quota: 10_000_000 })
  return (await createToken(user.id)).key
}

const chat = (n: number) => ({ model: 'gpt-4o', messages: [{ role: 'user', content: `question ${n}` }] })
const channelStatus = async (id: number) =>
  (await env.DB.prepare('SELECT status, status_reason FROM channels WHERE id = ?').bind(id).first<{ status: number; status_reason: string }>())!
const keyState = (id: number, key: string) =>
  env.DB.prepare('SELECT status, reason FROM channel_key_states WHERE channel_id = ? AND key_hash = ?').bind(id, keyHash(key)).first<{ status: number; reason: string }>()

describe('key rotation', () => {
  it('round-robins over the keys when affinity is off', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false' })
    await poolChannel(['k1', 'k2', 'k3'])
    const key = await apiKey()
    for (let i = 0; i < 9; i++) expect((await send('/v1/chat/completions', { key, json: chat(0) })).status).toBe(200)
    expect([upstream.count('k1'), upstream.count('k2'), upstream.count('k3')]).toEqual([3, 3, 3])
  })

  it('spreads conversations over the keys and keeps each conversation on its key when affinity is on', async () => {
    await poolChannel(['k1', 'k2', 'k3'])
    const key = await apiKey()
    for (let i = 0; i < 30; i++) expect((await send('/v1/chat/completions', { key, json: chat(i) })).status).toBe(200)
    for (const k of ['k1', 'k2', 'k3']) expect(upstream.count(k)).toBeGreaterThan(0)
    const before = upstream.calls.length
    for (let i = 0; i < 5; i++) await send('/v1/chat/completions', { key, json: { ...chat(99), prompt_cache_key: 'conv-7' } })
    expect(new Set(upstream.calls.slice(before).map((c) => c.key)).size).toBe(1)
  })

  it('picks by rendezvous hashing with an affinity key and skips tried and frozen keys', () => {
    const keys = poolKeys('a\nb\nc', 'pool')
    const first = pickKey(1, keys, { affinity: 'x', skip: () => false, frozen: () => false })!
    for (let i = 0; i < 20; i++) expect(pickKey(1, keys, { affinity: 'x', skip: () => false, frozen: () => false })).toEqual(first)
    const second = pickKey(1, keys, { affinity: 'x', skip: (h) => h === first.hash, frozen: () => false })!
    expect(second.hash).not.toBe(first.hash)
    // Frozen keys are a last resort; tried keys never come back.
    expect(pickKey(1, keys, { affinity: 'x', skip: () => false, frozen: (h) => h !== second.hash })).toEqual(second)
    expect(pickKey(1, keys, { skip: () => true, frozen: () => false })).toBeUndefined()
    expect(poolKeys('a\nb', 'batch')).toHaveLength(1)
  })
})

describe('per-key disable', () => {
  it('retries a request on another key and disables only the failing key, with its reason and request id', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false' })
    const id = await poolChannel(['k1', 'revoked-1', 'k2'], { threshold: 1 })
    // Several users (three, so the round-robin does not pair one user with the bad key): a key,
    // like a channel, is disabled only on failures from two of them.
    const keys = [await apiKey(), await apiKey(), await apiKey()]
    for (let i = 0; i < 12; i++) expect((await send('/v1/chat/completions', { key: keys[i % 3], json: chat(i) })).status).toBe(200)
    expect(upstream.count('revoked-1')).toBe(2)
    expect(upstream.count('k1') + upstream.count('k2')).toBe(12)
    expect(await keyState(id, 'revoked-1')).toMatchObject({ status: 3 })
    expect((await keyState(id, 'revoked-1'))!.reason).toContain('401')
    expect(await keyState(id, 'k1')).toBeNull()
    expect((await channelStatus(id)).status).toBe(1)
    const history = await env.DB.prepare('SELECT * FROM channel_status_history WHERE channel_id = ?').bind(id).all<any>()
    expect(history.results).toHaveLength(1)
    expect(history.results[0]).toMatchObject({ key_hash: keyHash('revoked-1'), status: 3 })
    expect(history.results[0].request_id).not.toBe('')
  })

  it('disables the channel when its last key goes, and not before', async () => {
    const id = await poolChannel(['revoked-1', 'revoked-2'], { threshold: 1 })
    const res = await send('/v1/chat/completions', { key: await apiKey(), json: chat(1) })
    expect(res.status).toBe(503)
    expect(upstream.count('revoked-1') + upstream.count('revoked-2')).toBe(2)
    // One user's failures alone disable nothing.
    expect(await keyState(id, 'revoked-1')).toBeNull()
    expect((await send('/v1/chat/completions', { key: await apiKey(), json: chat(1) })).status).toBe(503)
    expect(await channelStatus(id)).toMatchObject({ status: 3 })
    expect((await channelStatus(id)).status_reason).toContain('no key left')
    const history = await env.DB.prepare("SELECT status FROM channel_status_history WHERE channel_id = ? AND key_hash = ''").bind(id).all()
    expect(history.results).toEqual([{ status: 3 }])
  })

  it('counts key failures against the threshold before disabling', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false' })
    const id = await poolChannel(['k1', 'revoked-1'], { threshold: 3 })
    const keys = [await apiKey(), await apiKey(), await apiKey()]
    let i = 0
    while (upstream.count('revoked-1') < 2) expect((await send('/v1/chat/completions', { key: keys[i++ % 3], json: chat(i) })).status).toBe(200)
    expect(await keyState(id, 'revoked-1')).toBeNull()
    while (upstream.count('revoked-1') < 3) expect((await send('/v1/chat/completions', { key: keys[i++ % 3], json: chat(i) })).status).toBe(200)
    expect(await keyState(id, 'revoked-1')).toMatchObject({ status: 3 })
    for (let j = 0; j < 4; j++) expect((await send('/v1/chat/completions', { key: keys[0], json: chat(j) })).status).toBe(200)
    expect(upstream.count('revoked-1')).toBe(3)
  })

  it("never disables a key on one user's failures alone", async () => {
    await setOptions({ ChannelAffinityEnabled: 'false' })
    const id = await poolChannel(['k1', 'revoked-1'], { threshold: 1 })
    const key = await apiKey()
    for (let i = 0; i < 6; i++) expect((await send('/v1/chat/completions', { key, json: chat(i) })).status).toBe(200)
    expect(upstream.count('revoked-1')).toBeGreaterThanOrEqual(3)
    expect(await keyState(id, 'revoked-1')).toBeNull()
  })
})

describe('per-key rate limits', () => {
  it('freezes a rate-limited key alone and serves the request from another key of the channel', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60' })
    const id = await poolChannel(['k1', 'limited-1', 'k2'])
    const key = await apiKey()
    for (let i = 0; i < 9; i++) expect((await send('/v1/chat/completions', { key, json: chat(i) })).status).toBe(200)
    // Tried once, then skipped while frozen; the other keys carried every request.
    expect(upstream.count('limited-1')).toBe(1)
    expect(upstream.count('k1') + upstream.count('k2')).toBe(9)
    // A rate limit is no reason to disable anything.
    expect(await keyState(id, 'limited-1')).toBeNull()
    expect((await channelStatus(id)).status).toBe(1)
  })

  it('freezes the model on the channel once every key of the pool is rate-limited', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60', RetryTimes: '1' })
    await poolChannel(['limited-1', 'limited-2'], { priority: 10 })
    await createChannel({ key: 'k9', priority: 0 })
    const key = await apiKey()
    for (let i = 0; i < 5; i++) expect((await send('/v1/chat/completions', { key, json: chat(i) })).status).toBe(200)
    // The first request tried both keys and moved on; the rest went straight to the other channel.
    expect([upstream.count('limited-1'), upstream.count('limited-2'), upstream.count('k9')]).toEqual([1, 1, 5])
  })

  it('answers 429 when the only pool has no key left that is not rate-limited', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60' })
    await poolChannel(['limited-1', 'limited-2'])
    const res = await send('/v1/chat/completions', { key: await apiKey(), json: chat(1) })
    expect(res.status).toBe(429)
    expect(res.json.error.type).toBe('rate_limit_error')
    expect(upstream.count('limited-1') + upstream.count('limited-2')).toBe(2)
  })
})

describe('threshold windows', () => {
  it('disables a channel only when its override threshold of failures falls within its window', async () => {
    await setOptions({ RetryTimes: '1' })
    const bad = await createChannel({ key: 'mock-401', priority: 5 })
    await env.DB.prepare('UPDATE channels SET auto_disable_threshold = 2, auto_disable_window = 1 WHERE id = ?').bind(bad).run()
    await createChannel({ key: 'good' })
    await routingSnapshot.invalidate(env)
    const key = await apiKey()
    expect((await send('/v1/chat/completions', { key, json: chat(1) })).status).toBe(200)
    await new Promise((r) => setTimeout(r, 1100))
    // The first failure fell out of the 1 s window: this one starts a new count.
    expect((await send('/v1/chat/completions', { key, json: chat(2) })).status).toBe(200)
    expect((await channelStatus(bad)).status).toBe(1)
    // The second strike comes from another user (issue 12: one user alone cannot disable a shared channel).
    expect((await send('/v1/chat/completions', { key: await apiKey(), json: chat(3) })).status).toBe(200)
    expect((await channelStatus(bad)).status).toBe(3)
    const history = await env.DB.prepare('SELECT status, reason, request_id FROM channel_status_history WHERE channel_id = ?').bind(bad).all<any>()
    expect(history.results).toHaveLength(1)
    expect(history.results[0].reason).toContain('2 failures')
  })
})

describe('one request cannot freeze a pool (issue 31)', () => {
  const frozen = (id: number) => env.CHANNEL_HEALTH.getByName(`channel:${id}`).frozen()
  const limitedPool = ['limited-1', 'limited-2', 'limited-3', 'limited-4']

  it('stops walking a pool after three keys answered the same 429', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60' })
    const id = await poolChannel(limitedPool)
    const res = await send('/v1/chat/completions', { key: await apiKey(), json: chat(1) })
    expect(res.status).toBe(429)
    expect(upstream.calls).toHaveLength(3)
    // The fourth key was never tried, so it is not resting.
    expect(Object.keys(await frozen(id)).filter((name) => name.startsWith('\u0000key:'))).toHaveLength(3)
  })

  it('fails over to another channel after three same 429s of a pool', async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60', RetryTimes: '1' })
    await poolChannel(limitedPool, { priority: 10 })
    await createChannel({ key: 'k9', priority: 0 })
    expect((await send('/v1/chat/completions', { key: await apiKey(), json: chat(1) })).status).toBe(200)
    expect(limitedPool.reduce((n, k) => n + upstream.count(k), 0)).toBe(3)
    expect(upstream.count('k9')).toBe(1)
  })

  it("rests only the pool's keys and the user's own model on one user's failures; two users' failures freeze the model", async () => {
    await setOptions({ ChannelAffinityEnabled: 'false', RetryCooldownSeconds: '60', RetryTimes: '1' })
    const id = await poolChannel(['limited-1', 'limited-2'], { priority: 10 })
    await createChannel({ key: 'k9', priority: 0 })
    const [a, b, c] = [await apiKey(), await apiKey(), await apiKey()]
    for (let i = 0; i < 3; i++) expect((await send('/v1/chat/completions', { key: a, json: chat(i) })).status).toBe(200)
    // User a walked the pool once and then went straight to the other channel…
    expect([upstream.count('limited-1') + upstream.count('limited-2'), upstream.count('k9')]).toEqual([2, 3])
    // …but the model is not frozen on the channel for anyone else: only its keys rest.
    expect(await frozen(id)).not.toHaveProperty('gpt-4o')
    expect((await send('/v1/chat/completions', { key: b, json: chat(9) })).status).toBe(200)
    expect(upstream.count('limited-1') + upstream.count('limited-2')).toBe(3)
    // User b failed there too: now the model is frozen on the channel for everyone.
    expect((await frozen(id))['gpt-4o']).toBeGreaterThan(Date.now())
    expect((await send('/v1/chat/completions', { key: c, json: chat(10) })).status).toBe(200)
    expect(upstream.count('limited-1') + upstream.count('limited-2')).toBe(3)
  })
})
