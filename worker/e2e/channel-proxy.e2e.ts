/**
 * The channel proxy under `npm start`, end to end: a real HTTP CONNECT proxy (`proxy`, TooTallNate)
 * and a real SOCKS5 proxy with user/password auth (`simple-socks`) run in this process, with an
 * HTTPS supplier behind them (support/tls: a self-signed certificate for 127.0.0.1, trusted by the
 * gateway through NODE_EXTRA_CA_CERTS like a company CA, which is what the workerd network binding's
 * sockets trust for startTls). A plain and a streamed chat call go through each proxy, and the proxy
 * must have carried them; a proxy answering 407 is a channel failure with the reason. Nothing leaves
 * the machine.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { createProxy } from 'proxy'
import socks5 from 'simple-socks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FreshServer, startFreshServer } from '../../console/e2e/support/fresh-server'
import { ApiSession } from './support/api'

const tls = {
  cert: readFileSync(path.join(import.meta.dirname, 'support/tls/trusted-cert.pem')),
  key: readFileSync(path.join(import.meta.dirname, 'support/tls/trusted-key.pem')),
}
const portOf = (s: { address(): AddressInfo | string | null }) => (s.address() as AddressInfo).port
const listen = (s: { listen(port: number, host: string, cb: () => void): unknown }) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))

/** The HTTPS supplier: a JSON answer, or an SSE stream sent in parts; it records the keys it was sent. */
function supplier() {
  const keys: string[] = []
  const server: Server = createServer(tls, (req, res) => {
    keys.push(req.headers.authorization ?? '')
    let raw = ''
    req.on('data', (c) => {
      raw += c
    })
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { stream?: boolean; model?: string }
      const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 }
      if (!body.stream) {
        res.setHeader('content-type', 'application/json')
        res.end(
          JSON.stringify({
            id: 'c1',
            object: 'chat.completion',
            created: 1,
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'via proxy' }, finish_reason: 'stop' }],
            usage,
          })
        )
        return
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const chunk = (delta: object, extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'c2', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`
      res.write(chunk({ role: 'assistant', content: 'streamed ' }))
      setTimeout(() => {
        res.write(chunk({ content: 'via proxy' }))
        res.end(`data: ${JSON.stringify({ id: 'c2', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [], usage })}\n\ndata: [DONE]\n\n`)
      }, 50)
    })
  })
  return { server, keys }
}

describe('channel proxies under npm start', () => {
  let gateway: FreshServer
  let admin: ApiSession
  const sup = supplier()
  /** CONNECT requests each proxy received. */
  const seen = { http: 0, guarded: 0, socks: 0 }
  const httpProxy = createProxy(http.createServer())
  const guardedProxy = createProxy(http.createServer())
  guardedProxy.authenticate = () => false
  const socks = socks5.createServer({
    authenticate: (user, pass, _socket, done) => (user === 'alice' && pass === 's3cret p@ss' ? done() : done(new Error('bad credentials'))),
  })

  beforeAll(async () => {
    httpProxy.on('connect', () => seen.http++)
    guardedProxy.on('connect', () => seen.guarded++)
    socks.on('proxyConnect', () => seen.socks++)
    await Promise.all([listen(sup.server), listen(httpProxy), listen(guardedProxy), listen(socks)])
    const before = process.env.NODE_EXTRA_CA_CERTS
    process.env.NODE_EXTRA_CA_CERTS = path.join(import.meta.dirname, 'support/tls/trusted-cert.pem')
    try {
      gateway = await startFreshServer()
    } finally {
      if (before === undefined) delete process.env.NODE_EXTRA_CA_CERTS
      else process.env.NODE_EXTRA_CA_CERTS = before
    }
    admin = new ApiSession(gateway.url)
    await admin.call('GET', '/api/status')
    await admin.ok('POST', '/api/setup', { username: 'root', password: 'root-password-1' })
    const me = await admin.ok<{ id: number }>('GET', '/api/user/self')
    await admin.ok('POST', `/api/user/quota/${me.id}`, { quota: 10_000_000 })
    // A fresh server (migrations, bundle) on a busy machine can take longer than the default hook timeout.
  }, 300_000)

  afterAll(async () => {
    await gateway?.stop()
    for (const s of [sup.server, httpProxy, guardedProxy, socks]) s.close()
  })

  /** A priced model served only by a channel behind `proxy`; returns the channel id and a chat caller. */
  async function modelBehind(model: string, proxy: string) {
    await admin.ok('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 1, output: 1 })
    const [channel] = await admin.ok<{ id: number }[]>('POST', '/api/channel/', {
      type: 8,
      name: model,
      key: `sk-${model}`,
      base_url: `https://127.0.0.1:${portOf(sup.server)}`,
      models: [model],
      group: ['default'],
      test_model: model,
      proxy,
    })
    const token = await admin.ok<{ key: string }>('POST', '/api/token/', { name: model, unlimited_quota: true })
    const chat = (stream: boolean) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: 'hi' }] }),
      })
    return { id: channel!.id, chat }
  }

  /** The streamed answer's text, from its SSE events. */
  async function streamedText(res: Response) {
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    let text = ''
    for (const line of (await res.text()).split('\n')) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue
      text += (JSON.parse(line.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? ''
    }
    return text
  }

  for (const kind of ['http', 'socks'] as const) {
    it(`carries a plain and a streamed chat call through the ${kind === 'http' ? 'HTTP CONNECT' : 'SOCKS5'} proxy over TLS to the supplier`, async () => {
      const proxy = kind === 'http' ? `http://127.0.0.1:${portOf(httpProxy)}` : `socks5://alice:${encodeURIComponent('s3cret p@ss')}@127.0.0.1:${portOf(socks)}`
      const { chat } = await modelBehind(`proxy-${kind}-model`, proxy)
      const before = seen[kind]
      const keysBefore = sup.keys.length
      const plain = await chat(false)
      expect(plain.status).toBe(200)
      expect(((await plain.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe('via proxy')
      const streamed = await chat(true)
      expect(streamed.status).toBe(200)
      expect(await streamedText(streamed)).toBe('streamed via proxy')
      // Both calls went through the proxy, and the supplier behind it got the channel's key.
      expect(seen[kind] - before).toBe(2)
      expect(sup.keys.slice(keysBefore)).toEqual([`Bearer sk-proxy-${kind}-model`, `Bearer sk-proxy-${kind}-model`])
    })
  }

  it('a proxy that refuses CONNECT (407) fails the channel with the reason, and the supplier is never reached', async () => {
    const { id, chat } = await modelBehind('proxy-guarded-model', `http://127.0.0.1:${portOf(guardedProxy)}`)
    const keysBefore = sup.keys.length
    const res = await chat(false)
    expect(res.status).toBeGreaterThanOrEqual(500)
    await res.body?.cancel()
    const test = await admin.call<unknown>('GET', `/api/channel/test/${id}`)
    expect(test.body.success).toBe(false)
    expect(test.body.message).toContain('proxy refused CONNECT: 407')
    expect(seen.guarded).toBeGreaterThanOrEqual(2)
    expect(sup.keys.length).toBe(keysBefore)
  })

  it('the channel test goes through the proxy too', async () => {
    const { id } = await modelBehind('proxy-test-model', `http://127.0.0.1:${portOf(httpProxy)}`)
    const before = seen.http
    const test = await admin.call<unknown>('GET', `/api/channel/test/${id}`)
    expect(test.body.success).toBe(true)
    expect(seen.http - before).toBe(1)
  })
})
