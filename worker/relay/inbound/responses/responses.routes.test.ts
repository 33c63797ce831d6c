/**
 * POST/GET/DELETE /v1/responses through the real relay (fetch-level upstream mock): conversion to
 * chat, the stream's event order, function tools, stored responses and previous_response_id, the
 * OpenAI error envelope, and the balance moving by exactly the logged quota with the format logged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../../../test/factories'
import { mockUpstream, REPLY, USAGE } from '../../../test/upstream-mock'
import { decodeSse } from '../../../test/stream-harness'
import { routingSnapshot } from '../../../channels/routing-table'

let upstream: ReturnType<typeof mockUpstream>
const QUOTA = 1_000_000

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
  // Custom (OpenAI-compatible) channels convert through chat; OpenAI channels (type 1) pass through below.
  await createChannel({ key: 'good', type: 8 })
})
afterEach(() => upstream.restore())

async function customer() {
  const user = await createUser({ quota: QUOTA })
  const token = await createToken(user.id)
  return { user, token }
}
const TOOL = { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }

describe('/v1/responses', () => {
  it('answers a Response from instructions and a string input, billed like chat with the format logged', async () => {
    const { user, token } = await customer()
    const res = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', instructions: 'Be brief.', input: 'Say hello', max_output_tokens: 100, temperature: 0.3 } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      instructions: 'Be brief.',
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: REPLY, annotations: [] }] }],
      usage: { input_tokens: 12, output_tokens: 7, total_tokens: 19 },
    })
    expect(res.json.id).toMatch(/^resp_/)
    expect(res.json.output[0].id).toMatch(/^msg_/)
    expect(upstream.calls[0]!.body).toMatchObject({
      model: 'gpt-4o',
      max_tokens: 100,
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    })
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(12 * 2 + 7 * 4)
    const log = await env.DB.prepare('SELECT metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(JSON.parse(log.metadata).inbound_format).toBe('responses')
  })

  it('streams the Responses events in order with usage in response.completed', async () => {
    const { user, token } = await customer()
    const res = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }], stream: true } })
    expect(res.status).toBe(200)
    const events = decodeSse(res.text)
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      ...Array(5).fill('response.output_text.delta'),
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ])
    const data = events.map((e) => JSON.parse(e.data))
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i))
    expect(data.at(-1).response).toMatchObject({ status: 'completed', usage: { input_tokens: 12, output_tokens: 7 }, output: [{ content: [{ text: REPLY }] }] })
    const l = await ledger(user.id)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    expect(l.consumeLogs).toBe(1)
  })

  it('returns function calls and takes function_call_output back', async () => {
    const { token } = await customer()
    const first = await send('/v1/responses', {
      key: token.key,
      json: { model: 'gpt-4o', input: 'Weather?', tools: [TOOL], tool_choice: { type: 'function', name: 'get_weather' }, store: false },
    })
    expect(first.json.output).toEqual([
      { id: expect.stringMatching(/^fc_/), type: 'function_call', status: 'completed', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ])
    expect(upstream.calls[0]!.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: TOOL.parameters } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    })
    const second = await send('/v1/responses', {
      key: token.key,
      json: { model: 'gpt-4o', input: [{ role: 'user', content: 'Weather?' }, first.json.output[0], { type: 'function_call_output', call_id: 'call_w1', output: '18°C' }] },
    })
    expect(second.status).toBe(200)
    expect(upstream.calls[1]!.body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_w1', content: '18°C' },
    ])
    // store: false kept the first one out of storage.
    expect((await send(`/v1/responses/${first.json.id}`, { key: token.key })).status).toBe(404)
  })

  it('stores responses for their owner: GET, previous_response_id, DELETE', async () => {
    const { token } = await customer()
    const first = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', instructions: 'Be brief.', input: 'My name is Ada.' } })
    const got = await send(`/v1/responses/${first.json.id}`, { key: token.key })
    expect(got.status).toBe(200)
    expect(got.json).toEqual(first.json)
    const other = await customer()
    expect((await send(`/v1/responses/${first.json.id}`, { key: other.token.key })).status).toBe(404)

    const next = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'What is my name?', previous_response_id: first.json.id } })
    expect(next.status).toBe(200)
    expect(next.json.previous_response_id).toBe(first.json.id)
    expect(upstream.calls[1]!.body.messages).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: REPLY },
      { role: 'user', content: 'What is my name?' },
    ])
    const deleted = await send(`/v1/responses/${first.json.id}`, { key: token.key, method: 'DELETE' })
    expect(deleted.json).toEqual({ id: first.json.id, object: 'response', deleted: true })
    const gone = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'x', previous_response_id: first.json.id } })
    expect(gone.status).toBe(404)
    expect(gone.json.error.code).toBe('response_not_found')
  })

  it.each([
    ['no input', { model: 'gpt-4o' }],
    ['a built-in tool', { model: 'gpt-4o', input: 'x', tools: [{ type: 'web_search_preview' }] }],
    ['temperature 3', { model: 'gpt-4o', input: 'x', temperature: 3 }],
    ['a max_output_tokens beyond any model', { model: 'gpt-4o', input: 'x', max_output_tokens: 1e20 }],
    ['an image by file_id', { model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }],
  ])('refuses %s with 400 in the OpenAI envelope and bills nothing', async (_name, json) => {
    const { user, token } = await customer()
    const res = await send('/v1/responses', { key: token.key, json })
    expect(res.status).toBe(400)
    expect(res.json.error.type).toBe('invalid_request_error')
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })
})

describe('/v1/responses on an OpenAI channel (native pass-through)', () => {
  const native = {
    id: 'resp_upstream1',
    object: 'response',
    created_at: 1764000000,
    status: 'completed',
    model: 'gpt-4o-2024-08-06',
    output: [{ id: 'msg_u1', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Native hello.', annotations: [] }] }],
    usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 10 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 35 },
  }
  const streamed = [
    { type: 'response.created', sequence_number: 0, response: { ...native, status: 'in_progress', output: [], usage: null } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { id: 'msg_u1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
    { type: 'response.output_text.delta', sequence_number: 2, item_id: 'msg_u1', output_index: 0, content_index: 0, delta: 'Native ' },
    { type: 'response.output_text.delta', sequence_number: 3, item_id: 'msg_u1', output_index: 0, content_index: 0, delta: 'hello.' },
    { type: 'response.completed', sequence_number: 4, response: native },
  ]
  beforeEach(async () => {
    upstream.restore()
    upstream = mockUpstream((req, body) => {
      if (new URL(req.url).pathname !== '/v1/responses') return undefined
      if (!body.stream) return Response.json(native)
      return new Response(streamed.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } })
    })
    await env.DB.prepare('UPDATE channels SET type = 1').run()
    await routingSnapshot.invalidate(env)
  })

  it('sends the request natively, inlines a stored conversation, returns and stores the native answer, bills its usage', async () => {
    const { user, token } = await customer()
    const first = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'My name is Ada.', include: ['reasoning.encrypted_content'], truncation: 'auto' } })
    expect(first.status).toBe(200)
    expect(first.json).toEqual(native)
    expect(upstream.calls[0]!.body).toMatchObject({ model: 'gpt-4o', input: 'My name is Ada.', include: ['reasoning.encrypted_content'], truncation: 'auto' })
    expect((await send('/v1/responses/resp_upstream1', { key: token.key })).json).toEqual(native)
    const next = await send('/v1/responses', {
      key: token.key,
      json: { model: 'gpt-4o', input: 'What is my name?', previous_response_id: 'resp_upstream1', max_output_tokens: 50 },
    })
    expect(next.status).toBe(200)
    expect(upstream.calls[1]!.body).not.toHaveProperty('previous_response_id')
    expect(upstream.calls[1]!.body).toMatchObject({
      max_output_tokens: 50,
      input: [
        { role: 'user', content: 'My name is Ada.' },
        { role: 'assistant', content: 'Native hello.' },
        { role: 'user', content: 'What is my name?' },
      ],
    })
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    const log = await env.DB.prepare('SELECT prompt_tokens, completion_tokens FROM logs WHERE user_id = ? AND type = 2 LIMIT 1').bind(user.id).first<any>()
    expect(log).toEqual({ prompt_tokens: 30, completion_tokens: 5 })
  })

  it("streams the channel's own events unchanged and bills the completed usage", async () => {
    const { user, token } = await customer()
    const res = await send('/v1/responses', { key: token.key, json: { model: 'gpt-4o', input: 'Hi', stream: true } })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body).toMatchObject({ stream: true })
    expect(upstream.calls[0]!.body).not.toHaveProperty('stream_options')
    expect(decodeSse(res.text).map((e) => JSON.parse(e.data))).toEqual(streamed)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(30 * 2 + 5 * 4)
    expect((await send('/v1/responses/resp_upstream1', { key: token.key })).json).toEqual(native)
  })
})
