/** Internal chat stream → Responses events: item order, ids, sequence numbers at every chunk split, errors, incomplete answers. */
import { describe, expect, it } from 'vitest'
import { SPLITS } from '../../../test/stream-harness'
import { encodeStream, payloads } from '../../../test/inbound-stream-harness'
import { parseResponsesRequest } from './request'
import { ResponsesStreamEncoder } from './stream'
import toolStream from '../__fixtures__/chat-stream-tools.sse?raw'

const ctx = () => ({ id: 'resp_1', createdAt: 1764000000, req: parseResponsesRequest({ model: 'gpt-4o', input: 'Weather?' }) })

describe('Responses stream encoder', () => {
  it.each(SPLITS)('emits reasoning, message and two function_call items in order (split %d)', async (every) => {
    const done: Record<string, any>[] = []
    const { events } = await encodeStream(new ResponsesStreamEncoder(ctx(), (r) => done.push(r)), toolStream, every)
    const out = payloads(events)
    for (const [i, e] of out.entries()) {
      expect(e.data.type).toBe(e.event)
      expect(e.data.sequence_number).toBe(i)
    }
    expect(out.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    const byType = (t: string) => out.filter((e) => e.event === t).map((e) => e.data)
    expect(byType('response.created')[0]!.response).toMatchObject({ id: 'resp_1', status: 'in_progress', output: [], model: 'gpt-4o-2024-08-06' })
    expect(byType('response.output_text.done')[0]).toMatchObject({ output_index: 1, content_index: 0, text: 'Checking Paris and Zürich ☀️.' })
    expect(byType('response.function_call_arguments.done').map((d) => [d.output_index, d.arguments])).toEqual([
      [2, '{"city":"Paris"}'],
      [3, '{"city":"Zürich"}'],
    ])
    const added = byType('response.output_item.added').map((d) => d.item)
    expect(added.map((i) => i.id.split('_')[0])).toEqual(['rs', 'msg', 'fc', 'fc'])
    expect(added[2]).toMatchObject({ type: 'function_call', status: 'in_progress', call_id: 'call_p', name: 'get_weather', arguments: '' })
    const final = byType('response.completed')[0]!.response
    expect(final).toMatchObject({
      status: 'completed',
      usage: { input_tokens: 120, output_tokens: 40, total_tokens: 160, input_tokens_details: { cached_tokens: 64 } },
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'The user wants weather for two cities.' }] },
        { type: 'message', status: 'completed', content: [{ type: 'output_text', text: 'Checking Paris and Zürich ☀️.' }] },
        { type: 'function_call', status: 'completed', call_id: 'call_p', arguments: '{"city":"Paris"}' },
        { type: 'function_call', status: 'completed', call_id: 'call_z', arguments: '{"city":"Zürich"}' },
      ],
    })
    expect(final.output.map((i: any) => i.id)).toEqual(added.map((i) => i.id))
    expect(done).toEqual([final])
  })

  it.each(SPLITS)('ends with error and response.failed when the relay cuts the stream (split %d)', async (every) => {
    const done: unknown[] = []
    const first = toolStream.split('\n\n').slice(0, 4).join('\n\n')
    const raw = `${first}\n\ndata: {"error":{"message":"upstream stream was cut","type":"upstream_error","code":null,"param":null}}\n\n`
    const out = payloads((await encodeStream(new ResponsesStreamEncoder(ctx(), (r) => done.push(r)), raw, every)).events)
    expect(out.slice(-2).map((e) => e.event)).toEqual(['error', 'response.failed'])
    expect(out.at(-2)!.data).toMatchObject({ code: 'upstream_error', message: 'upstream stream was cut' })
    expect(out.at(-1)!.data.response).toMatchObject({ status: 'failed', error: { code: 'server_error' } })
    expect(done).toEqual([])
  })

  it('reports a length stop as response.incomplete', async () => {
    const raw = 'data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":"length"}]}\n\ndata: [DONE]\n\n'
    const out = payloads((await encodeStream(new ResponsesStreamEncoder(ctx()), raw)).events)
    expect(out.at(-1)!.event).toBe('response.incomplete')
    expect(out.at(-1)!.data.response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } })
  })
})
