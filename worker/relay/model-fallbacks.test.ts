/**
 * Cross-model fallbacks through the real relay: the order models are tried in, models the key may
 * not use or that have no price skipped, the answer billed at the model that answered (Σ log
 * quota = balance change, the hold regrown or the answer capped for a dearer model), `fallback_from`
 * in the log row, and the request's own `models` list (checked against the key, stripped upstream).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream, USAGE } from '../test/upstream-mock'
import { checkOptionValue } from '../../shared/contract/option-checks'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setOptions({ RetryTimes: '1', ChannelAffinityEnabled: 'false' })
})
afterEach(() => upstream.restore())

const chat = (model: string, extra: Record<string, unknown> = {}) => ({ model, messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 7, ...extra })
const cost = (input: number, output: number) => USAGE.prompt_tokens * input + USAGE.completion_tokens * output

async function consumeRow(userId: number) {
  const row = await env.DB.prepare('SELECT model_name, quota, metadata FROM logs WHERE user_id = ? AND type = 2')
    .bind(userId)
    .first<{ model_name: string; quota: number; metadata: string }>()
  return { ...row!, metadata: JSON.parse(row!.metadata) as Record<string, unknown> }
}

describe('ModelFallbacks setting', () => {
  it('accepts a bounded map and refuses self-reference, cycles, duplicates and oversized lists', () => {
    expect(checkOptionValue('ModelFallbacks', '{"a":["b","c"],"b":["c"]}').ok).toBe(true)
    const refused = (v: unknown) => {
      const r = checkOptionValue('ModelFallbacks', JSON.stringify(v))
      return r.ok ? '' : r.message
    }
    expect(refused({ a: ['a'] })).toMatch(/itself/)
    expect(refused({ a: ['b'], b: ['c'], c: ['a'] })).toMatch(/cycle/)
    expect(refused({ a: ['b', 'b'] })).toMatch(/twice/)
    expect(refused({ a: [] })).toMatch(/at least one/)
    expect(refused({ a: ['b', 'c', 'd', 'e', 'f', 'g'] })).toMatch(/at most 5/)
    expect(refused({ a: 'b' })).not.toBe('')
    expect(refused({ a: [''] })).not.toBe('')
  })
})

describe('fallback order and billing', () => {
  it('a model whose only channel fails is answered by the next model with a channel, billed at its price', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-a': ['fb-none', 'fb-c'] }) })
    await setPrice('fb-a', 1, 1)
    await setPrice('fb-none', 1, 1)
    await setPrice('fb-c', 3, 5)
    await createChannel({ key: 'mock-500', models: 'fb-a' })
    await createChannel({ key: 'good', models: 'fb-c' })
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a') })
    expect(res.status).toBe(200)
    expect(res.json.model).toBe('fb-c')
    expect(upstream.calls.map((c) => [c.key, c.body.model])).toEqual([
      ['mock-500', 'fb-a'],
      ['good', 'fb-c'],
    ])
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(1_000_000 - l.quota).toBe(cost(3, 5))
    expect(l.loggedQuota).toBe(cost(3, 5))
    const row = await consumeRow(user.id)
    expect(row.model_name).toBe('fb-c')
    expect(row.metadata).toMatchObject({ fallback_from: 'fb-a', billed_model: 'fb-c' })
  })

  it('a model with no enabled channel goes straight to its fallback', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-gone': ['fb-c'] }) })
    await setPrice('fb-gone', 1, 1)
    await setPrice('fb-c', 2, 2)
    await createChannel({ key: 'good', models: 'fb-c' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-gone') })
    expect(res.status).toBe(200)
    expect(res.json.model).toBe('fb-c')
    const l = await ledger(user.id)
    expect((await consumeRow(user.id)).metadata.fallback_from).toBe('fb-gone')
    expect(100_000 - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(cost(2, 2))
  })

  it('skips fallbacks the key may not use and fallbacks without a price', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-a': ['fb-denied', 'fb-unpriced', 'fb-c'] }) })
    await setPrice('fb-a', 1, 1)
    await setPrice('fb-denied', 1, 1)
    await setPrice('fb-c', 2, 3)
    await createChannel({ key: 'mock-500', models: 'fb-a' })
    await createChannel({ key: 'good-x', models: 'fb-denied,fb-unpriced' })
    await createChannel({ key: 'good', models: 'fb-c' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { models: ['fb-a', 'fb-unpriced', 'fb-c'] })
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a') })
    expect(res.status).toBe(200)
    expect(res.json.model).toBe('fb-c')
    expect(upstream.count('good-x')).toBe(0)
    expect((await ledger(user.id)).loggedQuota).toBe(cost(2, 3))
  })

  it('when every model fails the hold goes back in full and the client sees the first model’s failure', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-a': ['fb-b'] }) })
    await setPrice('fb-a', 1, 1)
    await setPrice('fb-b', 1, 1)
    await createChannel({ key: 'mock-500', models: 'fb-a,fb-b' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a') })
    expect(res.status).toBeGreaterThanOrEqual(500)
    // The one channel serves both models: it is tried once for each.
    expect(upstream.calls.map((c) => c.body.model)).toEqual(['fb-a', 'fb-b'])
    const l = await ledger(user.id)
    expect(l.quota).toBe(100_000)
    expect(l.loggedQuota).toBe(0)
  })

  it('a dearer fallback regrows the hold when the balance allows, and is skipped when it does not', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-cheap': ['fb-dear'] }), PreConsumedQuota: '0' })
    await setPrice('fb-cheap', 1, 1)
    await setPrice('fb-dear', 50, 50)
    await createChannel({ key: 'mock-500', models: 'fb-cheap' })
    await createChannel({ key: 'good', models: 'fb-dear' })
    const rich = await createUser({ quota: 1_000_000 })
    const ok = await send('/v1/chat/completions', { key: (await createToken(rich.id)).key, json: chat('fb-cheap', { max_tokens: 100 }) })
    expect(ok.status).toBe(200)
    const l = await ledger(rich.id)
    expect(1_000_000 - l.quota).toBe(cost(50, 50))
    expect(l.loggedQuota).toBe(cost(50, 50))
    expect(l.consumeLogs).toBe(1)

    // Enough for the cheap model's worst case, not for the dear one's with the client's own limit.
    const poor = await createUser({ quota: 500 })
    const refused = await send('/v1/chat/completions', { key: (await createToken(poor.id)).key, json: chat('fb-cheap', { max_tokens: 100 }) })
    expect(refused.status).toBeGreaterThanOrEqual(500)
    expect(upstream.count('good')).toBe(1)
    const p = await ledger(poor.id)
    expect(p.quota).toBe(500)
    expect(p.loggedQuota).toBe(0)
  })

  it('without a client output limit a dearer fallback is capped at what the balance pays', async () => {
    await setOptions({ ModelFallbacks: JSON.stringify({ 'fb-cheap': ['fb-dear'] }), PreConsumedQuota: '0' })
    await setPrice('fb-cheap', 1, 1)
    await setPrice('fb-dear', 10, 10)
    await createChannel({ key: 'mock-500', models: 'fb-cheap' })
    await createChannel({ key: 'good', models: 'fb-dear' })
    const user = await createUser({ quota: 2_000 })
    const res = await send('/v1/chat/completions', { key: (await createToken(user.id)).key, json: { model: 'fb-cheap', messages: [{ role: 'user', content: 'Say hello' }] } })
    expect(res.status).toBe(200)
    const sent = upstream.calls.find((c) => c.key === 'good')!.body
    // What the balance pays for after the prompt's worst case, at the dear model's price.
    expect(sent.max_tokens).toBeGreaterThan(0)
    expect(sent.max_tokens).toBeLessThan(200)
    const l = await ledger(user.id)
    expect(2_000 - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(cost(10, 10))
  })
})

describe('the request’s own models list', () => {
  it('falls back through body.models and never sends models upstream', async () => {
    await setPrice('fb-a', 1, 1)
    await setPrice('fb-c', 2, 2)
    await createChannel({ key: 'mock-500', models: 'fb-a' })
    await createChannel({ key: 'good', models: 'fb-c' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a', { models: ['fb-c'] }) })
    expect(res.status).toBe(200)
    expect(res.json.model).toBe('fb-c')
    for (const call of upstream.calls) expect(call.body).not.toHaveProperty('models')
    const l = await ledger(user.id)
    expect(100_000 - l.quota).toBe(cost(2, 2))
    expect((await consumeRow(user.id)).metadata.fallback_from).toBe('fb-a')
  })

  it('refuses a list naming a model the key may not use, in the inbound format’s envelope, before any supplier', async () => {
    await setPrice('fb-a', 1, 1)
    await createChannel({ key: 'good', models: 'fb-a,fb-c' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { models: ['fb-a'] })
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a', { models: ['fb-c'] }) })
    expect(res.status).toBe(403)
    expect(res.json.error).toMatchObject({ code: 'model_not_allowed' })
    expect(res.json.error.message).toContain('fb-c')
    const viaResponses = await send('/v1/responses', { key: token.key, json: { model: 'fb-a', input: 'Say hello', models: ['fb-c'] } })
    expect(viaResponses.status).toBe(403)
    expect(viaResponses.json.error).toMatchObject({ code: 'model_not_allowed' })
    expect(upstream.calls).toHaveLength(0)
  })

  it('refuses a malformed list with 400', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id)
    for (const models of ['fb-c', [], [1], Array(7).fill('x')]) {
      const res = await send('/v1/chat/completions', { key: token.key, json: chat('fb-a', { models }) })
      expect(res.status).toBe(400)
      expect(res.json.error.message).toContain('models')
    }
  })
})
