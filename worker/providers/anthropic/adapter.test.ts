/** Anthropic Messages answers and streams → OpenAI chat completions, usage with cache kinds, errors. */
import { describe, expect, it } from 'vitest'
import { chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { anthropicAdapter } from './adapter'
import { finishReason, fromAnthropicUsage } from './response'
import thinkingTools from './__fixtures__/message-thinking-tools.json?raw'
import textMessage from './__fixtures__/message-text.json?raw'
import toolStream from './__fixtures__/message-tools.sse?raw'
import overloadedStream from './__fixtures__/message-overloaded.sse?raw'

const MODEL = 'claude-sonnet-4-5-20250929'
const chunk = (delta: Record<string, unknown>, finish: string | null = null, model = MODEL) => ({
  object: 'chat.completion.chunk',
  model,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const args = (index: number, piece: string) => ({ tool_calls: [{ index, function: { arguments: piece } }] })

describe('Anthropic non-stream response', () => {
  it('maps thinking, text and tool_use, stop reason and cache usage', async () => {
    const parsed = await anthropicAdapter.parseResponse(chatCall({ model: 'claude-sonnet-4-5' }), jsonResponse(thinkingTools))
    if (parsed.kind !== 'json') throw new Error('expected json')
    expect(parsed.body).toMatchObject({
      id: 'msg_01Aq9w938a90dw8q',
      object: 'chat.completion',
      model: MODEL,
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: "I'll check the current weather in Paris for you.",
            reasoning_content: 'The user asks for the weather in Paris; I should call the tool.',
            tool_calls: [
              {
                id: 'toolu_01A09q90qw90lq917835lq9',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Paris, France","unit":"celsius"}' },
              },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 12800, completion_tokens: 96, total_tokens: 12896, prompt_tokens_details: { cached_tokens: 10240 } },
    })
    expect(parsed.usage).toEqual({ promptTokens: 512 + 10240 + 2048, completionTokens: 96, extra: { cached_read_tokens: 10240, cached_write_tokens: 2048 } })
    expect(parsed.text).toBe(
      'I\'ll check the current weather in Paris for you.The user asks for the weather in Paris; I should call the tool.get_weather{"location":"Paris, France","unit":"celsius"}'
    )
  })

  it('maps a plain end_turn answer without cache extras', async () => {
    const parsed = await anthropicAdapter.parseResponse(chatCall(), jsonResponse(textMessage))
    if (parsed.kind !== 'json') throw new Error('expected json')
    const body = parsed.body as any
    expect(body.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.' }, finish_reason: 'stop' })
    expect(body.usage).toEqual({ prompt_tokens: 2095, completion_tokens: 503, total_tokens: 2598 })
    expect(parsed.usage).toEqual({ promptTokens: 2095, completionTokens: 503 })
  })

  it('sets content to null for a tool-only answer', async () => {
    const body = {
      id: 'msg_x',
      model: MODEL,
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'now', input: {} }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 3, output_tokens: 2 },
    }
    const parsed = await anthropicAdapter.parseResponse(chatCall(), jsonResponse(JSON.stringify(body)))
    expect((parsed as any).body.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'now', arguments: '{}' } }],
    })
  })

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    [null, null],
  ])('stop_reason %s → %s', (stop, expected) => {
    expect(finishReason(stop)).toBe(expected)
  })

  it('rejects a malformed body and parses error bodies', async () => {
    await expect(anthropicAdapter.parseResponse(chatCall(), jsonResponse('{"id":'))).rejects.toThrow(/malformed JSON/)
    const body = '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000, which is the maximum allowed"},"request_id":"req_011CS"}'
    expect(anthropicAdapter.parseError(400, body)).toEqual({ message: 'max_tokens: 100000 > 64000, which is the maximum allowed', type: 'invalid_request_error', code: undefined })
  })
})

