/**
 * The response cache through the real relay (fetch-level upstream mock): a plain answer replayed to
 * a streamed request (and to an Anthropic stream), a streamed answer stored and replayed to a plain
 * request, `x-gateway-cache: off|refresh`, embeddings, and a request with tools whose stream is not
 * stored. Hits reach no supplier; they are free (quota 0) or billed exactly at ChatCacheHitRatio,
 * and refused like any request when the balance cannot pay them.
 */
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream, REPLY, USAGE } from '../test/upstream-mock'
import { checkOptionValue } from '../../shared/contract/option-checks'

const MODEL = 'cache-model'
let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice(MODEL, 2, 4)
  await setOptions({ ChatCacheEnabled: 'true', ChatCacheExpireMinute: '5' })
  await createChannel({ key: 'good', models: MODEL })
})
afterEach(() => upstream.restore())

const chat = (extra: Record<string, unknown> = {}) => ({ model: MODEL, messages: [{ role: 'user', content: 'cache me' }], ...extra })

async function cachingKey() {
  const user = await createUser({ quota: 1_000_000 })
  return { user, key: (await createToken(user.id, { chatCache: true })).key }
}

/** The text and usage a chat chunk stream carried, and whether it ended with [DONE]. */
function readStream(text: string) {
  const data = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6))
  const chunks = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d))
  return {
    content: chunks.flatMap((c) => c.choices.map((ch: any) => ch.delta?.content ?? '')).join(''),
    finish: chunks.flatMap((c) => c.choices.map((ch: any) => ch.finish_reason)).filter(Boolean),
    usage: chunks.find((c) => c.usage)?.usage,
    done: data.at(-1) === '[DONE]',
  }
}

const hitRows = (userId: number) => env.DB.prepare("SELECT quota FROM logs WHERE user_id = ? AND content LIKE '%response cache%'").bind(userId).all<{ quota: number }>()

