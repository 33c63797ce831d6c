/** Internal chat stream → Anthropic events: exact order and content at every chunk split, errors, empty answers. */
import { describe, expect, it } from 'vitest'
import { SPLITS } from '../../../test/stream-harness'
import { encodeStream, payloads } from '../../../test/inbound-stream-harness'
import { AnthropicStreamEncoder } from './stream'
import toolStream from '../__fixtures__/chat-stream-tools.sse?raw'

const start = (index: number, content_block: unknown) => ({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block } })
const delta = (index: number, d: unknown) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } })
const stop = (index: number) => ({ event: 'content_block_stop', data: { type: 'content_block_stop', index } })

describe('Anthropic stream encoder', () => {
  it.each(SPLITS)('emits thinking, text and two tool_use blocks in Anthropic order (split %d)', async (every) => {
    const { events, text } = await encodeStream(new AnthropicStreamEncoder(), toolStream, every)
    for (const e of events) expect(e.data.includes('"type":"' + e.event + '"')).toBe(true)
    expect(text).not.toContain('[DONE]')
    expect(payloads(events)).toEqual([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_Bx7',
            type: 'message',
            role: 'assistant',
            model: 'gpt-4o-2024-08-06',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 0, output_tokens: 0 },
          },
        },
      },
      start(0, { type: 'thinking', thinking: '', signature: '' }),
      { event: 'ping', data: { type: 'ping' } },
      delta(0, { type: 'thinking_delta', thinking: 'The user wants weather ' }),
      delta(0, { type: 'thinking_delta', thinking: 'for two cities.' }),
      stop(0),
      start(1, { type: 'text', text: '' }),
      delta(1, { type: 'text_delta', text: 'Checking Paris ' }),
      delta(1, { type: 'text_delta', text: 'and Zürich ☀️.' }),
      stop(1),
      start(2, { type: 'tool_use', id: 'call_p', name: 'get_weather', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{"city":' }),
      delta(2, { type: 'input_json_delta', partial_json: '"Paris"}' }),
      stop(2),
      start(3, { type: 'tool_use', id: 'call_z', name: 'get_weather', input: {} }),
      delta(3, { type: 'input_json_delta', partial_json: '{"city":"Zürich"}' }),
      stop(3),
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 56, output_tokens: 40, cache_read_input_tokens: 64 } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ])
  })

  it.each(SPLITS)('turns the relay error payload into an error event and stops (split %d)', async (every) => {
    const first = toolStream.split('\n\n').slice(0, 4).join('\n\n')
    const raw = `${first}\n\ndata: {"error":{"message":"upstream stream was cut: reset","type":"upstream_error","code":null,"param":null}}\n\n`
    const out = payloads((await encodeStream(new AnthropicStreamEncoder(), raw, every)).events)
    expect(out.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'error',
    ])
    expect(out.at(-1)!.data).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'upstream stream was cut: reset' } })
  })

  it('closes an answer with no content and no usage', async () => {
    const raw = 'data: {"id":"chatcmpl-e","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\ndata: [DONE]\n\n'
    const out = payloads((await encodeStream(new AnthropicStreamEncoder(), raw)).events)
    expect(out.map((e) => e.event)).toEqual(['message_start', 'ping', 'message_delta', 'message_stop'])
    expect(out[2]!.data.delta.stop_reason).toBe('max_tokens')
    expect(out[2]!.data.usage).toEqual({ input_tokens: 0, output_tokens: 0 })
  })

  it('ignores anything after the end and does not end twice', () => {
    const enc = new AnthropicStreamEncoder()
    expect(enc.end().length).toBe(4)
    expect(enc.end()).toEqual([])
    expect(enc.onChunk({ choices: [{ index: 0, delta: { content: 'late' } }] })).toEqual([])
  })
})
