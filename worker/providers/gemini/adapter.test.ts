/** Gemini generateContent answers and alt=sse streams → OpenAI chat completions, usage and errors. */
import { describe, expect, it } from 'vitest'
import { chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { geminiAdapter } from './adapter'
import { geminiFinish } from './response'
import answer from './__fixtures__/response.json?raw'
import safety from './__fixtures__/response-safety.json?raw'
import textStream from './__fixtures__/stream-text.sse?raw'
import toolStream from './__fixtures__/stream-tools.sse?raw'

const CALL_ID = /^call_[0-9a-f]{24}$/
const chunk = (delta: Record<string, unknown>, finish: string | null = null, model = 'gemini-2.5-flash') => ({
  object: 'chat.completion.chunk',
  model,
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const parse = async (body: string) => {
  const parsed = await geminiAdapter.parseResponse(chatCall({ model: 'gemini-2.5-pro' }), jsonResponse(body))
  if (parsed.kind !== 'json') throw new Error('expected json')
  return parsed as { body: any; usage?: unknown; text?: string }
}

describe('Gemini non-stream response', () => {
  it('maps thought parts, text, function calls and usage', async () => {
    const { body, usage, text } = await parse(answer)
    expect(body).toMatchObject({ id: 'chatcmpl-Vq2TaKjRL8uGmNAP6-7ZwQo', object: 'chat.completion', model: 'gemini-2.5-pro' })
    expect(body.choices).toHaveLength(1)
    const [choice] = body.choices
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message).toMatchObject({
      role: 'assistant',
      content: 'Let me check that for you.',
      reasoning_content: '**Planning the lookup**\n\nThe user wants Paris weather; call the tool.',
      tool_calls: [{ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } }],
    })
    expect(choice.message.tool_calls[0].id).toMatch(CALL_ID)
    expect(choice.message.tool_calls[0]).not.toHaveProperty('index')
    expect(usage).toEqual({ promptTokens: 1290, completionTokens: 24 + 161, extra: { reasoning_tokens: 161, cached_tokens: 1024 } })
    expect(body.usage).toEqual({
      prompt_tokens: 1290,
      completion_tokens: 185,
      total_tokens: 1475,
      prompt_tokens_details: { cached_tokens: 1024 },
      completion_tokens_details: { reasoning_tokens: 161 },
    })
    expect(text).toBe('Let me check that for you.**Planning the lookup**\n\nThe user wants Paris weather; call the tool.get_weather{"city":"Paris","unit":"celsius"}')
  })

  it('maps a SAFETY block to content_filter', async () => {
    const { body, usage } = await parse(safety)
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }])
    expect(body.model).toBe('gemini-2.0-flash')
    expect(usage).toEqual({ promptTokens: 21, completionTokens: 0 })
  })

  it('maps MAX_TOKENS to length, keeps candidate indexes, and reports no usage when absent', async () => {
    const body = {
      candidates: [
        { content: { parts: [{ text: 'One' }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 0 },
        { content: { parts: [{ text: 'Two' }], role: 'model' }, finishReason: 'STOP', index: 1 },
      ],
    }
    const parsed = await parse(JSON.stringify(body))
    expect(parsed.body.choices.map((c: any) => [c.index, c.message.content, c.finish_reason])).toEqual([
      [0, 'One', 'length'],
      [1, 'Two', 'stop'],
    ])
    expect(parsed.body.model).toBe('gemini-2.5-pro')
    expect(parsed.usage).toBeUndefined()
    expect(parsed.text).toBe('OneTwo')
  })

  it.each([
    ['STOP', false, 'stop'],
    ['MAX_TOKENS', false, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['STOP', true, 'tool_calls'],
    [undefined, false, null],
  ] as const)('finishReason %s (tools: %s) → %s', (reason, tools, expected) => {
    expect(geminiFinish(reason, tools)).toBe(expected)
  })

  it('rejects malformed bodies and parses Google error bodies', async () => {
    await expect(parse('{"candidates": [')).rejects.toThrow(/malformed JSON/)
    const err = '{\n  "error": {\n    "code": 400,\n    "message": "API key not valid. Please pass a valid API key.",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n'
    expect(geminiAdapter.parseError(400, err)).toEqual({ message: 'API key not valid. Please pass a valid API key.', type: 'INVALID_ARGUMENT', code: '400' })
  })
})

describe('Gemini stream', () => {
  it("fixture uses Gemini's CRLF framing", () => {
    expect(textStream).toContain('}\r\n\r\ndata: ')
  })

  it.each(SPLITS)('converts text chunks and the final usage (split %d)', (every) => {
    const t = geminiAdapter.createStream(chatCall({ model: 'gemini-2.5-flash', stream: true }))
    const out = runStream(t, textStream, every)
    expect(stripVolatile(out)).toEqual([
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: '**Recalling the season**\n\nSpring in Kyoto means cherry blossoms.' }),
      chunk({ content: 'Pale 桜 petals drift' }),
      chunk({ content: ' on the Kamo river —\nspring writes' }),
      chunk({ content: ' in pink ink.' }),
      chunk({}, 'stop'),
    ])
    expect(new Set(out.map((p) => JSON.parse(p).id)).size).toBe(1)
    expect(t.usage()).toEqual({ promptTokens: 14, completionTokens: 17 + 48, extra: { reasoning_tokens: 48, cached_tokens: 8 } })
    expect(t.text()).toBe('**Recalling the season**\n\nSpring in Kyoto means cherry blossoms.Pale 桜 petals drift on the Kamo river —\nspring writes in pink ink.')
    expect(t.error?.()).toBeUndefined()
  })

  it.each(SPLITS)('converts function calls with generated ids and indexes (split %d)', (every) => {
    const t = geminiAdapter.createStream(chatCall({ model: 'gemini-2.5-flash', stream: true }))
    const out = stripVolatile(runStream(t, toolStream, every)) as any[]
    expect(out).toHaveLength(3)
    expect(out[0]).toEqual(chunk({ role: 'assistant', content: '' }))
    const calls = out[1].choices[0].delta.tool_calls
    expect(calls).toEqual([
      { index: 0, id: expect.stringMatching(CALL_ID), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
      { index: 1, id: expect.stringMatching(CALL_ID), type: 'function', function: { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' } },
    ])
    expect(calls[0].id).not.toBe(calls[1].id)
    expect(out[2]).toEqual(chunk({}, 'tool_calls'))
    expect(t.usage()).toEqual({ promptTokens: 96, completionTokens: 31 })
  })

  it('builds the usage chunk', () => {
    const t = geminiAdapter.createStream(chatCall({ model: 'gemini-2.5-flash', stream: true, includeUsage: true }))
    const first = runStream(t, textStream)[0]!
    const usage = JSON.parse(t.usageChunk(t.usage()!))
    expect(usage).toMatchObject({
      id: JSON.parse(first).id,
      object: 'chat.completion.chunk',
      model: 'gemini-2.5-flash',
      choices: [],
      usage: { prompt_tokens: 14, completion_tokens: 65, total_tokens: 79, prompt_tokens_details: { cached_tokens: 8 }, completion_tokens_details: { reasoning_tokens: 48 } },
    })
  })

  it('reports an error event sent after the 200', () => {
    const t = geminiAdapter.createStream(chatCall({ model: 'gemini-2.5-flash', stream: true }))
    const first = textStream.split('\r\n\r\n')[1]!
    const raw = `${first}\r\n\r\ndata: {"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}}\r\n\r\n`
    const out = runStream(t, raw, 7)
    expect(stripVolatile(out)).toEqual([chunk({ role: 'assistant', content: '' }), chunk({ content: 'Pale 桜 petals drift' })])
    expect(t.error?.()).toEqual({ message: 'The model is overloaded. Please try again later.', type: 'UNAVAILABLE', code: '503' })
  })

  it('maps a blocked stream to content_filter', () => {
    const t = geminiAdapter.createStream(chatCall({ model: 'gemini-2.0-flash', stream: true }))
    const raw =
      'data: {"candidates": [{"finishReason": "SAFETY","index": 0,"safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT","probability": "HIGH","blocked": true}]}],"usageMetadata": {"promptTokenCount": 12,"totalTokenCount": 12},"modelVersion": "gemini-2.0-flash"}\r\n\r\n'
    expect(stripVolatile(runStream(t, raw))).toEqual([chunk({ role: 'assistant', content: '' }, null, 'gemini-2.0-flash'), chunk({}, 'content_filter', 'gemini-2.0-flash')])
    expect(t.usage()).toEqual({ promptTokens: 12, completionTokens: 0 })
  })
})
