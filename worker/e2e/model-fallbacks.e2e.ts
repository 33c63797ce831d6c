/**
 * Cross-model fallbacks with the official `openai` SDK against the running gateway: a model whose
 * only channel fails (the mock supplier's `mock-500` key) is answered by its fallback from root's
 * ModelFallbacks setting — the answer names the fallback, the consume row records `fallback_from`
 * and is billed at the fallback's price, and the balance moves by exactly the logged quota. The
 * models are unique to this file and the setting is put back afterwards.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

const BROKEN = 'fallback-e2e-broken'
const TARGET = 'fallback-e2e-target'
const TARGET_KEY = 'sk-mock-fallback-e2e'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

const targetCalls = async () => {
  const stats = (await (await fetch(`${inject('mockUrl')}/__stats`)).json()) as Record<string, number>
  return Object.entries(stats)
    .filter(([k]) => k.startsWith(`${TARGET_KEY} `))
    .reduce((sum, [, n]) => sum + n, 0)
}

beforeAll(async () => {
  fixture = await relayFixture({ username: `fallback${Date.now().toString(36)}`, model: TARGET, channelKey: TARGET_KEY, price: { input: 3, output: 5 } })
  await fixture.root.ok('POST', '/api/prices/single', { model: BROKEN, type: 'tokens', channel_type: 1, input: 1, output: 1 })
  await fixture.root.ok('POST', '/api/channel/', {
    type: 8,
    name: `mock-broken-fallback-${Date.now()}`,
    key: 'mock-500',
    base_url: inject('mockUrl'),
    models: [BROKEN],
    group: ['default'],
    test_model: BROKEN,
  })
  await fixture.root.ok('PUT', '/api/option/', { key: 'ModelFallbacks', value: JSON.stringify({ [BROKEN]: [TARGET] }) })
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

afterAll(async () => {
  await fixture?.root.call('PUT', '/api/option/', { key: 'ModelFallbacks', value: '{}' })
})

describe('model fallbacks with the official openai SDK', () => {
  it('a model whose only channel fails is answered by its fallback, billed at the fallback’s price', async () => {
    const start = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
    const before = await targetCalls()
    const answer = await client.chat.completions.create({ model: BROKEN, messages: [{ role: 'user', content: 'Hello fallback' }], max_tokens: 16 })
    expect(answer.model).toBe(TARGET)
    expect(answer.choices[0]!.message.content).toContain('mock upstream')
    expect(await targetCalls()).toBe(before + 1)
    await expectBalanceMatchesLogs(fixture.user, start, 1)
    const logs = await fixture.user.ok<{ data: { model_name: string; metadata: Record<string, unknown> | null }[] }>('GET', '/api/log/self?type=2&page_size=10')
    expect(logs.data[0]).toMatchObject({ model_name: TARGET, metadata: { fallback_from: BROKEN, billed_model: TARGET, input_ratio: 3, output_ratio: 5 } })
  })
})