describe('response cache', () => {
  it('replays a plain answer to a streamed request, with usage, in the OpenAI and Anthropic formats', async () => {
    const { user, key } = await cachingKey()
    expect((await send('/v1/chat/completions', { key, json: chat() })).status).toBe(200)
    const streamed = await send('/v1/chat/completions', { key, json: chat({ stream: true, stream_options: { include_usage: true } }) })
    expect(streamed.status).toBe(200)
    expect(streamed.headers.get('content-type')).toContain('text/event-stream')
    expect(streamed.headers.get('x-cache')).toBe('HIT')
    expect(readStream(streamed.text)).toEqual({ content: REPLY, finish: ['stop'], usage: USAGE, done: true })

    const anthropic = await send('/v1/messages', { key, json: { model: MODEL, max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'cache me' }] } })
    expect(anthropic.status).toBe(200)
    const deltas = anthropic.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)))
      .filter((e) => e.type === 'content_block_delta')
    expect(deltas.map((e) => e.delta.text).join('')).toBe(REPLY)

    expect(upstream.calls).toHaveLength(1)
    // The wallet writes its rows behind: ledger() flushes them first.
    const l = await ledger(user.id)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
    expect((await hitRows(user.id)).results.map((r) => r.quota)).toEqual([0, 0])
  })

  it('stores a completed streamed answer and replays it to a plain request', async () => {
    const { key } = await cachingKey()
    const first = await send('/v1/chat/completions', { key, json: chat({ stream: true }) })
    expect(readStream(first.text).content).toBe(REPLY)
    const plain = await send('/v1/chat/completions', { key, json: chat() })
    expect(plain.headers.get('x-cache')).toBe('HIT')
    expect(plain.json.choices[0]).toMatchObject({ message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' })
    expect(plain.json.usage).toEqual(USAGE)
    expect(upstream.calls).toHaveLength(1)
  })

  it('does not store the stream of a request with tools (its text may not be the whole answer)', async () => {
    const { key } = await cachingKey()
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }]
    await send('/v1/chat/completions', { key, json: chat({ stream: true, tools }) })
    await send('/v1/chat/completions', { key, json: chat({ stream: true, tools }) })
    expect(upstream.calls).toHaveLength(2)
  })

  it('x-gateway-cache: off reads and stores nothing; refresh skips the read and stores the new answer', async () => {
    const { key } = await cachingKey()
    await send('/v1/chat/completions', { key, json: chat(), headers: { 'x-gateway-cache': 'off' } })
    await send('/v1/chat/completions', { key, json: chat(), headers: { 'x-gateway-cache': 'off' } })
    expect(upstream.calls).toHaveLength(2)
    const refreshed = await send('/v1/chat/completions', { key, json: chat(), headers: { 'x-gateway-cache': 'refresh' } })
    expect(refreshed.headers.get('x-cache')).toBeNull()
    expect(upstream.calls).toHaveLength(3)
    expect((await send('/v1/chat/completions', { key, json: chat() })).headers.get('x-cache')).toBe('HIT')
    expect(upstream.calls).toHaveLength(3)
  })

  it('caches embeddings too, keyed apart from chat', async () => {
    await setPrice('cache-embed', 0.01, 0)
    await createChannel({ key: 'good', models: 'cache-embed' })
    const { key } = await cachingKey()
    const body = { model: 'cache-embed', input: 'hello' }
    const first = await send('/v1/embeddings', { key, json: body })
    const second = await send('/v1/embeddings', { key, json: body })
    expect(second.headers.get('x-cache')).toBe('HIT')
    expect(second.json).toEqual(first.json)
    expect(upstream.calls).toHaveLength(1)
  })

  it('bills a hit at ChatCacheHitRatio of the answer’s cost, exactly, and logs what it saved', async () => {
    await setOptions({ ChatCacheHitRatio: '0.25' })
    const { user, key } = await cachingKey()
    await send('/v1/chat/completions', { key, json: chat() })
    const hit = await send('/v1/chat/completions', { key, json: chat() })
    expect(hit.headers.get('x-cache')).toBe('HIT')
    const l = await ledger(user.id)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
    const { results } = await env.DB.prepare('SELECT quota, metadata FROM logs WHERE user_id = ? AND type = 2 ORDER BY id').bind(user.id).all<{ quota: number; metadata: string }>()
    const [paid, cached] = results
    expect(paid!.quota).toBeGreaterThan(0)
    expect(cached!.quota).toBe(Math.round(paid!.quota * 0.25))
    expect(JSON.parse(cached!.metadata)).toMatchObject({ cache_hit: true, saved_quota: paid!.quota - cached!.quota })
    expect(upstream.calls).toHaveLength(1)
  })

  it('refuses a billed hit the balance cannot pay, and changes nothing', async () => {
    await setOptions({ ChatCacheHitRatio: '1' })
    // What one answer costs, learnt from another user.
    const probe = await cachingKey()
    await send('/v1/chat/completions', { key: probe.key, json: chat() })
    const cost = (await ledger(probe.user.id)).loggedQuota
    expect(cost).toBeGreaterThan(1)
    // Enough for one answer and half of another: the hit at full price does not fit.
    const user = await createUser({ quota: cost + Math.floor(cost / 2) })
    const key = (await createToken(user.id, { chatCache: true })).key
    expect((await send('/v1/chat/completions', { key, json: chat() })).status).toBe(200)
    const before = await ledger(user.id)
    const refused = await send('/v1/chat/completions', { key, json: chat() })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(refused.json.error).toBeDefined()
    const after = await ledger(user.id)
    expect(after.quota).toBe(before.quota)
    expect(after.consumeLogs).toBe(before.consumeLogs)
    expect(upstream.calls).toHaveLength(2)
  })

  it('checks the ratio: between 0 and 1', () => {
    expect(checkOptionValue('ChatCacheHitRatio', '0.5').ok).toBe(true)
    expect(checkOptionValue('ChatCacheHitRatio', '1.5').ok).toBe(false)
    expect(checkOptionValue('ChatCacheHitRatio', '-0.1').ok).toBe(false)
  })
})
