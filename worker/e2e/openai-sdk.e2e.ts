/**
 * The official `openai` SDK against the running gateway (bundled Worker on workerd) and the mock
 * upstream: chat (plain, stream, tools), embeddings, the model list, and the SDK's error classes.
 */
import OpenAI from 'openai'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

beforeAll(async () => {
  fixture = await relayFixture({ username: 'sdkuser' })
  await fixture.root.call('POST', '/api/prices/single', { model: 'text-embedding-3-small', type: 'tokens', channel_type: 1, input: 0.01, output: 0 })
  await fixture.root.ok('POST', '/api/channel/', {
    type: 1,
    name: 'mock-embeddings',
    key: 'sk-mock-embed',
    base_url: inject('mockUrl'),
    models: ['text-embedding-3-small'],
    group: ['default'],
  })
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

describe('official openai SDK', () => {
  it('chats without streaming', async () => {
    const res = await client.chat.completions.create({ model: fixture.model, messages: [{ role: 'user', content: 'Hello there gateway' }] })
    expect(res.choices[0]!.message.content).toContain('mock upstream')
    expect(res.usage!.total_tokens).toBeGreaterThan(0)
  })

  it('streams token by token with usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: fixture.model,
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    const pieces: string[] = []
    let usage: OpenAI.CompletionUsage | undefined
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) pieces.push(chunk.choices[0].delta.content)
      if (chunk.usage) usage = chunk.usage
    }
    expect(pieces.length).toBeGreaterThan(3)
    expect(pieces.join('')).toContain('mock upstream')
    expect(usage!.completion_tokens).toBeGreaterThan(0)
  })

  it('returns tool calls', async () => {
    const res = await client.chat.completions.create({
      model: fixture.model,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
    })
    const call = res.choices[0]!.message.tool_calls![0]!
    expect(call.type === 'function' && call.function.name).toBe('get_weather')
  })

  it('streams tool calls', async () => {
    const stream = await client.chat.completions.create({
      model: fixture.model,
      stream: true,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
    })
    let args = ''
    for await (const chunk of stream) args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? ''
    expect(JSON.parse(args)).toEqual({ city: 'Paris' })
  })

  it('creates embeddings', async () => {
    const res = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello world' })
    expect(res.data[0]!.embedding).toHaveLength(4)
  })

  it('lists the models the key may use', async () => {
    const ids = (await client.models.list()).data.map((m) => m.id)
    expect(ids).toEqual(expect.arrayContaining([fixture.model, 'text-embedding-3-small']))
  })

  it('raises the right error classes: 401, 403, 429, 503', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
    await expect(wrong.chat.completions.create({ model: fixture.model, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)

    const limited = await fixture.user.ok<{ key: string }>('POST', '/api/token/', {
      name: 'limited',
      unlimited_quota: true,
      setting: { limits: { limit_model_setting: { enabled: true, models: ['other-model'] } } },
    })
    const limitedClient = new OpenAI({ apiKey: limited.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
    await expect(limitedClient.chat.completions.create({ model: fixture.model, messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError)

    const poor = await fixture.user.ok<{ key: string }>('POST', '/api/token/', { name: 'poor', unlimited_quota: false, remain_quota: 1 })
    const poorClient = new OpenAI({ apiKey: poor.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
    // With max_tokens the worst case must fit (without it the answer would be capped at what the unit pays).
    const err = await poorClient.chat.completions.create({ model: fixture.model, messages: [{ role: 'user', content: 'x' }], max_tokens: 100 }).catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.RateLimitError)
    expect(err.code).toBe('insufficient_quota')

    const missing = await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e)
    expect(missing).toBeInstanceOf(OpenAI.InternalServerError)
    expect(missing.status).toBe(503)
  })
})
