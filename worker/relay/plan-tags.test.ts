/**
 * Plans limited to channel tags through the real relay (issue 33): gpt-4o is served by an untagged
 * channel and by one tagged `premium`, gpt-4o-mini by the untagged one only. A subscriber to a plan
 * limited to `premium` has every gpt-4o request sent to the premium channel, on rows naming the
 * subscription; gpt-4o-mini is not the plan's (the balance pays it, or 429 plan_quota_exceeded when
 * the plan forbids the fallback); when the premium channel fails the request fails and the plan
 * gets its request back; a plan without tags goes on using every channel.
 */
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createSubscription, createToken, createUser, ledger, send, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
let plain: number
let premium: number
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gpt-4o-mini', 1, 2)
  plain = await createChannel({ key: 'plain', models: 'gpt-4o,gpt-4o-mini' })
  premium = await createChannel({ key: 'premium', models: 'gpt-4o', tag: 'premium' })
})
afterEach(() => upstream.restore())

/** `user` varies the affinity key (channels/affinity.ts), so the same prompt is not pinned to one channel. */
const chat = (model: string, user = 'u') => ({ model, user, messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 7 })
const COST = { 'gpt-4o': 12 * 2 + 7 * 4, 'gpt-4o-mini': 12 + 7 * 2 }

/** The user's consume rows: which subscription (0 = the balance) and which channel each names. */
async function rows(userId: number) {
  await wallet(userId).flush()
  const r = await env.DB.prepare('SELECT model_name AS model, subscription_id AS sub, channel_id AS channel, quota FROM logs WHERE user_id = ? AND type = 2 ORDER BY id')
    .bind(userId)
    .all<{ model: string; sub: number; channel: number; quota: number }>()
  return r.results
}

const keysCalled = () => new Set(upstream.calls.map((c) => c.key))

async function subscriber(terms: Parameters<typeof createSubscription>[1], quota = 100_000) {
  const user = await createUser({ quota })
  const token = await createToken(user.id)
  const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 100 }], ...terms })
  return { user, token, sub }
}

describe('a plan limited to channel tags', () => {
  it('sends its requests to the tagged channel only, on rows naming the subscription; other models are the balance’s', async () => {
    const { user, token, sub } = await subscriber({ channel_tags: ['premium'] })
    for (let i = 0; i < 12; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o', `u${i}`) })).status).toBe(200)
    expect(keysCalled()).toEqual(new Set(['premium']))
    // gpt-4o-mini: only the untagged channel serves it, so the plan does not cover it.
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    expect(upstream.calls.at(-1)!.key).toBe('plain')
    const r = await rows(user.id)
    expect(r.filter((x) => x.model === 'gpt-4o')).toEqual(Array.from({ length: 12 }, () => ({ model: 'gpt-4o', sub, channel: premium, quota: COST['gpt-4o'] })))
    expect(r.filter((x) => x.model === 'gpt-4o-mini')).toEqual([{ model: 'gpt-4o-mini', sub: 0, channel: plain, quota: COST['gpt-4o-mini'] }])
    const l = await ledger(user.id)
    expect(l.quota).toBe(100_000 - COST['gpt-4o-mini'])
    expect((await wallet(user.id).planUse({ userId: user.id, tz: 'UTC' }))[sub]!.map((w) => w.used)).toEqual([12])
  })

  it('without the balance fallback, a model no tagged channel serves is refused with 429 plan_quota_exceeded', async () => {
    const { user, token, sub } = await subscriber({ channel_tags: ['premium'], allow_balance_fallback: false })
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('plan_quota_exceeded')
    expect(upstream.calls).toEqual([])
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o') })).status).toBe(200)
    expect(keysCalled()).toEqual(new Set(['premium']))
    expect(await rows(user.id)).toEqual([{ model: 'gpt-4o', sub, channel: premium, quota: COST['gpt-4o'] }])
    expect((await ledger(user.id)).quota).toBe(100_000)
  })

  it('when the tagged channel fails, the request fails (no untagged channel is tried) and the plan gets its request back', async () => {
    await setPrice('gpt-4-turbo', 2, 4)
    await createChannel({ key: 'good', models: 'gpt-4-turbo' })
    const broken = await createChannel({ key: 'mock-500', models: 'gpt-4-turbo', tag: 'premium' })
    const { user, token, sub } = await subscriber({ channel_tags: ['premium'] })
    const res = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4-turbo') })
    expect(res.status).toBeGreaterThanOrEqual(500)
    expect(keysCalled()).toEqual(new Set(['mock-500']))
    await wallet(user.id).flush()
    const error = await env.DB.prepare('SELECT channel_id, quota, subscription_id FROM logs WHERE user_id = ? AND type = 5').bind(user.id).first()
    expect(error).toEqual({ channel_id: broken, quota: 0, subscription_id: 0 })
    expect((await wallet(user.id).planUse({ userId: user.id, tz: 'UTC' }))[sub]!.map((w) => w.used)).toEqual([0])
    expect((await ledger(user.id)).quota).toBe(100_000)
  })

  it('a plan without tags covers every channel as before', async () => {
    const { user, token, sub } = await subscriber({})
    for (let i = 0; i < 24; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o', `u${i}`) })).status).toBe(200)
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    // Equal weights, 24 affinity keys: both channels get requests (all on one: a chance of 2 in 2^24).
    expect(keysCalled()).toEqual(new Set(['plain', 'premium']))
    const r = await rows(user.id)
    expect(r).toHaveLength(25)
    expect(r.every((x) => x.sub === sub)).toBe(true)
    expect((await ledger(user.id)).quota).toBe(100_000)
  })
})
