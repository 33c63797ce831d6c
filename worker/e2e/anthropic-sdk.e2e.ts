/**
 * The official `@anthropic-ai/sdk` against the running gateway and the mock upstream, on an
 * OpenAI-type channel (converted through chat) and on an Anthropic-type channel: messages.create,
 * .stream() with finalMessage(), a tools round trip, countTokens, and the SDK's own error classes.
 * The balance moves by exactly the logged quota.
 */
import Anthropic from '@anthropic-ai/sdk'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

const CLAUDE = 'claude-mock-e2e'
const QUOTA = 5_000_000
let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: Anthropic
let startQuota = 0

beforeAll(async () => {
  fixture = await relayFixture({ username: `anth${Date.now().toString(36)}`, quota: QUOTA })
  await fixture.root.call('POST', '/api/prices/single', { model: CLAUDE, type: 'tokens', channel_type: 14, input: 1.5, output: 7.5 })
  await fixture.root.ok('POST', '/api/channel/', {
    type: 14,
    name: `mock-claude-${Date.now()}`,
    key: 'sk-ant-mock-e2e',
    base_url: inject('mockUrl'),
    models: [CLAUDE],
    group: ['default'],
  })
  client = new Anthropic({ apiKey: fixture.token.key, baseURL: inject('gatewayUrl'), maxRetries: 0 })
  startQuota = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
})

const weather: Anthropic.Tool = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }

describe.each([
  ['an OpenAI-type channel', () => fixture.model],
  ['an Anthropic-type channel', () => CLAUDE],
])('official @anthropic-ai/sdk on %s', (_name, model) => {
  it('creates a message', async () => {
    const msg = await client.messages.create({ model: model(), max_tokens: 200, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there gateway' }] })
    expect(msg.type).toBe('message')
    expect(msg.content[0]!.type === 'text' && msg.content[0]!.text).toContain('mock upstream')
    expect(msg.stop_reason).toBe('end_turn')
    expect(msg.usage.output_tokens).toBeGreaterThan(0)
  })

  it('streams with .stream() and finalMessage()', async () => {
    const stream = client.messages.stream({ model: model(), max_tokens: 200, messages: [{ role: 'user', content: 'Stream please' }] })
    const pieces: string[] = []
    const events: string[] = []
    stream.on('text', (t) => pieces.push(t))
    stream.on('streamEvent', (e) => events.push(e.type))
    const final = await stream.finalMessage()
    expect(pieces.length).toBeGreaterThan(3)
    expect(pieces.join('')).toContain('mock upstream')
    expect(final.content[0]!.type === 'text' && final.content[0]!.text).toBe(pieces.join(''))
    expect(events.slice(0, 3)).toEqual(['message_start', 'content_block_start', expect.stringMatching(/^(ping|content_block_delta)$/)])
    expect(events.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop'])
    expect(final.usage.output_tokens).toBeGreaterThan(0)
    expect(final.stop_reason).toBe('end_turn')
  })

  it('round-trips a tool call, streamed and not', async () => {
    const first = await client.messages.create({ model: model(), max_tokens: 200, tools: [weather], messages: [{ role: 'user', content: 'Weather in Paris?' }] })
    expect(first.stop_reason).toBe('tool_use')
    const use = first.content.find((b) => b.type === 'tool_use')!
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } })
    const streamed = await client.messages.stream({ model: model(), max_tokens: 200, tools: [weather], messages: [{ role: 'user', content: 'Weather in Paris?' }] }).finalMessage()
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } })
    const second = await client.messages.create({
      model: model(),
      max_tokens: 200,
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.type === 'tool_use' ? use.id : '', content: '18°C and sunny' }] },
      ],
    })
    expect(second.content[0]!.type).toBe('text')
  })

  it('counts tokens', async () => {
    const counted = await client.messages.countTokens({ model: model(), messages: [{ role: 'user', content: 'How many tokens is this?' }] })
    expect(counted.input_tokens).toBeGreaterThan(3)
  })
})

describe('Anthropic SDK errors and billing', () => {
  it('raises AuthenticationError, RateLimitError and InternalServerError with Anthropic error types', async () => {
    const wrong = new Anthropic({ apiKey: 'sk-wrong', baseURL: inject('gatewayUrl'), maxRetries: 0 })
    const denied = await wrong.messages.create({ model: fixture.model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e)
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError)
    expect(denied.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } })

    const poor = await fixture.user.ok<{ key: string }>('POST', '/api/token/', { name: 'poor-anthropic', unlimited_quota: false, remain_quota: 1 })
    const poorClient = new Anthropic({ apiKey: poor.key, baseURL: inject('gatewayUrl'), maxRetries: 0 })
    const limited = await poorClient.messages.create({ model: fixture.model, max_tokens: 100, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e)
    expect(limited).toBeInstanceOf(Anthropic.RateLimitError)
    expect(limited.error.error.type).toBe('rate_limit_error')

    const overloaded = await client.messages.create({ model: 'no-such-model', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e)
    expect(overloaded).toBeInstanceOf(Anthropic.InternalServerError)
    expect(overloaded.error.error.type).toBe('overloaded_error')

    // An out-of-range temperature on purpose (this SDK's types no longer list the field).
    const outOfRange: Record<string, unknown> = { temperature: 3 }
    const invalid = await client.messages.create({ model: fixture.model, max_tokens: 10, messages: [{ role: 'user', content: 'x' }], ...outOfRange }).catch((e) => e)
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError)
  })

  it('moved the balance by exactly the logged quota', async () => {
    // 2 channels × (create + stream + 3 tool calls) = 10 billed requests; count_tokens and errors bill nothing.
    await expectBalanceMatchesLogs(fixture.user, startQuota, 10)
  })
})
