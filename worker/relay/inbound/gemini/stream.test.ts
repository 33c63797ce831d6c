/** Internal chat stream → Gemini alt=sse frames at every chunk split: text and thought parts, whole function calls, the final frame, errors. */
import { describe, expect, it } from 'vitest'
import { SPLITS } from '../../../test/stream-harness'
import { encodeStream } from '../../../test/inbound-stream-harness'
import { GeminiStreamEncoder } from './stream'
import toolStream from '../__fixtures__/chat-stream-tools.sse?raw'

const frames = async (raw: string, every: number) => (await encodeStream(new GeminiStreamEncoder(), raw, every)).events.map((e) => JSON.parse(e.data))

describe('Gemini stream encoder', () => {
  it.each(SPLITS)('emits thought and text parts, then both function calls with finishReason and usage last (split %d)', async (every) => {
    const { events, text } = await encodeStream(new GeminiStreamEncoder(), toolStream, every)
    expect(events.every((e) => e.event === undefined)).toBe(true)
    expect(text).not.toContain('[DONE]')
    const out = events.map((e) => JSON.parse(e.data))
    const common = { modelVersion: 'gpt-4o-2024-08-06', responseId: 'chatcmpl-Bx7' }
    const part = (p: Record<string, unknown>) => ({ candidates: [{ content: { role: 'model', parts: [p] }, index: 0 }], ...common })
    expect(out).toEqual([
      part({ text: 'The user wants weather ', thought: true }),
      part({ text: 'for two cities.', thought: true }),
      part({ text: 'Checking Paris ' }),
      part({ text: 'and Zürich ☀️.' }),
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Zürich' } } }],
            },
            index: 0,
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 40, totalTokenCount: 160, cachedContentTokenCount: 64 },
        ...common,
      },
    ])
  })

  it.each(SPLITS)('turns the relay error payload into a Google error frame (split %d)', async (every) => {
    const first = toolStream.split('\n\n').slice(0, 4).join('\n\n')
    const out = await frames(`${first}\n\ndata: {"error":{"message":"cut","type":"upstream_error"}}\n\n`, every)
    expect(out.at(-1)).toEqual({ error: { code: 503, message: 'cut', status: 'UNAVAILABLE' } })
    expect(out).toHaveLength(4)
  })

  it('maps length to MAX_TOKENS and reports reasoning as thoughtsTokenCount', async () => {
    const raw =
      'data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"length"}]}\n\n' +
      'data: {"id":"c","model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":9,"completion_tokens_details":{"reasoning_tokens":4}}}\n\ndata: [DONE]\n\n'
    const out = await frames(raw, 5)
    expect(out.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'MAX_TOKENS', content: { parts: [] } }],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, thoughtsTokenCount: 4, totalTokenCount: 14 },
    })
  })
})
