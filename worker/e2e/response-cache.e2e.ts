/**
 * The response cache with the official `openai` SDK against the running gateway: a streamed chat
 * request repeated with a caching key is replayed from the cache as a stream — same text, usage
 * chunk, `x-cache: HIT` — without reaching the supplier (the mock's per-key call count), and the
 * hit is billed at ChatCacheHitRatio of the first answer's cost with `cache_hit`/`saved_quota` in
 * its log row; the balance moves by exactly the logged quota. The model and supplier key are unique
 * to this file and the settings are put back afterwards.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

const MODEL = 'cache-e2e-model'
const CHANNEL_KEY = 'sk-mock-cache-e2e'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

const supplierCalls = async () => {
  const stats = (await (await fetch(`${inject('mockUrl')}/__stats`)).json()) as Record<string, number>
  return Object.entries(stats)
    .filter(([k]) => k.startsWith(`${CHANNEL_KEY} `))
    .reduce((sum, [, n]) => sum + n, 0)
}

/** One streamed request: the text, the usage chunk and the x-cache header. */
async function streamOnce() {
  const { data: stream, response } = await client.chat.completions
    .create({ model: MODEL, messages: [{ role: 'user', content: 'Cache this streamed answer' }], temperature: 0, stream: true, stream_options: { include_usage: true } })
    .withResponse()
  let text = ''
  let usage: OpenAI.CompletionUsage | undefined
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? ''
    if (chunk.usage) usage = chunk.usage
  }
  return { text, usage, cache: response.headers.get('x-cache') }
}

beforeAll(async () => {
  fixture = await relayFixture({ username: `cache${Date.now().toString(36)}`, model: MODEL, channelKey: CHANNEL_KEY, price: { input: 2, output: 4 } })
  await fixture.root.ok('PUT', '/api/option/', { key: 'ChatCacheEnabled', value: 'true' })
  await fixture.root.ok('PUT', '/api/option/', { key: 'ChatCacheHitRatio', value: '0.5' })
  const key = await fixture.user.ok<{ key: string }>('POST', '/api/token/', { name: 'caching key', unlimited_quota: true, chat_cache: true })
  client = new OpenAI({ apiKey: key.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

afterAll(async () => {
  await fixture?.root.call('PUT', '/api/option/', { key: 'ChatCacheEnabled', value: 'false' })
  await fixture?.root.call('PUT', '/api/option/', { key: 'ChatCacheHitRatio', value: '0' })
})

describe('response cache with the official openai SDK', () => {
  it('replays a repeated streamed request from the cache without the supplier, billed at the hit ratio', async () => {
    const start = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
    const before = await supplierCalls()
    const first = await streamOnce()
    expect(first.text).toContain('mock upstream')
    expect(first.cache).not.toBe('HIT')
    // The answer is stored right after its settle; its log row is written behind the wallet later.
    await expectBalanceMatchesLogs(fixture.user, start, 1)

    const second = await streamOnce()
    expect(second.cache).toBe('HIT')
    expect(second.text).toBe(first.text)
    expect(second.usage).toMatchObject({ prompt_tokens: first.usage?.prompt_tokens, completion_tokens: first.usage?.completion_tokens })
    expect(await supplierCalls()).toBe(before + 1)

    await expectBalanceMatchesLogs(fixture.user, start, 2)
    const logs = await fixture.user.ok<{ data: { quota: number; metadata: Record<string, unknown> | null }[] }>('GET', '/api/log/self?type=2&page_size=10')
    const [hit, paid] = logs.data
    expect(paid!.quota).toBeGreaterThan(0)
    expect(hit!.quota).toBe(Math.round(paid!.quota * 0.5))
    expect(hit!.metadata).toMatchObject({ cache_hit: true, saved_quota: paid!.quota - hit!.quota })
  })
})
