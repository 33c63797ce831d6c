/**
 * POST /v1/messages and /v1/messages/count_tokens through the real relay (fetch-level upstream
 * mock): conversion to OpenAI and Anthropic channels, stream event order, tools, Anthropic error
 * envelopes, and the balance moving by exactly the logged quota with the inbound format logged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../../index'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../../../test/factories'
import { mockUpstream, REPLY, USAGE } from '../../../test/upstream-mock'
import { decodeSse } from '../../../test/stream-harness'
import toolStream from '../../../providers/anthropic/__fixtures__/message-tools.sse?raw'

let upstream: ReturnType<typeof mockUpstream>
afterEach(() => upstream.restore())

const QUOTA = 1_000_000
async function customer(quota = QUOTA) {
  const user = await createUser({ quota })
  const token = await createToken(user.id)
  return { user, token }
}
const anthropicHeaders = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31' })
const messages = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o', max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }], ...extra })
const post = (key: string, json: unknown, path = '/v1/messages') => send(path, { headers: anthropicHeaders(key), json })

async function expectBalanceMatchesLog(userId: number, logs: number) {
  const l = await ledger(userId)
  expect(l.consumeLogs).toBe(logs)
  expect(QUOTA - l.quota).toBe(l.loggedQuota)
  return l
}

const WEATHER_TOOL = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }

describe('/v1/messages on an OpenAI channel', () => {
  beforeEach(async () => {
    upstream = mockUpstream((req, body) => {
      if (!req.url.endsWith('/chat/completions') || !body.tools) return undefined
      const message = { role: 'assistant', content: null, tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }
      return Response.json({
        id: 'chatcmpl-t',
        object: 'chat.completion',
        created: 1,
        model: body.model,
        choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
        usage: USAGE,
      })
    })
    await setPrice('gpt-4o', 2, 4)
    await createChannel({ key: 'good' })
  })

  it('answers a Message, converts system/stop/top_k and bills exactly like chat, logging the format', async () => {
    const { user, token } = await customer()
    const res = await post(
      token.key,
      messages({ system: [{ type: 'text', text: 'Be brief.' }], stop_sequences: ['END'], top_k: 5, temperature: 0.5, metadata: { user_id: 'u-1' } })
    )
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [{ type: 'text', text: REPLY }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens },
    })
    expect(res.json.id).toMatch(/^msg_/)
    expect(upstream.calls[0]!.body).toMatchObject({
      model: 'gpt-4o',
      max_tokens: 256,
      stop: ['END'],
      top_k: 5,
      temperature: 0.5,
      user: 'u-1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    })
    const l = await expectBalanceMatchesLog(user.id, 1)
    expect(l.loggedQuota).toBe(USAGE.prompt_tokens * 2 + USAGE.completion_tokens * 4)
    const log = await env.DB.prepare('SELECT metadata, is_stream FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(JSON.parse(log.metadata).inbound_format).toBe('anthropic')
  })

  it('streams Anthropic events in order with usage in message_delta', async () => {
    const { user, token } = await customer()
    const res = await post(token.key, messages({ stream: true }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    const events = decodeSse(res.text)
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array(5).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    for (const e of events) expect(JSON.parse(e.data).type).toBe(e.event)
    const text = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => JSON.parse(e.data).delta.text)
      .join('')
    expect(text).toBe(REPLY)
    expect(JSON.parse(events.at(-2)!.data)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens },
    })
    expect(upstream.calls[0]!.body.stream_options).toEqual({ include_usage: true })
    expect(res.text).not.toContain('[DONE]')
    await expectBalanceMatchesLog(user.id, 1)
  })

  it('settles what was generated when the client cancels the converted stream, leaving nothing reserved', async () => {
    const { user, token } = await customer()
    const ctx = createExecutionContext()
    const res = await worker.fetch(
      new Request('http://gateway.test/v1/messages', {
        method: 'POST',
        headers: { ...anthropicHeaders(token.key), 'content-type': 'application/json' },
        body: JSON.stringify(messages({ stream: true })),
      }),
      env,
      ctx
    )
    const reader = res.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: message_start')
    await reader.cancel('client went away')
    await waitOnExecutionContext(ctx)
    const l = await expectBalanceMatchesLog(user.id, 1)
    expect(l.loggedQuota).toBeGreaterThan(0)
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
    const log = await env.DB.prepare('SELECT content FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<{ content: string }>()
    expect(log!.content).toContain('client disconnected')
  })

  it('round-trips tools: tool_use out, tool_result back in as a tool message', async () => {
    const { user, token } = await customer()
    const first = await post(token.key, messages({ tools: [WEATHER_TOOL], tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true } }))
    expect(first.status).toBe(200)
    expect(first.json.stop_reason).toBe('tool_use')
    expect(first.json.content).toEqual([{ type: 'tool_use', id: 'call_w1', name: 'get_weather', input: { city: 'Paris' } }])
    expect(upstream.calls[0]!.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER_TOOL.input_schema } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    })
    const second = await post(
      token.key,
      messages({
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: first.json.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w1', content: [{ type: 'text', text: '18°C' }] }] },
        ],
      })
    )
    expect(second.status).toBe(200)
    expect(second.json.content[0].text).toBe(REPLY)
    expect(upstream.calls[1]!.body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_w1', content: '18°C' },
    ])
    await expectBalanceMatchesLog(user.id, 2)
  })

  it('counts tokens without billing', async () => {
    const { user, token } = await customer()
    const res = await post(
      token.key,
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'How many tokens is this sentence?' }], tools: [WEATHER_TOOL] },
      '/v1/messages/count_tokens'
    )
    expect(res.status).toBe(200)
    expect(res.json.input_tokens).toBeGreaterThan(5)
    expect(upstream.calls).toHaveLength(0)
    const l = await ledger(user.id)
    expect(l.quota).toBe(QUOTA)
  })
})

describe('/v1/messages errors in the Anthropic envelope', () => {
  beforeEach(async () => {
    upstream = mockUpstream()
    await setPrice('gpt-4o', 2, 4)
  })

  it.each([
    ['a missing key', 401, 'authentication_error', (_k: string) => ({ headers: { 'anthropic-version': '2023-06-01' }, json: messages() })],
    [
      'a missing max_tokens',
      400,
      'invalid_request_error',
      (k: string) => ({ headers: anthropicHeaders(k), json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] } }),
    ],
    ['temperature 1.5', 400, 'invalid_request_error', (k: string) => ({ headers: anthropicHeaders(k), json: messages({ temperature: 1.5 }) })],
    ['an unknown model', 503, 'overloaded_error', (k: string) => ({ headers: anthropicHeaders(k), json: messages({ model: 'nope' }) })],
    ['a body that is not JSON', 400, 'invalid_request_error', (k: string) => ({ headers: { ...anthropicHeaders(k), 'content-type': 'application/json' }, body: '{' })],
  ])('renders %s as %d %s', async (_name, status, type, init) => {
    await createChannel({ key: 'good' })
    const { user, token } = await customer()
    const res = await send('/v1/messages', init(token.key))
    expect(res.status).toBe(status)
    expect(res.json).toMatchObject({ type: 'error', error: { type } })
    expect(typeof res.json.error.message).toBe('string')
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })

  it('renders a too-small balance as 429 rate_limit_error and an upstream failure as 502 api_error, refunding both', async () => {
    await createChannel({ key: 'mock-500' })
    const poor = await customer(1)
    const refused = await post(poor.token.key, messages())
    expect(refused.status).toBe(429)
    expect(refused.json.error.type).toBe('rate_limit_error')
    const { user, token } = await customer()
    const failed = await post(token.key, messages())
    expect(failed.status).toBe(502)
    expect(failed.json).toMatchObject({ type: 'error', error: { type: 'api_error' } })
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })
})

describe('/v1/messages on an Anthropic channel', () => {
  const answer = {
    id: 'msg_01Native',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: [{ type: 'text', text: 'Bonjour.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 0 },
  }
  beforeEach(async () => {
    upstream = mockUpstream((req, body) => {
      if (new URL(req.url).pathname !== '/v1/messages') return undefined
      if (body.stream) return new Response(toolStream, { headers: { 'content-type': 'text/event-stream' } })
      return Response.json(answer)
    })
    await setPrice('claude-sonnet-4-5', 3, 15)
    await createChannel({ key: 'sk-ant-good', type: 14, models: 'claude-sonnet-4-5' })
  })

  it('passes the body through natively (images, stop sequences, thinking, beta header) and bills cache reads like chat', async () => {
    const { user, token } = await customer()
    const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
    const res = await post(
      token.key,
      messages({
        model: 'claude-sonnet-4-5',
        system: 'Answer in French.',
        stop_sequences: ['###'],
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Describe' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
            ],
          },
        ],
      })
    )
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      id: 'msg_01Native',
      content: [{ type: 'text', text: 'Bonjour.' }],
      usage: { input_tokens: 20, output_tokens: 5, cache_read_input_tokens: 100 },
    })
    expect(res.json).toEqual(answer)
    expect(upstream.calls[0]!.body).toEqual({
      model: 'claude-sonnet-4-5',
      system: 'Answer in French.',
      stop_sequences: ['###'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      max_tokens: 256,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          ],
        },
      ],
    })
    const l = await expectBalanceMatchesLog(user.id, 1)
    const log = await env.DB.prepare('SELECT prompt_tokens, completion_tokens, metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(log).toMatchObject({ prompt_tokens: 120, completion_tokens: 5 })
    expect(JSON.parse(log.metadata)).toMatchObject({ inbound_format: 'anthropic', quota: l.loggedQuota })
  })

  it("streams the channel's own events unchanged and bills their usage", async () => {
    const { user, token } = await customer()
    const res = await send('/v1/messages', {
      headers: { ...anthropicHeaders(token.key), 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      json: messages({ model: 'claude-sonnet-4-5', stream: true }),
    })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body).toMatchObject({ stream: true, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] })
    expect(upstream.calls[0]!.body).not.toHaveProperty('stream_options')
    const sent = decodeSse(toolStream).map((e) => [e.event, JSON.parse(e.data)])
    expect(decodeSse(res.text).map((e) => [e.event, JSON.parse(e.data)])).toEqual(sent)
    const l = await expectBalanceMatchesLog(user.id, 1)
    const log = await env.DB.prepare('SELECT prompt_tokens, completion_tokens FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(log).toEqual({ prompt_tokens: 472 + 2048 + 1536, completion_tokens: 142 })
    expect(l.loggedQuota).toBeGreaterThan(0)
  })

  it('falls back to conversion when the Anthropic channel fails and an OpenAI channel answers', async () => {
    upstream.restore()
    upstream = mockUpstream((req) =>
      new URL(req.url).pathname === '/v1/messages' ? Response.json({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, { status: 529 }) : undefined
    )
    await createChannel({ key: 'good', models: 'claude-sonnet-4-5', priority: -1 })
    await setOptions({ RetryTimes: '1' })
    const { user, token } = await customer()
    const res = await post(token.key, messages({ model: 'claude-sonnet-4-5', stream: true }))
    expect(res.status).toBe(200)
    const events = decodeSse(res.text)
    expect(events[0]!.event).toBe('message_start')
    expect(events.at(-1)!.event).toBe('message_stop')
    expect(upstream.calls.map((c) => new URL(c.url).pathname)).toEqual(['/v1/messages', '/v1/chat/completions'])
    await expectBalanceMatchesLog(user.id, 1)
  })
})
