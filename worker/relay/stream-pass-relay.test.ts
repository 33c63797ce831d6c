/**
 * The same-format pass-through through the whole relay: an OpenAI chat client on OpenAI-format
 * channels (OpenAI, OpenAI-compatible custom) receives the supplier's stream bytes, apart from the
 * documented rewrites, and is billed from the usage found in the tail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

const head = '"id":"chatcmpl-p","object":"chat.completion.chunk","created":3,"model":"gpt-4o"'
const BODY = [
  ': keep-alive\n\n',
  `data:{${head},"choices":[{"index":0,"delta":{"content":"Bonjour "},"finish_reason":null}],"usage":null}\n\n`,
  `data: {${head},"choices":[{"index":0,"delta":{"content":"à tous"},"finish_reason":"stop"}], "usage": null}\r\n\r\n`,
].join('')
const USAGE_EVENT = `data: {${head},"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}\n\n`
const DONE = 'data: [DONE]\n\n'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream((_req, body) => {
    if (!body.stream) return undefined
    const bytes = new TextEncoder().encode(BODY + USAGE_EVENT + DONE)
    // Cut in the middle of the usage event, as a network would.
    const cut = bytes.length - DONE.length - 20
    let sent = 0
    return new Response(
      new ReadableStream({
        pull(controller) {
          if (sent === 0) controller.enqueue(bytes.slice(0, cut))
          else if (sent === 1) controller.enqueue(bytes.slice(cut))
          else controller.close()
          sent++
        },
      }),
      { headers: { 'content-type': 'text/event-stream' } }
    )
  })
  await setPrice('gpt-4o', 2, 4)
})
afterEach(() => upstream.restore())

describe('same-format stream through the relay', () => {
  for (const type of [1, 8]) {
    it(`channel type ${type}: the supplier's bytes, the usage chunk only when asked, billed from the tail`, async () => {
      await createChannel({ key: `pass-${type}`, type })
      const user = await createUser({ quota: 1_000_000 })
      const token = await createToken(user.id)
      const messages = [{ role: 'user', content: 'hi' }]

      const asked = await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o', messages, stream: true, stream_options: { include_usage: true } } })
      expect(asked.status).toBe(200)
      expect(asked.text).toBe(BODY + USAGE_EVENT + DONE)
      expect(upstream.calls[0]!.body.stream_options).toEqual({ include_usage: true })

      const plain = await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o', messages, stream: true } })
      expect(plain.text).toBe(BODY + DONE)
      // The gateway asked the upstream for usage although the client did not.
      expect(upstream.calls[1]!.body.stream_options).toEqual({ include_usage: true })

      const l = await ledger(user.id)
      expect(l.consumeLogs).toBe(2)
      expect(l.loggedQuota).toBe(2 * (9 * 2 + 4 * 4))
    })
  }
})