describe('Anthropic stream', () => {
  const expected = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ reasoning_content: 'The user wants the weather in Paris and Zürich.' }),
    chunk({ reasoning_content: " I'll call get_weather for both." }),
    chunk({ content: 'Let me look up both cities' }),
    chunk({ content: ' — one moment ☀️.' }),
    chunk({ tool_calls: [{ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    chunk(args(0, '')),
    chunk(args(0, '{"location": "Par')),
    chunk(args(0, 'is, France"}')),
    chunk({ tool_calls: [{ index: 1, id: 'toolu_01HJ6wqpJ6m4Z9Xg2yK8RvTe', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
    chunk(args(1, '{"location":')),
    chunk(args(1, ' "Zürich, CH"}')),
    chunk({}, 'tool_calls'),
  ]

  it.each(SPLITS)('converts events to OpenAI chunks with state across events (split %d)', (every) => {
    const t = anthropicAdapter.createStream(chatCall({ model: 'claude-sonnet-4-5', stream: true }))
    const out = runStream(t, toolStream, every)
    expect(stripVolatile(out)).toEqual(expected)
    for (const p of out) expect(JSON.parse(p).id).toBe('msg_01XFDUDYJgAACzvnptvVoYEL')
    expect(t.usage()).toEqual({ promptTokens: 472 + 2048 + 1536, completionTokens: 142, extra: { cached_read_tokens: 2048, cached_write_tokens: 1536 } })
    expect(t.text()).toBe(
      "The user wants the weather in Paris and Zürich. I'll call get_weather for both.Let me look up both cities — one moment ☀️." +
        'get_weather{"location": "Paris, France"}get_weather{"location": "Zürich, CH"}'
    )
    expect(t.error?.()).toBeUndefined()
  })

  it('yields tool calls an OpenAI client can reassemble', () => {
    const t = anthropicAdapter.createStream(chatCall({ stream: true }))
    const calls: { id?: string; name?: string; arguments: string }[] = []
    for (const p of runStream(t, toolStream, 7)) {
      for (const tc of JSON.parse(p).choices[0].delta.tool_calls ?? []) {
        const c = (calls[tc.index] ??= { arguments: '' })
        if (tc.id) c.id = tc.id
        if (tc.function?.name) c.name = tc.function.name
        c.arguments += tc.function?.arguments ?? ''
      }
    }
    expect(calls.map((c) => ({ ...c, arguments: JSON.parse(c.arguments) }))).toEqual([
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: { location: 'Paris, France' } },
      { id: 'toolu_01HJ6wqpJ6m4Z9Xg2yK8RvTe', name: 'get_weather', arguments: { location: 'Zürich, CH' } },
    ])
  })

  it('builds the usage chunk from the stream id and model', () => {
    const t = anthropicAdapter.createStream(chatCall({ stream: true, includeUsage: true }))
    runStream(t, toolStream)
    const usage = JSON.parse(t.usageChunk(t.usage()!))
    expect(usage).toMatchObject({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      object: 'chat.completion.chunk',
      model: MODEL,
      choices: [],
      usage: { prompt_tokens: 4056, completion_tokens: 142, total_tokens: 4198, prompt_tokens_details: { cached_tokens: 2048 } },
    })
  })

  it.each(SPLITS)('reports an in-stream error event (split %d)', (every) => {
    const t = anthropicAdapter.createStream(chatCall({ stream: true }))
    const out = runStream(t, overloadedStream, every)
    expect(stripVolatile(out)).toEqual([
      chunk({ role: 'assistant', content: '' }, null, 'claude-haiku-4-5-20251001'),
      chunk({ content: 'Once upon' }, null, 'claude-haiku-4-5-20251001'),
    ])
    expect(t.error?.()).toEqual({ message: 'Overloaded', type: 'overloaded_error' })
    expect(t.usage()).toEqual({ promptTokens: 25, completionTokens: 1 })
    expect(t.text()).toBe('Once upon')
  })

  it('takes cumulative usage from message_delta and maps max_tokens', () => {
    const raw = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-opus-4-1-20250805","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}',
      '',
      'event: content_block_start',
      'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hel"}}',
      '',
      'event: message_delta',
      'data: {"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"input_tokens":10,"cache_read_input_tokens":90,"output_tokens":16}}',
      '',
      'event: message_stop',
      'data: {"type":"message_stop"}',
      '',
      '',
    ].join('\r\n')
    const t = anthropicAdapter.createStream(chatCall({ stream: true }))
    const out = stripVolatile(runStream(t, raw, 3))
    expect(out.slice(1)).toEqual([chunk({ content: 'Hel' }, null, 'claude-opus-4-1-20250805'), chunk({}, 'length', 'claude-opus-4-1-20250805')])
    expect(t.usage()).toEqual({ promptTokens: 100, completionTokens: 16, extra: { cached_read_tokens: 90 } })
  })

  it('reports no usage before message_start and ignores unknown or broken events', () => {
    const t = anthropicAdapter.createStream(chatCall({ stream: true }))
    expect(t.onEvent({ event: 'ping', data: '{"type": "ping"}' })).toEqual([])
    expect(t.onEvent({ data: 'not json' })).toEqual([])
    expect(t.onEvent({ event: 'future_event', data: '{"type":"future_event"}' })).toEqual([])
    expect(t.usage()).toBeUndefined()
  })
})

describe('Anthropic cache writes by lifetime', () => {
  it('splits cache_creation into 5-minute and 1-hour writes (their sum is cache_creation_input_tokens)', () => {
    const usage = fromAnthropicUsage({
      input_tokens: 10,
      output_tokens: 5,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 300,
      cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 },
    })
    expect(usage).toEqual({ promptTokens: 410, completionTokens: 5, extra: { cached_read_tokens: 100, cached_write_tokens: 100, cached_write_1h_tokens: 200 } })
    expect(fromAnthropicUsage({ input_tokens: 1, cache_creation_input_tokens: 50, cache_creation: { ephemeral_1h_input_tokens: 50 } }).extra).toEqual({
      cached_write_1h_tokens: 50,
    })
  })
})
