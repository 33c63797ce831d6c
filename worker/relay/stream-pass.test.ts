/**
 * Same-format pass-through (stream-pass.ts through primeStream): the client gets the supplier's
 * bytes apart from the documented rewrites, usage is found from the tail at any split, and
 * include_usage, suppliers without usage, in-stream errors and cancellation behave as before.
 */
import { describe, expect, it } from 'vitest'
import type { Usage } from '../billing/formula'
import { OpenAIStream } from '../providers/openai/adapter'
import { chatCall } from '../test/stream-harness'
import { byteByByte, splitAt, upstream } from '../test/pass-through-harness'
import { primeStream } from './stream-relay'

const enc = new TextEncoder()
const dec = new TextDecoder()
const head = '"id":"chatcmpl-9","object":"chat.completion.chunk","created":7,"model":"m-up"'
const content = (text: string, sep = ' ') => `data:${sep}{${head},"choices":[{"index":0,"delta":{"content":"${text}"},"finish_reason":null}],"usage":null}\n\n`
const usageEvent = `data: {${head},"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":5,"total_tokens":16}}\n\n`
const DONE = 'data: [DONE]\n\n'

/** A supplier's stream with the forms real ones use: a comment, no space after `data:`, CRLF, spaced `"usage": null`, UTF-8. */
const BODY = [
  ': OPENROUTER PROCESSING\n\n',
  content('Hel'),
  content('lo 世界', ''),
  `data: {${head},"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":null}], "usage": null}\r\n\r\n`,
  `data: {${head},"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}\n\n`,
].join('')

async function relay(reads: (string | Uint8Array)[], includeUsage: boolean, resolveUsage = (_: string): Promise<Usage> => Promise.reject(new Error('usage was reported'))) {
  const primed = await primeStream({
    upstream: upstream(reads),
    transformer: new OpenAIStream(chatCall({ stream: true, includeUsage })),
    includeUsage,
    startedAt: Date.now(),
    resolveUsage,
  })
  if (!primed.ok) throw new Error(primed.error.message)
  const body = new Uint8Array(await primed.stream.response.arrayBuffer())
  return { body: dec.decode(body), end: await primed.stream.done }
}

describe('same-format pass-through', () => {
  it('with include_usage the client gets the supplier’s bytes unchanged', async () => {
    const supplier = BODY + usageEvent + DONE
    const { body, end } = await relay([supplier], true)
    expect(body).toBe(supplier)
    expect(end).toMatchObject({ kind: 'complete', usage: { promptTokens: 11, completionTokens: 5 } })
    expect(end.text()).toBe('Hello 世界!')
  })

  it('without include_usage only the usage chunk the gateway asked for is cut', async () => {
    const { body, end } = await relay([BODY, usageEvent, DONE], false)
    expect(body).toBe(BODY + DONE)
    expect(end.usage).toEqual({ promptTokens: 11, completionTokens: 5 })
  })

  it('finds the usage event and [DONE] when the stream is split at every byte', async () => {
    const supplier = BODY + usageEvent + DONE
    const length = enc.encode(supplier).length
    for (let at = 1; at < length; at++) {
      for (const includeUsage of [false, true]) {
        const { body, end } = await relay(splitAt(supplier, [at]), includeUsage)
        expect(body, `split at ${at}`).toBe(includeUsage ? supplier : BODY + DONE)
        expect(end.usage, `split at ${at}`).toEqual({ promptTokens: 11, completionTokens: 5 })
      }
    }
    // And one byte per read.
    const { body, end } = await relay(byteByByte(supplier), false)
    expect(body).toBe(BODY + DONE)
    expect(end.usage).toEqual({ promptTokens: 11, completionTokens: 5 })
  })

  it('a supplier without usage is counted from the text at the end, and the trailer makes the usage chunk', async () => {
    const seen: string[] = []
    const { body, end } = await relay([BODY, DONE], true, async (text) => {
      seen.push(text)
      return { promptTokens: 3, completionTokens: text.length }
    })
    expect(seen).toEqual(['Hello 世界!'])
    expect(end.usage).toEqual({ promptTokens: 3, completionTokens: 9 })
    expect(body.startsWith(BODY)).toBe(true)
    const trailer = body.slice(BODY.length)
    const [usageLine, done] = trailer.split('\n\n')
    expect(done).toBe('data: [DONE]')
    expect(JSON.parse(usageLine!.slice('data: '.length))).toEqual({
      id: 'chatcmpl-9',
      object: 'chat.completion.chunk',
      created: 7,
      model: 'm-up',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 },
    })
  })

  it('usage inside a content chunk stays in it; the client who asked also gets the usage chunk', async () => {
    const last = `data: {${head},"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}\n\n`
    const asked = await relay([content('a') + last + DONE], true)
    expect(asked.body.startsWith(content('a') + last + 'data: {')).toBe(true)
    expect(asked.body).toContain('"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":1,"total_tokens":3}}\n\ndata: [DONE]\n\n')
    const silent = await relay([content('a') + last + DONE], false)
    expect(silent.body).toBe(content('a') + last + DONE)
    expect(silent.end.usage).toEqual({ promptTokens: 2, completionTokens: 1 })
  })

  it('a last event without its blank line gets one before the trailer', async () => {
    const { body } = await relay([content('a'), 'data: [DONE]'], false, async () => ({ promptTokens: 1, completionTokens: 1 }))
    expect(body).toBe(content('a') + DONE)
  })

  it('an in-stream error ends the stream with the relay’s error payload after what came before it', async () => {
    const error = 'data: {"error":{"message":"provider overloaded","code":"502"}}\n\n'
    const { body, end } = await relay([content('a'), content('b') + error], false, async () => ({ promptTokens: 1, completionTokens: 1 }))
    expect(body.startsWith(content('a') + content('b'))).toBe(true)
    expect(JSON.parse(body.slice((content('a') + content('b')).length + 6))).toMatchObject({ error: { message: 'provider overloaded' } })
    expect(end).toMatchObject({ kind: 'failed' })
    expect(end.text()).toBe('ab')
  })

  it('an error before the first payload fails the prime, so the relay can retry', async () => {
    const primed = await primeStream({
      upstream: upstream([': keep-alive\n\n', 'data: {"error":{"message":"no capacity"}}\n\n']),
      transformer: new OpenAIStream(chatCall({ stream: true })),
      includeUsage: false,
      startedAt: Date.now(),
      resolveUsage: () => Promise.reject(new Error('unused')),
    })
    expect(primed).toMatchObject({ ok: false, error: { message: 'no capacity' } })
  })

  it('a client that cancels mid-stream is billed for the text it was sent', async () => {
    let upstreamCancelled = false
    const primed = await primeStream({
      upstream: upstream([content('one '), content('two')], { hang: true, onCancel: () => (upstreamCancelled = true) }),
      transformer: new OpenAIStream(chatCall({ stream: true })),
      includeUsage: false,
      startedAt: Date.now(),
      resolveUsage: () => Promise.reject(new Error('unused')),
    })
    if (!primed.ok) throw new Error(primed.error.message)
    const reader = primed.stream.response.body!.getReader()
    expect(dec.decode((await reader.read()).value)).toBe(content('one '))
    expect(dec.decode((await reader.read()).value)).toBe(content('two'))
    await reader.cancel()
    const end = await primed.stream.done
    expect(end).toMatchObject({ kind: 'cancelled', usage: undefined })
    expect(end.text()).toBe('one two')
    expect(upstreamCancelled).toBe(true)
  })
})
