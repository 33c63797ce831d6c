/**
 * Image URLs in prompts through the real relay (fetch-level mocks of the supplier and the image
 * hosts, and an in-memory socket playing root's ChatImageRequestProxy): passed through as URLs to
 * suppliers that fetch them, fetched and sent inline to those that cannot (Gemini) and to every
 * supplier when the proxy is set; blocked, oversized and non-image URLs refused with the format's
 * 400 and nothing charged; a request without image URLs goes upstream untouched.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it, type MockInstance } from 'vitest'
import worker from '../index'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { fakeNetwork } from '../test/fake-socket'
import { mockUpstream } from '../test/upstream-mock'
import nativeAnswer from '../providers/gemini/__fixtures__/response.json?raw'
import { IMAGE_MAX_BYTES, promptImageUrls, withInlineImages } from './prompt-images'

const QUOTA = 1_000_000
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])
const PNG_B64 = btoa(String.fromCharCode(...PNG))
const CAT = 'https://images.example.com/cat.png'
const MB = 1024 * 1024

let upstream: ReturnType<typeof mockUpstream>
/** URLs the image hosts were asked for (anything that is not the supplier). */
let hostFetches: string[]

/** The image hosts: one route per behaviour. */
function imageHost(url: URL): Response {
  switch (url.pathname) {
    case '/cat.png':
      return new Response(PNG, { headers: { 'content-type': 'image/png', 'content-length': String(PNG.length) } })
    case '/page.html':
      return new Response('<html></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } })
    case '/missing.png':
      return new Response('not found', { status: 404 })
    case '/to-private':
      return new Response(null, { status: 302, headers: { location: 'http://10.0.0.5/cat.png' } })
    case '/declared-huge.png':
      return new Response(new ReadableStream({ start: (c) => c.enqueue(PNG) }), { headers: { 'content-type': 'image/png', 'content-length': String(30 * MB) } })
    case '/streamed-huge.png': {
      let sent = 0
      const chunk = new Uint8Array(MB)
      // No content-length: the cap must count the bytes as they come.
      return new Response(
        new ReadableStream({
          pull(c) {
            if (sent > IMAGE_MAX_BYTES + MB) return c.close()
            sent += chunk.length
            c.enqueue(chunk)
          },
        }),
        { headers: { 'content-type': 'image/png' } }
      )
    }
    default:
      return new Response('no route', { status: 500 })
  }
}

beforeEach(async () => {
  upstream = mockUpstream((req) => {
    const path = new URL(req.url).pathname
    if (path.endsWith(':generateContent')) return new Response(nativeAnswer, { headers: { 'content-type': 'application/json' } })
    return undefined
  })
  hostFetches = []
  const supplier = (globalThis.fetch as unknown as MockInstance<typeof fetch>).getMockImplementation()!
  ;(globalThis.fetch as unknown as MockInstance<typeof fetch>).mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith('https://upstream.test')) return supplier(input, init)
    hostFetches.push(url)
    // Redirects are the gateway's to follow (and check), never the runtime's.
    expect(init?.redirect).toBe('manual')
    return imageHost(new URL(url))
  })
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gemini-2.5-pro', 1.25, 10)
})
afterEach(async () => {
  upstream.restore()
  await setOptions({ ChatImageRequestProxy: '' })
})

async function customer() {
  const user = await createUser({ quota: QUOTA })
  const token = await createToken(user.id)
  return { user, token }
}
const withImage = (url: string, model = 'gpt-4o') => ({
  model,
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url, detail: 'low' } },
      ],
    },
  ],
})

describe('image URLs in prompts, ChatImageRequestProxy unset', () => {
  it('go to a supplier that fetches them as the client sent them, and the gateway fetches nothing', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: withImage(CAT) })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.messages[0].content[1]).toEqual({ type: 'image_url', image_url: { url: CAT, detail: 'low' } })
    expect(hostFetches).toEqual([])
  })

  it('are fetched and sent as inlineData to Gemini, which cannot fetch them', async () => {
    await createChannel({ key: 'AIza-good', type: 25, models: 'gemini-2.5-pro' })
    const { token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: withImage(CAT, 'gemini-2.5-pro') })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.contents[0].parts).toEqual([{ text: 'What is in this picture?' }, { inlineData: { mimeType: 'image/png', data: PNG_B64 } }])
    expect(hostFetches).toEqual([CAT])
  })

  it('a Gemini client on a Gemini channel gets its fileData inline in its own body', async () => {
    await createChannel({ key: 'AIza-good', type: 25, models: 'gemini-2.5-pro' })
    const { token } = await customer()
    const body = { contents: [{ role: 'user', parts: [{ text: 'Describe' }, { fileData: { mimeType: 'image/png', fileUri: CAT } }] }] }
    const res = await send('/v1beta/models/gemini-2.5-pro:generateContent', { headers: { 'x-goog-api-key': token.key }, json: body })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.contents[0].parts).toEqual([{ text: 'Describe' }, { inlineData: { mimeType: 'image/png', data: PNG_B64 } }])
  })

  it('a request without image URLs goes upstream untouched, with no fetch', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer()
    const inline = `data:image/png;base64,${PNG_B64}`
    const messages = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'image_url', image_url: { url: inline } },
        ],
      },
    ]
    const res = await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o', messages } })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.messages).toEqual(messages)
    expect(hostFetches).toEqual([])
    expect(promptImageUrls({ messages })).toEqual([])
  })
})

