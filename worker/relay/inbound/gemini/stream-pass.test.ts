/**
 * Gemini → Gemini stream pass-through (stream-pass.ts through primeStream): the client gets the
 * supplier's frames at any split, the usage is the last frame's usageMetadata (parsed once, at the
 * end), and errors, suppliers without usage and cancellation behave as on the converted path.
 */
import { describe, expect, it } from 'vitest'
import textStream from '../../../providers/gemini/__fixtures__/stream-text.sse?raw'
import toolStream from '../../../providers/gemini/__fixtures__/stream-tools.sse?raw'
import { GeminiStream } from '../../../providers/gemini/stream'
import { byteByByte, primeSource, relaySource, splitAt } from '../../../test/pass-through-harness'
import { chatCall, runStream } from '../../../test/stream-harness'
import { GeminiPassThrough } from './stream-pass'

const call = chatCall({ stream: true, model: 'gemini-2.5-flash' })
const source = () => new GeminiPassThrough(call)
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`
const chunk = (text: string, usage?: Record<string, number>) =>
  frame({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }], ...(usage ? { usageMetadata: usage } : {}), modelVersion: 'gemini-up' })

/** What the converted path reports for the same stream. */
function converted(body: string) {
  const chat = new GeminiStream(call)
  runStream(chat, body)
  return { usage: chat.usage(), text: chat.text() }
}

describe('Gemini stream pass-through', () => {
  it.each([
    ['text', textStream],
    ['function calls', toolStream],
  ])('the client gets the supplier’s frames unchanged (%s), billed from the last usageMetadata', async (_name, supplier) => {
    const { body, end } = await relaySource(source(), [supplier])
    expect(body).toBe(supplier)
    expect(end.kind).toBe('complete')
    expect(end.usage).toEqual(converted(supplier).usage)
    expect(end.text()).toBe(converted(supplier).text)
  })

  it('the fixture bills the last frame: 14 prompt, 17 + 48 thought tokens, 8 cached', async () => {
    const { end } = await relaySource(source(), [textStream])
    expect(end.usage).toEqual({ promptTokens: 14, completionTokens: 65, extra: { reasoning_tokens: 48, cached_tokens: 8 } })
  })

  it('is byte-identical and finds the usage when the stream is split at every byte, and one byte per read', async () => {
    const want = converted(textStream).usage
    const length = new TextEncoder().encode(textStream).length
    for (let at = 1; at < length; at++) {
      const { body, end } = await relaySource(source(), splitAt(textStream, [at]))
      expect(body, `split at ${at}`).toBe(textStream)
      expect(end.usage, `split at ${at}`).toEqual(want)
    }
    const { body, end } = await relaySource(source(), byteByByte(textStream))
    expect(body).toBe(textStream)
    expect(end.usage).toEqual(want)
  })

  it('a usageMetadata inside function arguments does not hide the real usage', async () => {
    const call = frame({
      candidates: [{ content: { parts: [{ functionCall: { name: 'log', args: { usageMetadata: { promptTokenCount: 999 } } } }], role: 'model' }, index: 0 }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6 },
    })
    const trick = frame({ candidates: [{ content: { parts: [{ functionCall: { name: 'log', args: { usageMetadata: 1 } } }], role: 'model' }, index: 0 }] })
    const supplier = chunk('a', { promptTokenCount: 4, candidatesTokenCount: 1 }) + call + trick
    const { body, end } = await relaySource(source(), [supplier])
    expect(body).toBe(supplier)
    expect(end.usage).toEqual({ promptTokens: 4, completionTokens: 6 })
  })

  it('a supplier without usage leaves the count of the text to the settlement; a last frame gets its blank line', async () => {
    const supplier = chunk('Hello ') + chunk('世界').trimEnd()
    const { body, end } = await relaySource(source(), [supplier])
    expect(body).toBe(`${supplier}\n\n`)
    expect(end).toMatchObject({ kind: 'complete', usage: undefined })
    expect(end.text()).toBe('Hello 世界')
  })

  it('an in-stream error ends the stream with the relay’s Google error frame after what came before it', async () => {
    const error = frame({ error: { code: 503, message: 'The model is overloaded. key=AIzaSyA1234567890abcdefghijklmnopqrstuv', status: 'UNAVAILABLE' } })
    const before = chunk('par', { promptTokenCount: 3, candidatesTokenCount: 1 })
    const { body, end } = await relaySource(source(), [before, chunk('tial', { promptTokenCount: 3, candidatesTokenCount: 2 }) + error + chunk('never')])
    const sent = before + chunk('tial', { promptTokenCount: 3, candidatesTokenCount: 2 })
    expect(body.startsWith(sent)).toBe(true)
    const payload = JSON.parse(body.slice(sent.length + 'data: '.length))
    expect(payload).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } })
    expect(payload.error.message).not.toContain('AIzaSyA1234567890')
    expect(body).not.toContain('never')
    expect(end).toMatchObject({ kind: 'failed', usage: { promptTokens: 3, completionTokens: 2 }, error: { type: 'UNAVAILABLE', code: '503' } })
    expect(end.text()).toBe('partial')
  })

  it('an error before the first payload fails the prime, so the relay can retry', async () => {
    const primed = await primeSource(source(), [frame([{ error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' } }])])
    expect(primed).toMatchObject({ ok: false, error: { message: 'Resource exhausted', type: 'RESOURCE_EXHAUSTED' } })
  })

  it('a client that cancels mid-stream ends it with the last usage and the text it was sent', async () => {
    let upstreamCancelled = false
    const reads = [chunk('one ', { promptTokenCount: 5, candidatesTokenCount: 1 }), chunk('two', { promptTokenCount: 5, candidatesTokenCount: 2 })]
    const primed = await primeSource(source(), reads, { hang: true, onCancel: () => (upstreamCancelled = true) })
    if (!primed.ok) throw new Error(primed.error.message)
    const reader = primed.stream.response.body!.getReader()
    const dec = new TextDecoder()
    let got = ''
    while (got.length < reads.join('').length) got += dec.decode((await reader.read()).value)
    expect(got).toBe(reads.join(''))
    await reader.cancel()
    const end = await primed.stream.done
    expect(end).toMatchObject({ kind: 'cancelled', usage: { promptTokens: 5, completionTokens: 2 } })
    expect(end.text()).toBe('one two')
    expect(upstreamCancelled).toBe(true)
  })
})
