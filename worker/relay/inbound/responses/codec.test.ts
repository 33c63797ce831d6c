/** Responses request ↔ internal chat: input items, images and files, tools, formats, validation bounds, and answers to Response objects. */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../lib/errors'
import { responsesCodec } from './codec'
import { parseResponsesRequest } from './request'
import { assistantTurn } from './response'

const chatOf = (body: Record<string, unknown>, history: Record<string, unknown>[] = []) =>
  responsesCodec({ req: parseResponsesRequest({ model: 'gpt-4o', ...body }), history }).toOpenAI(body)

describe('Responses request → chat', () => {
  it('converts item input: developer/system, text/image/file parts, function calls and outputs, skipping reasoning', () => {
    const chat = chatOf({
      instructions: 'You are terse.',
      input: [
        { role: 'developer', content: 'Use metric units.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this and the weather there?' },
            { type: 'input_image', image_url: 'https://example.com/eiffel.jpg', detail: 'low' },
            { type: 'input_file', filename: 'notes.pdf', file_data: 'data:application/pdf;base64,JVBER' },
          ],
        },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'get_time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '14:05' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'It is 18°C at 14:05.' }] },
      ],
      max_output_tokens: 500,
      top_p: 0.9,
      reasoning: { effort: 'low' },
      user: 'u-1',
    })
    expect(chat).toEqual({
      model: 'gpt-4o',
      max_tokens: 500,
      top_p: 0.9,
      reasoning_effort: 'low',
      user: 'u-1',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'system', content: 'Use metric units.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this and the weather there?' },
            { type: 'image_url', image_url: { url: 'https://example.com/eiffel.jpg', detail: 'low' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBER', filename: 'notes.pdf' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
        { role: 'tool', tool_call_id: 'call_2', content: '14:05' },
        { role: 'assistant', content: 'It is 18°C at 14:05.' },
      ],
    })
  })

  it('puts the stored conversation after instructions, maps tools, formats and streaming', () => {
    const chat = chatOf(
      {
        instructions: 'New rules.',
        input: 'And now?',
        stream: true,
        tools: [{ type: 'function', name: 'f', parameters: null, strict: true }],
        tool_choice: 'required',
        parallel_tool_calls: false,
        text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
      },
      [
        { role: 'user', content: 'Before' },
        { role: 'assistant', content: 'Earlier answer' },
      ]
    )
    expect(chat).toMatchObject({
      messages: [
        { role: 'system', content: 'New rules.' },
        { role: 'user', content: 'Before' },
        { role: 'assistant', content: 'Earlier answer' },
        { role: 'user', content: 'And now?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} }, strict: true } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
      response_format: { type: 'json_schema', json_schema: { name: 'out', schema: { type: 'object' }, strict: true } },
    })
    expect(chatOf({ input: 'x', text: { format: { type: 'json_object' } } }).response_format).toEqual({ type: 'json_object' })
  })

  it.each([
    ['a missing input', { model: 'gpt-4o' }],
    ['an empty item list', { model: 'gpt-4o', input: [] }],
    ['top_p above 1', { model: 'gpt-4o', input: 'x', top_p: 1.5 }],
    ['a fractional max_output_tokens', { model: 'gpt-4o', input: 'x', max_output_tokens: 10.5 }],
    ['a string temperature', { model: 'gpt-4o', input: 'x', temperature: '1' }],
    ['an unknown item', { model: 'gpt-4o', input: [{ type: 'item_reference', id: 'msg_1' }] }],
    ['a file_search tool', { model: 'gpt-4o', input: 'x', tools: [{ type: 'file_search' }] }],
    ['an input_file without data', { model: 'gpt-4o', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }],
  ])('refuses %s with 400', (_name, body) => {
    let err: unknown
    try {
      responsesCodec({ req: parseResponsesRequest(body), history: [] }).toOpenAI(body)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(400)
  })
})

describe('chat answer → Response', () => {
  const answer = (message: Record<string, unknown>, finish = 'stop') => ({
    id: 'chatcmpl-1',
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60, prompt_tokens_details: { cached_tokens: 20 }, completion_tokens_details: { reasoning_tokens: 4 } },
  })

  it('builds reasoning, message and function_call items, usage and the request echo, and reports it once', () => {
    const reported: unknown[] = []
    const req = parseResponsesRequest({ model: 'gpt-4o', input: 'x', instructions: 'I', metadata: { k: 'v' }, store: false })
    const codec = responsesCodec({ req, history: [], onComplete: (r) => reported.push(r) })
    const out = codec.fromOpenAI(
      answer({ content: 'Calling.', reasoning_content: 'Think.', tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }, 'tool_calls')
    ) as any
    expect(out).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4o',
      instructions: 'I',
      store: false,
      metadata: { k: 'v' },
      error: null,
      incomplete_details: null,
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Think.' }] },
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Calling.', annotations: [] }] },
        { type: 'function_call', status: 'completed', call_id: 'call_9', name: 'f', arguments: '{"a":1}' },
      ],
      usage: { input_tokens: 50, output_tokens: 10, total_tokens: 60, input_tokens_details: { cached_tokens: 20 }, output_tokens_details: { reasoning_tokens: 4 } },
    })
    expect(out.id).toMatch(/^resp_[0-9a-f]{32}$/)
    expect(reported).toEqual([out])
    expect(assistantTurn(out.output)).toEqual({
      role: 'assistant',
      content: 'Calling.',
      tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    })
  })

  it.each([
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
    ['stop', 'completed', null],
  ])('finish_reason %s → status %s', (finish, status, details) => {
    const out = responsesCodec({ req: parseResponsesRequest({ model: 'm', input: 'x' }), history: [] }).fromOpenAI(answer({ content: 'x' }, finish)) as any
    expect(out.status).toBe(status)
    expect(out.incomplete_details).toEqual(details)
  })

  it('renders errors in the OpenAI envelope', async () => {
    const res = responsesCodec({ req: parseResponsesRequest({ model: 'm', input: 'x' }), history: [] }).errorResponse(
      new ApiError(429, 'slow down', { code: 'rate_limit_exceeded' })
    )
    expect(res.status).toBe(429)
    expect(await res.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded', param: null } })
  })
})