describe('refused images', () => {
  /** A Gemini channel: every image URL must be fetched for it. */
  async function refusal(url: string) {
    await createChannel({ key: 'AIza-good', type: 25, models: 'gemini-2.5-pro' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: withImage(url, 'gemini-2.5-pro') })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_image_url', param: 'messages' })
    expect(upstream.calls).toEqual([])
    const l = await ledger(user.id)
    expect(l.quota).toBe(QUOTA)
    expect(l.consumeLogs).toBe(0)
    return res.json.error.message as string
  }

  it('never fetches private, loopback, link-local or local-name hosts, in any notation', async () => {
    for (const url of [
      'http://10.0.0.5/cat.png',
      'http://127.0.0.1:8080/cat.png',
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:a00:5]/x.png',
      'http://localhost/cat.png',
    ]) {
      expect(await refusal(url)).toMatch(/cannot be used: it must/)
    }
    expect(hostFetches).toEqual([])
  })

  it('checks every redirect hop again', async () => {
    expect(await refusal('https://images.example.com/to-private')).toMatch(/must not point at a private address/)
    expect(hostFetches).toEqual(['https://images.example.com/to-private'])
  })

  it('refuses more than the size cap, declared or counted while streaming', async () => {
    expect(await refusal('https://images.example.com/declared-huge.png')).toMatch(/may total 20 MB/)
    expect(await refusal('https://images.example.com/streamed-huge.png')).toMatch(/may total 20 MB/)
  })

  it('refuses what is not an image, or not there', async () => {
    expect(await refusal('https://images.example.com/page.html')).toMatch(/is not an image \(content type text\/html\)/)
    expect(await refusal('https://images.example.com/missing.png')).toMatch(/answered 404/)
  })

  it("renders the refusal in the client's own format (Anthropic)", async () => {
    await createChannel({ key: 'AIza-good', type: 25, models: 'gemini-2.5-pro' })
    const { token } = await customer()
    const body = {
      model: 'gemini-2.5-pro',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://images.example.com/page.html' } }] }],
    }
    const res = await send('/v1/messages', { headers: { 'x-api-key': token.key, 'anthropic-version': '2023-06-01' }, json: body })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(/is not an image/) } })
  })
})

describe('ChatImageRequestProxy set', () => {
  it('fetches every image URL through the proxy and sends it inline, even to a supplier that fetches URLs', async () => {
    await createChannel({ key: 'good' })
    await setOptions({ ChatImageRequestProxy: 'http://proxy.test:3128' })
    const { token } = await customer()
    const net = fakeNetwork()
    // npm start's sockets carry the proxy connection; the supplier call stays on the (mocked) fetch.
    const proxied = { ...env, DIRECT_NETWORK: { fetch: (i: RequestInfo | URL, init?: RequestInit) => fetch(i, init), connect: net.connect } as unknown as Fetcher }
    const image = 'http://images.example.com/cat.png'
    const answer = sendWith(proxied, '/v1/chat/completions', token.key, withImage(image))
    while (!net.far[0]?.written().includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 2))
    const far = net.far[0]!
    expect(far.written()).toMatch(/^GET http:\/\/images\.example\.com\/cat\.png HTTP\/1\.1\r\n/)
    await far.send(`HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: ${PNG.length}\r\n\r\n`)
    await far.send(PNG)
    await far.end()
    const res = await answer
    expect(res.status).toBe(200)
    expect(net.connects[0]!.address).toMatchObject({ hostname: 'proxy.test', port: 3128 })
    expect(upstream.calls[0]!.body.messages[0].content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}`, detail: 'low' } })
    expect(hostFetches).toEqual([])
  })
})

describe('withInlineImages', () => {
  it('puts the bytes into every prompt format and leaves the input alone', () => {
    const images = new Map([[CAT, { mimeType: 'image/png', data: PNG_B64 }]])
    const body = {
      chat: { type: 'image_url', image_url: CAT },
      responses: { type: 'input_image', image_url: CAT, detail: 'auto' },
      anthropic: { type: 'image', source: { type: 'url', url: CAT }, cache_control: { type: 'ephemeral' } },
      gemini: { fileData: { mimeType: 'image/jpeg', fileUri: CAT }, thought: false },
      other: { type: 'image_url', image_url: { url: 'https://elsewhere.example.com/a.png' } },
    }
    const copy = structuredClone(body)
    expect(withInlineImages(body, images)).toEqual({
      chat: { type: 'image_url', image_url: `data:image/png;base64,${PNG_B64}` },
      responses: { type: 'input_image', image_url: `data:image/png;base64,${PNG_B64}`, detail: 'auto' },
      anthropic: { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 }, cache_control: { type: 'ephemeral' } },
      gemini: { inlineData: { mimeType: 'image/png', data: PNG_B64 }, thought: false },
      other: body.other,
    })
    expect(body).toEqual(copy)
  })
})

/** factories.send with another env (here: one whose sockets the test plays). */
async function sendWith(e: Env, path: string, key: string, json: unknown) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request(`http://gateway.test${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(json) }),
    e,
    ctx
  )
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, json: JSON.parse(text) }
}
