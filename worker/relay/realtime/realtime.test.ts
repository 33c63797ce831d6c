/**
 * GET /v1/realtime through the Worker with a fetch-level mock realtime upstream (a WebSocket pair
 * speaking the realtime events): frames relayed both ways, each response.done billed with its text,
 * audio and cached tokens, subprotocol auth, the session ending when the balance runs out, the
 * key's requests per minute and budget checked before upgrading, a key pool's keys taking turns, and
 * the balance moving by exactly the logged quota.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../../test/factories'
import { mockRealtime, openRealtime } from '../../test/realtime-mock'
import { computeQuota } from '../../billing/formula'
import { getPriceTable, resolvePrice } from '../../billing/pricing'
import { realtimeUsage } from './billing'
import { routingSnapshot } from '../../channels/routing-table'

const MODEL = 'gpt-4o-realtime-preview'
const USAGE = {
  total_tokens: 300,
  input_tokens: 200,
  output_tokens: 100,
  input_token_details: { cached_tokens: 50, text_tokens: 120, audio_tokens: 80 },
  output_token_details: { text_tokens: 40, audio_tokens: 60 },
}
let upstream: ReturnType<typeof mockRealtime>
let upstreamSaw: ReturnType<typeof mockRealtime>['saw']

beforeEach(async () => {
  let n = 0
  upstream = mockRealtime(MODEL, (event, session) => {
    // With server voice activity detection a committed audio buffer starts a response by itself.
    if (event.type !== 'response.create' && event.type !== 'input_audio_buffer.commit') return
    n++
    session.send({ type: 'response.created', response: { id: `resp_${n}`, status: 'in_progress' } })
    session.send({ type: 'response.output_text.delta', response_id: `resp_${n}`, delta: 'Hi' })
    session.send({ type: 'response.done', response: { id: `resp_${n}`, status: 'completed', usage: USAGE } })
  })
  upstreamSaw = upstream.saw
  await setPrice(MODEL, 2.5, 10)
  await createChannel({ key: 'sk-realtime', models: MODEL })
})
afterEach(() => upstream.restore())

const open = (headers: Record<string, string>, query = `?model=${MODEL}`) => openRealtime(headers, query)

describe('realtime usage', () => {
  it('maps response.done usage with audio and cached tokens', () => {
    expect(realtimeUsage(USAGE)).toEqual({ promptTokens: 200, completionTokens: 100, extra: { cached_tokens: 50, input_audio_tokens: 80, output_audio_tokens: 60 } })
    expect(realtimeUsage(undefined)).toBeUndefined()
  })
})

describe('GET /v1/realtime', () => {
  it('relays frames both ways and bills each response.done exactly, logging the format', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const s = await open({ authorization: `Bearer ${token.key}` })
    expect(s.res.status).toBe(101)
    expect(await s.next('session.created')).toMatchObject({ session: { id: 'sess_1' } })
    expect(upstreamSaw).toMatchObject({ auth: 'Bearer sk-realtime', beta: 'realtime=v1' })
    expect(upstreamSaw.url).toBe(`https://upstream.test/v1/realtime?model=${MODEL}`)
    s.ws!.send(JSON.stringify({ type: 'session.update', session: { voice: 'alloy' } }))
    s.ws!.send(JSON.stringify({ type: 'response.create' }))
    expect((await s.next('response.done')).response.id).toBe('resp_1')
    s.ws!.send(JSON.stringify({ type: 'response.create' }))
    expect((await s.next('response.done')).response.id).toBe('resp_2')
    expect(upstreamSaw.frames.map((f) => JSON.parse(f).type)).toEqual(['session.update', 'response.create', 'response.create'])
    await s.close()
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
    const logs = await env.DB.prepare('SELECT prompt_tokens, completion_tokens, quota, metadata FROM logs WHERE user_id = ? AND type = 2 ORDER BY id').bind(user.id).all<any>()
    expect(logs.results.map((r) => [r.prompt_tokens, r.completion_tokens])).toEqual([
      [200, 100],
      [200, 100],
    ])
    const meta = JSON.parse(logs.results[0].metadata)
    expect(meta).toMatchObject({ inbound_format: 'realtime', response_id: 'resp_1' })
    const price = resolvePrice(await getPriceTable(env), MODEL)!
    expect(logs.results.map((r) => r.quota)).toEqual([1, 2].map(() => computeQuota(price, realtimeUsage(USAGE)!, 1).quota))
  })

  it('bills responses the server starts itself (no response.create)', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const s = await open({ authorization: `Bearer ${token.key}` })
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'AAAA' }))
    s.ws!.send(JSON.stringify({ type: 'input_audio_buffer.commit' }))
    expect((await s.next('response.done')).response.id).toBe('resp_1')
    await s.close()
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
  })

  it('accepts the key as a subprotocol and echoes "realtime"', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const s = await open({ 'sec-websocket-protocol': `realtime, openai-insecure-api-key.${token.key}, openai-beta.realtime-v1` })
    expect(s.res.status).toBe(101)
    expect(s.res.headers.get('sec-websocket-protocol')).toBe('realtime')
    await s.next('session.created')
    await s.close()
  })

  it('ends the session with an insufficient_quota error when the balance runs out', async () => {
    // Enough for one response's floor (256 + 256 tokens = 3,200 here), not for a second after 1,500 is charged.
    const user = await createUser({ quota: 4_000 })
    const token = await createToken(user.id)
    const s = await open({ authorization: `Bearer ${token.key}` })
    expect(s.res.status).toBe(101)
    s.ws!.send(JSON.stringify({ type: 'response.create' }))
    await s.next('response.done')
    const err = await s.next('error')
    expect(err.error).toMatchObject({ code: 'insufficient_quota' })
    expect(await s.closed).toBe(1008)
    await waitOnExecutionContext(s.ctx)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(4_000 - l.quota).toBe(l.loggedQuota)
    expect(upstreamSaw.frames).toHaveLength(1)
  })

  it('refuses missing models, missing keys, plain GETs and too-small balances before upgrading', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    expect((await open({ authorization: `Bearer ${token.key}` }, '')).res.status).toBe(400)
    expect((await open({})).res.status).toBe(401)
    expect((await send(`/v1/realtime?model=${MODEL}`, { key: token.key })).status).toBe(400)
    const poor = await createUser({ quota: 10 })
    const poorToken = await createToken(poor.id)
    const refused = await open({ authorization: `Bearer ${poorToken.key}` })
    expect(refused.res.status).toBe(429)
    expect(refused.res.webSocket).toBeNull()
  })

  it("takes turns over a key pool's keys", async () => {
    await env.DB.prepare("UPDATE channels SET key = 'sk-pool-1' || char(10) || 'sk-pool-2', key_mode = 'pool' WHERE key = 'sk-realtime'").run()
    await routingSnapshot.invalidate(env)
    const token = await createToken((await createUser({ quota: 10_000_000 })).id)
    const used = new Set<string | null>()
    for (let i = 0; i < 2; i++) {
      const session = await open({ authorization: `Bearer ${token.key}` })
      expect(session.res.status).toBe(101)
      used.add(upstreamSaw.auth)
      await session.close()
    }
    expect(used).toEqual(new Set(['Bearer sk-pool-1', 'Bearer sk-pool-2']))
  })

  it("holds a session to the key's requests per minute and budget before upgrading", async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    await env.DB.prepare("UPDATE tokens SET rpm_limit = 1, budget_period = 'day', budget_quota = 1000000 WHERE id = ?").bind(token.id).run()
    const first = await open({ authorization: `Bearer ${token.key}` })
    expect(first.res.status).toBe(101)
    await first.close()
    const second = await open({ authorization: `Bearer ${token.key}` })
    expect(second.res.status).toBe(429)
    expect(second.res.webSocket).toBeNull()
    expect(await second.res.json()).toMatchObject({ error: { code: 'rate_limit_exceeded' } })
    expect(Number(second.res.headers.get('retry-after'))).toBeGreaterThan(0)

    const spent = await createToken(user.id)
    await env.DB.prepare("UPDATE tokens SET budget_period = 'day', budget_quota = 1 WHERE id = ?").bind(spent.id).run()
    const broke = await open({ authorization: `Bearer ${spent.key}` })
    expect(broke.res.status).toBe(429)
    expect(await broke.res.json()).toMatchObject({ error: { code: 'budget_exceeded' } })
  })
})
