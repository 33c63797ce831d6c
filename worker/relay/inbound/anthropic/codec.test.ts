/** Anthropic Messages ↔ internal chat: request conversion and validation, answers, usage and error envelopes. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors'
import { anthropicCodec } from './codec'
import { chatMessages, countTokensSchema, parseMessages } from './request'
import fixture from './__fixtures__/messages-request.json'

const minimal = (extra: Record<string, unknown> = {}) => ({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra })
const refusal = (body: unknown) => {
  try {
    anthropicCodec().toOpenAI(body)
  } catch (err) {
    return err as ApiError
  }
  throw new Error('expected a refusal')
}

describe('Anthropic request → chat', () => {
  it('converts system, images, thinking history, tool_use and tool_result, tools and parameters', () => {
    expect(anthropicCodec().toOpenAI(fixture)).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      temperature: 0.2,
      top_k: 40,
      stop: ['\n\nHuman:', '###'],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather', parameters: fixture.tools[0]!.input_schema } }],
      tool_choice: 'required',
      messages: [
        { role: 'system', content: 'You are a weather bot. Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture, and the weather there?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQSkZJRg==' } },
            { type: 'image_url', image_url: { url: 'https://example.com/eiffel.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: 'That is the Eiffel Tower. ',
          tool_calls: [{ id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '18°C, sunny' },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01B', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'toolu_01B', content: 'Error: no forecast' },
      ],
    })
  })

  it('asks the relay for usage when streaming, and maps every tool_choice', () => {
    expect(anthropicCodec().toOpenAI(minimal({ stream: true }))).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    const tools = [{ name: 'f', input_schema: { type: 'object' } }]
    const choice = (tool_choice: unknown) => anthropicCodec().toOpenAI(minimal({ tools, tool_choice })).tool_choice
    expect(choice({ type: 'auto' })).toBe('auto')
    expect(choice({ type: 'none' })).toBe('none')
    expect(choice({ type: 'tool', name: 'f' })).toEqual({ type: 'function', function: { name: 'f' } })
    expect(refusal(minimal({ tools, tool_choice: { type: 'tool' } })).status).toBe(400)
  })

  it.each([
    ['no max_tokens', { model: 'm', messages: [{ role: 'user', content: 'x' }] }],
    ['an empty messages list', minimal({ messages: [] })],
    ['a system role in messages', minimal({ messages: [{ role: 'system', content: 'x' }] })],
    ['temperature above 1', minimal({ temperature: 1.01 })],
    ['a fractional max_tokens', minimal({ max_tokens: 1.5 })],
    ['a huge max_tokens', minimal({ max_tokens: 1e308 })],
    ['top_k below 0', minimal({ top_k: -1 })],
    ['a string temperature', minimal({ temperature: '0.5' })],
    ['an unknown block', minimal({ messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] })],
    ['a server tool without input_schema', minimal({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] })],
    ['a PDF document', minimal({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } }] }] })],
    ['only empty messages', minimal({ messages: [{ role: 'assistant', content: '' }] })],
  ])('refuses %s with 400', (_name, body) => {
    const err = refusal(body)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(400)
  })

  it('keeps a text document and lets count_tokens omit max_tokens', () => {
    const doc = minimal({ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'A memo.' } }] }] })
    expect((anthropicCodec().toOpenAI(doc).messages as unknown[])[0]).toEqual({ role: 'user', content: 'A memo.' })
    const req = parseMessages({ model: 'm', messages: [{ role: 'user', content: 'x' }], system: 'S' }, countTokensSchema)
    expect(chatMessages(req)).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'x' },
    ])
  })
})

describe('chat answer → Anthropic message', () => {
  it('maps reasoning, text, tool calls, finish reason and cached usage', () => {
    const answer = {
      id: 'chatcmpl-9',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Let me check.',
            reasoning_content: 'Need the tool.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 30 } },
    }
    expect(anthropicCodec().fromOpenAI(answer)).toEqual({
      id: 'msg_9',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'thinking', thinking: 'Need the tool.', signature: '' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 70, output_tokens: 20, cache_read_input_tokens: 30 },
    })
  })

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    [null, 'end_turn'],
  ])('finish_reason %s → stop_reason %s', (finish, reason) => {
    const out = anthropicCodec().fromOpenAI({ id: 'x', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: finish }] }) as any
    expect(out.stop_reason).toBe(reason)
    expect(out.content).toEqual([])
  })
})

describe('Anthropic error envelope', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [502, 'api_error'],
    [503, 'overloaded_error'],
  ] as const)('%d → %s', async (status, type) => {
    const res = anthropicCodec().errorResponse(new ApiError(status, 'nope'), 'req-1')
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual({ type: 'error', error: { type, message: 'nope (request id: req-1)' }, request_id: 'req-1' })
  })
})
