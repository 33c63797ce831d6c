/**
 * The Anthropic and Gemini same-format pass-throughs through the whole relay: a client of the
 * format on a channel speaking it receives the supplier's stream bytes unchanged (cut mid-event
 * by the network), is billed from the usage the events carried, and a client that leaves
 * mid-stream is billed for what was produced, with nothing left reserved.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import worker from '../../index'
import anthropicStream from '../../providers/anthropic/__fixtures__/message-tools.sse?raw'
import geminiStream from '../../providers/gemini/__fixtures__/stream-text.sse?raw'
import { createChannel, createToken, createUser, ledger, send, setPrice, wallet } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'

const QUOTA = 1_000_000
let upstream: ReturnType<typeof mockUpstream>
afterEach(() => upstream.restore())

/** `text` in two reads, cut `cutFromEnd` bytes before its end (mid-event); `hang` leaves the stream open after them. */
function network(text: string, cutFromEnd: number, hang = false): Response {
  const bytes = new TextEncoder().encode(text)
  const reads = [bytes.slice(0, bytes.length - cutFromEnd), bytes.slice(bytes.length - cutFromEnd)].filter((r) => r.length > 0)
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = reads.shift()
        if (next) controller.enqueue(next)
        else if (!hang) controller.close()
        else return new Promise(() => {})
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } }
  )
}

async function customer() {
  const user = await createUser({ quota: QUOTA })
  return { user, token: await createToken(user.id) }
}

async function billedLog(userId: number) {
  const l = await ledger(userId)
  expect(l.consumeLogs).toBe(1)
  expect(QUOTA - l.quota).toBe(l.loggedQuota)
  expect(l.loggedQuota).toBeGreaterThan(0)
  expect((await wallet(userId).balance({ userId }))!.reserved).toBe(0)
  return env.DB.prepare('SELECT prompt_tokens, completion_tokens, content FROM logs WHERE user_id = ? AND type = 2')
    .bind(userId)
    .first<{ prompt_tokens: number; completion_tokens: number; content: string }>()
}

/** Sends `body` to `path`, reads the first chunk of the answer, then leaves. */
async function leaveAfterFirstRead(path: string, headers: Record<string, string>, body: unknown) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(`http://gateway.test${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    env,
    ctx
  )
  const reader = res.body!.getReader()
  const first = new TextDecoder().decode((await reader.read()).value)
  await reader.cancel('client went away')
  await waitOnExecutionContext(ctx)
  return first
}

describe('Anthropic channel → /v1/messages client', () => {
  const headers = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' })
  const body = { model: 'claude-sonnet-4-5', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Weather?' }] }
  /** Up to the last content block: no message_delta yet. */
  const partial = anthropicStream.slice(0, anthropicStream.indexOf('event: content_block_start\ndata: {"type":"content_block_start","index":3'))
  let hang = false
  beforeEach(async () => {
    hang = false
    upstream = mockUpstream((req) => (new URL(req.url).pathname === '/v1/messages' ? (hang ? network(partial, 0, true) : network(anthropicStream, 300)) : undefined))
    await setPrice('claude-sonnet-4-5', 3, 15)
    await createChannel({ key: 'sk-ant-pass', type: 14, models: 'claude-sonnet-4-5' })
  })

  it("the supplier's bytes, billed from message_start and message_delta", async () => {
    const { user, token } = await customer()
    const res = await send('/v1/messages', { headers: headers(token.key), json: body })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/)
    expect(res.text).toBe(anthropicStream)
    expect(upstream.calls[0]!.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true })
    expect(await billedLog(user.id)).toMatchObject({ prompt_tokens: 472 + 2048 + 1536, completion_tokens: 142 })
  })

  it('a client that leaves before message_delta is billed message_start’s input and the output counted from the text', async () => {
    hang = true
    const { user, token } = await customer()
    expect(await leaveAfterFirstRead('/v1/messages', headers(token.key), body)).toBe(partial)
    const log = await billedLog(user.id)
    expect(log!.prompt_tokens).toBe(472 + 2048 + 1536)
    // message_start says 4; the thinking, text and first tool call sent so far count more.
    expect(log!.completion_tokens).toBeGreaterThan(4)
    expect(log!.completion_tokens).toBeLessThan(142)
    expect(log!.content).toContain('client disconnected')
  })
})

describe('Gemini channel → streamGenerateContent client', () => {
  const path = (key: string) => `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=${key}`
  const body = { contents: [{ role: 'user', parts: [{ text: 'A haiku' }] }], generationConfig: { maxOutputTokens: 64 } }
  /** The first two frames. */
  const partial = geminiStream.split('\r\n\r\n').slice(0, 2).join('\r\n\r\n') + '\r\n\r\n'
  let hang = false
  beforeEach(async () => {
    hang = false
    upstream = mockUpstream((req) => (new URL(req.url).pathname.endsWith(':streamGenerateContent') ? (hang ? network(partial, 0, true) : network(geminiStream, 200)) : undefined))
    await setPrice('gemini-2.5-flash', 0.3, 2.5)
    await createChannel({ key: 'AIza-pass', type: 25, models: 'gemini-2.5-flash' })
  })

  it("the supplier's frames, billed from the last usageMetadata", async () => {
    const { user, token } = await customer()
    const res = await send(path(token.key), { json: body })
    expect(res.status).toBe(200)
    expect(res.text).toBe(geminiStream)
    expect(upstream.calls[0]!.url).toContain(':streamGenerateContent?alt=sse')
    expect(await billedLog(user.id)).toMatchObject({ prompt_tokens: 14, completion_tokens: 17 + 48 })
  })

  it('a client that leaves mid-stream is billed for what was produced', async () => {
    hang = true
    const { user, token } = await customer()
    expect(await leaveAfterFirstRead(path(token.key), {}, body)).toBe(partial)
    const log = await billedLog(user.id)
    expect(log).toMatchObject({ prompt_tokens: 14, completion_tokens: 5 + 48 })
    expect(log!.content).toContain('client disconnected')
  })
})
