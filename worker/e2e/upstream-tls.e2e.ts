/**
 * Under `npm start` calls to suppliers leave through workerd's own network service
 * (scripts/serve.mjs directNetwork), not through Miniflare's outbound worker. Real suppliers speak
 * HTTPS: a supplier whose certificate authority the machine trusts (here added through
 * NODE_EXTRA_CA_CERTS, as behind a company proxy) answers through it, and one with a certificate
 * nobody vouches for is refused. The fixtures in support/tls are self-signed test certificates for
 * 127.0.0.1 and secure nothing else.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FreshServer, startFreshServer } from '../../console/e2e/support/fresh-server'
import { ApiSession } from './support/api'

const tls = (name: string) => ({
  cert: readFileSync(path.join(import.meta.dirname, `support/tls/${name}-cert.pem`)),
  key: readFileSync(path.join(import.meta.dirname, `support/tls/${name}-key.pem`)),
})

/** An HTTPS supplier answering every chat completion with `content`; records the keys it was sent. */
async function httpsSupplier(name: string, content: string) {
  const keys: string[] = []
  const server: Server = createServer(tls(name), (req, res) => {
    keys.push(req.headers.authorization ?? '')
    req.resume()
    req.on('end', () => {
      res.setHeader('content-type', 'application/json')
      res.end(
        JSON.stringify({
          id: 'chatcmpl-tls',
          object: 'chat.completion',
          created: 1,
          model: 'tls-model',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
        })
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return { url: `https://127.0.0.1:${port}`, keys, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('suppliers over HTTPS under npm start', () => {
  let gateway: FreshServer
  let trusted: Awaited<ReturnType<typeof httpsSupplier>>
  let untrusted: Awaited<ReturnType<typeof httpsSupplier>>
  let admin: ApiSession

  beforeAll(async () => {
    trusted = await httpsSupplier('trusted', 'hello over TLS')
    untrusted = await httpsSupplier('untrusted', 'should never be read')
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
    await admin.ok('POST', `/api/user/quota/${me.id}`, { quota: 1_000_000 })
  })

  afterAll(async () => {
    await gateway?.stop()
    await trusted?.close()
    await untrusted?.close()
  })

  /** A priced model served only by a channel at `baseUrl`, and a key that can call it. */
  async function modelOn(model: string, baseUrl: string, key: string) {
    await admin.ok('POST', '/api/prices/single', { model, type: 'tokens', channel_type: 1, input: 1, output: 1 })
    await admin.ok('POST', '/api/channel/', { type: 8, name: model, key, base_url: baseUrl, models: [model], group: ['default'] })
    const token = await admin.ok<{ key: string }>('POST', '/api/token/', { name: model, unlimited_quota: true })
    return () =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      })
  }

  it('relays to a supplier whose certificate authority is trusted', async () => {
    const chat = await modelOn('tls-model', trusted.url, 'sk-tls-trusted')
    const res = await chat()
    expect(res.status).toBe(200)
    const body = (await res.json()) as { choices: { message: { content: string } }[] }
    expect(body.choices[0]!.message.content).toBe('hello over TLS')
    expect(trusted.keys).toEqual(['Bearer sk-tls-trusted'])
  })

  it('refuses a supplier whose certificate nobody vouches for', async () => {
    const chat = await modelOn('tls-untrusted-model', untrusted.url, 'sk-tls-untrusted')
    const res = await chat()
    expect(res.status).toBeGreaterThanOrEqual(500)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBeTruthy()
    // The TLS handshake failed, so the request (and its key) never reached the supplier.
    expect(untrusted.keys).toEqual([])
  })
})
