/**
 * Anthropic → Anthropic stream pass-through (stream-pass.ts through primeStream): the client gets
 * the supplier's bytes at any split, usage is read from message_start and message_delta only,
 * and errors, suppliers without usage and cancellation behave as on the converted path.
 */
import { describe, expect, it } from 'vitest'
import toolStream from '../../../providers/anthropic/__fixtures__/message-tools.sse?raw'
import { AnthropicStream } from '../../../providers/anthropic/stream'
import { byteByByte, primeSource, relaySource, splitAt } from '../../../test/pass-through-harness'
import { chatCall, runStream } from '../../../test/stream-harness'
import { AnthropicPassThrough } from './stream-pass'

const call = chatCall({ stream: true, model: 'claude-sonnet-4-5' })
const source = () => new AnthropicPassThrough(call)
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
const start = (usage: Record<string, number>) =>
  frame('message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-up', content: [], usage } })
const text = (t: string) => frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t } })
const OPEN = frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
const delta = (usage: Record<string, number>) => frame('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage })
const STOP = frame('message_stop', { type: 'message_stop' })

/** What the converted path reports for the same stream. */
function converted(body: string) {
  const chat = new AnthropicStream(call)
  runStream(chat, body)
  return { usage: chat.usage(), text: chat.text() }
}

describe('Anthropic stream pass-through', () => {
  it('the client gets the supplier’s bytes unchanged, billed from message_start and message_delta', async () => {
    const pass = source()
    const { body, end } = await relaySource(pass, [toolStream])
    expect(body).toBe(toolStream)
    expect(pass.outputOpen()).toBe(false)
    expect(end).toMatchObject({ kind: 'complete', usage: { promptTokens: 472 + 2048 + 1536, completionTokens: 142 } })
    expect(end.usage).toEqual(converted(toolStream).usage)
    expect(end.text()).toBe(converted(toolStream).text)
  })

  it('is byte-identical and finds the usage when the stream is split at every byte, and one byte per read', async () => {
    const want = converted(toolStream).usage
    const length = new TextEncoder().encode(toolStream).length
    for (let at = 1; at < length; at++) {
      const { body, end } = await relaySource(source(), splitAt(toolStream, [at]))
      expect(body, `split at ${at}`).toBe(toolStream)
      expect(end.usage, `split at ${at}`).toEqual(want)
    }
    const { body, end } = await relaySource(source(), byteByByte(toolStream))
    expect(body).toBe(toolStream)
    expect(end.usage).toEqual(want)
  })

  it('parses no content event: a text naming the watched events changes nothing, CRLF and comments pass', async () => {
    const sneaky = text('event: message_delta\n"usage":{"output_tokens":999} error')
    const supplier = `: keep-alive\r\n\r\n${start({ input_tokens: 7, output_tokens: 1 }).replaceAll('\n', '\r\n')}${OPEN}${sneaky}${delta({ output_tokens: 3 })}${STOP}`
    const { body, end } = await relaySource(source(), splitAt(supplier, [40, 300]))
    expect(body).toBe(supplier)
    expect(end.usage).toEqual({ promptTokens: 7, completionTokens: 3 })
  })

  it('reads events that come without an `event:` line by their type', async () => {
    const dataOnly = (s: string) => s.replace(/^event: [a-z_]+\n/, '')
    const supplier = dataOnly(start({ input_tokens: 5, output_tokens: 1 })) + OPEN + text('hi') + dataOnly(delta({ output_tokens: 2 })) + STOP
    const { body, end } = await relaySource(source(), [supplier])
    expect(body).toBe(supplier)
    expect(end.usage).toEqual({ promptTokens: 5, completionTokens: 2 })
  })

  it('a supplier without usage leaves the count of the text to the settlement; a last event gets its blank line', async () => {
    const supplier = start({}).replace(',"usage":{}', '') + OPEN + text('Hello ') + text('世界') + STOP.trimEnd()
    const { body, end } = await relaySource(source(), [supplier])
    expect(body).toBe(`${supplier}\n\n`)
    expect(end).toMatchObject({ kind: 'complete', usage: undefined })
    expect(end.text()).toBe('Hello 世界')
  })

  it('an in-stream error ends the stream with the relay’s error event after what came before it', async () => {
    const error = frame('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded sk-ant-api03-secretsecretsecretsecret' } })
    const before = start({ input_tokens: 9, output_tokens: 1 }) + OPEN + text('par')
    const { body, end } = await relaySource(source(), [before, text('tial') + error + text('never')])
    expect(body.startsWith(before + text('tial'))).toBe(true)
    const rest = body.slice((before + text('tial')).length)
    expect(rest.startsWith('event: error\ndata: ')).toBe(true)
    const payload = JSON.parse(rest.slice('event: error\ndata: '.length))
    expect(payload).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
    expect(payload.error.message).not.toContain('secretsecret')
    expect(rest).not.toContain('never')
    expect(end).toMatchObject({ kind: 'failed', usage: { promptTokens: 9, completionTokens: 1 }, error: { type: 'overloaded_error' }, outputOpen: true })
    expect(end.text()).toBe('partial')
  })

  it('an error before the first payload fails the prime, so the relay can retry', async () => {
    const error = frame('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })
    const primed = await primeSource(source(), [': ping\n\n', error])
    expect(primed).toMatchObject({ ok: false, error: { message: 'Overloaded', type: 'overloaded_error' } })
  })

  it('a client that cancels mid-stream ends it with the usage and text it was sent', async () => {
    let upstreamCancelled = false
    const first = start({ input_tokens: 11, cache_read_input_tokens: 4, output_tokens: 1 }) + OPEN
    const primed = await primeSource(source(), [first, text('one '), text('two')], { hang: true, onCancel: () => (upstreamCancelled = true) })
    if (!primed.ok) throw new Error(primed.error.message)
    const reader = primed.stream.response.body!.getReader()
    const dec = new TextDecoder()
    let got = ''
    while (!got.endsWith(text('two'))) got += dec.decode((await reader.read()).value)
    expect(got).toBe(first + text('one ') + text('two'))
    await reader.cancel()
    const end = await primed.stream.done
    // Before message_delta the output count is open: the settlement counts the text (relay-request.ts).
    expect(end).toMatchObject({ kind: 'cancelled', usage: converted(first).usage, outputOpen: true })
    expect(end.text()).toBe('one two')
    expect(upstreamCancelled).toBe(true)
  })
})
