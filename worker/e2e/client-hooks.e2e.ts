/**
 * Clients' task hooks cannot reach this machine (finding 9 of security review 3). On the real
 * server, a Kling submit whose `callback_url` points at a listener on 127.0.0.1 — over http or
 * https, by address or as `localhost` — is refused at submit, while the same submit without one is
 * accepted, and the listeners never hear a thing. Below the URL guard, the network binding
 * serve.mjs gives the gateway for hooks (publicNetwork) refuses a DNS name that resolves to
 * loopback, where the suppliers' binding (directNetwork) reaches the same listener.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { directNetwork, publicNetwork } from '../../scripts/serve.mjs'
import { rootSession, userSession } from './support/api'

const suffix = Date.now().toString(36).slice(-6)
// Ten-second videos: console/e2e/kling.e2e.ts prices the five-second model on the same shared server.
const MODEL = 'kling-video_kling-v1_std_10'
const tls = {
  cert: readFileSync(path.join(import.meta.dirname, 'support/tls/trusted-cert.pem')),
  key: readFileSync(path.join(import.meta.dirname, 'support/tls/trusted-key.pem')),
}

/** Every request the local listeners receive. */
const heard: string[] = []
const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
  heard.push(`${req.method} ${req.url}`)
  req.resume()
  res.end('ok')
}
const plain = http.createServer(onRequest)
const secure = https.createServer(tls, onRequest)
const portOf = (server: http.Server) => (server.address() as AddressInfo).port

async function kling(key: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${inject('gatewayUrl')}/kling${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

describe('client task hooks on this machine', () => {
  let key: string

  beforeAll(async () => {
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r))
    await new Promise<void>((r) => secure.listen(0, '127.0.0.1', r))
    const root = await rootSession()
    await root.ok('POST', '/api/prices/single', { model: MODEL, type: 'times', channel_type: 53, input: 10, output: 0 })
    await root.ok('POST', '/api/channel/', {
      type: 53,
      name: `kling-hooks-${suffix}`,
      key: 'AK|SK',
      base_url: `${inject('mockUrl')}/kling`,
      models: [MODEL],
      group: ['default'],
      priority: 1000,
    })
    const user = await userSession(`kh${suffix}`)
    const id = (await user.ok<{ id: number }>('GET', '/api/user/self')).id
    await root.ok('POST', `/api/user/quota/${id}`, { quota: 1_000_000, remark: 'client hooks e2e' })
    key = (await user.ok<{ key: string }>('POST', '/api/token/', { name: 'hooks key', unlimited_quota: true })).key
  })

  afterAll(async () => {
    plain.close()
    secure.close()
  })

  it('a Kling callback_url on 127.0.0.1 or localhost is refused at submit, and the listener hears nothing', async () => {
    const hooks = [
      `http://127.0.0.1:${portOf(plain)}/stop`,
      `https://127.0.0.1:${portOf(secure)}/stop`,
      `http://localhost:${portOf(plain)}/stop`,
      `https://localhost:${portOf(secure)}/stop`,
      `https://127.1:${portOf(secure)}/stop`,
      `https://[::ffff:127.0.0.1]:${portOf(secure)}/stop`,
    ]
    for (const callback_url of hooks) {
      const refused = await kling(key, 'POST', '/v1/videos/text2video', { prompt: 'a cat surfing', duration: '10', callback_url })
      expect(refused.status, callback_url).toBe(400)
      expect(refused.json, callback_url).toMatchObject({ code: 'invalid_request', data: null })
      expect(refused.json.message, callback_url).toMatch(/^callback_url must/)
    }
    // The channel itself works: the same submit without a hook is accepted, and runs to its end.
    const accepted = await kling(key, 'POST', '/v1/videos/text2video', { prompt: 'a cat surfing', duration: '10' })
    expect(accepted.json).toMatchObject({ code: 0, data: { task_status: 'submitted' } })
    const id = accepted.json.data.task_id as string
    await expect.poll(async () => (await kling(key, 'GET', `/v1/videos/text2video/${id}`)).json.data.task_status, { timeout: 15_000, interval: 500 }).toBe('succeed')
    expect(heard).toEqual([])
  })

  it('the hooks network binding refuses a name that resolves to loopback; the suppliers binding reaches it', async () => {
    const mf = new Miniflare(
      convertV4MiniflareOptions({
        cf: false,
        telemetry: { enabled: false },
        log: new Log(LogLevel.NONE),
        workers: [
          {
            name: 'hook-probe',
            modules: true,
            compatibilityDate: '2026-11-01',
            // POSTs to ?url= through the binding named by ?via=, answering the status or the error.
            script: `export default {
            async fetch(request, env) {
              const q = new URL(request.url).searchParams
              try {
                const res = await env[q.get('via')].fetch(q.get('url'), { method: 'POST', body: '{}' })
                return new Response('status ' + res.status)
              } catch (err) {
                return new Response('refused: ' + err.message)
              }
            },
          }`,
            serviceBindings: { ...publicNetwork(), ...directNetwork() },
          },
        ],
      })
    )
    try {
      const probe = async (via: string, url: string) => (await mf.dispatchFetch(`http://probe/?via=${via}&url=${encodeURIComponent(url)}`)).text()
      for (const url of [`http://localhost:${portOf(plain)}/stop`, `https://localhost:${portOf(secure)}/stop`, `http://127.0.0.1:${portOf(plain)}/stop`]) {
        expect(await probe('PUBLIC_NETWORK', url), url).toMatch(/^refused: /)
      }
      expect(heard).toEqual([])
      expect(await probe('DIRECT_NETWORK', `http://localhost:${portOf(plain)}/reached`)).toBe('status 200')
      expect(heard).toEqual(['POST /reached'])
    } finally {
      await mf.dispose()
    }
  })
})
