/**
 * Bad-input suite: every /api and /v1 route receives generated malformed and hostile inputs. No
 * answer may be a 5xx; every refusal comes in the envelope of its surface with a message; a
 * refused request changes no stored data; and the gateway is healthy afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app } from '../app'
import { sha256Hex } from '../lib/crypto'
import { setupRoot, type TestClient } from '../test/client'
import { createChannel, createToken, createUser, send, setPrice } from '../test/factories'
import { HOSTILE_PARAMS, HOSTILE_QUERIES, hostileBodies } from '../test/hostile-inputs'
import { mockUpstream } from '../test/upstream-mock'

const SKIP = new Set(['GET /api/user/logout', 'GET /api/channel/test', 'GET /api/user/token'])

function routeList(prefix: string) {
  const seen = new Set<string>()
  return app.routes
    .filter((r) => r.path.startsWith(prefix) && r.method !== 'ALL')
    .filter((r) => {
      const k = `${r.method} ${r.path}`
      if (seen.has(k) || SKIP.has(k)) return false
      seen.add(k)
      return true
    })
    .map((r) => ({ method: r.method, path: r.path }))
}

/** A hash of every application table: equal before and after = nothing was written. */
async function digest(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'sessions') ORDER BY name"
  ).all<{ name: string }>()
  const parts: string[] = []
  for (const { name } of tables.results) parts.push(name + JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()).results))
  return sha256Hex(parts.join('\n'))
}

let upstream: ReturnType<typeof mockUpstream>
let root: TestClient
let apiKey: string

beforeAll(() => {
  upstream = mockUpstream()
})
afterAll(() => upstream.restore())

function concretePaths(path: string): string[] {
  if (!path.includes(':')) return [path]
  return HOSTILE_PARAMS.map((p) => path.replace(/:[a-z_]+(\{[^}]+\})?/g, p))
}

describe('bad input', () => {
  it('never answers 5xx on /api, refuses in the envelope and changes nothing when refusing', async () => {
    root = await setupRoot()
    const failures: string[] = []
    for (const r of routeList('/api')) {
      if (r.path === '/api/setup') continue
      for (const path of concretePaths(r.path)) {
        const variants =
          r.method === 'GET' || r.method === 'DELETE'
            ? HOSTILE_QUERIES.map((q) => ({ name: q, path: path + q, body: undefined as BodyInit | undefined, type: '' }))
            : hostileBodies().map((b) => ({ name: b.name, path, body: b.body, type: b.contentType }))
        // Refused requests must leave the data untouched: compare the data around each route's variants.
        const before = await digest()
        let accepted = 0
        for (const v of variants) {
          const res = await root.raw(r.method, v.path, { body: v.body as string, headers: v.type ? { 'content-type': v.type } : {} })
          const text = await res.text()
          const label = `${r.method} ${v.path.slice(0, 80)} [${v.name}] → ${res.status}`
          if (res.status < 400) accepted++
          if (res.status >= 500) failures.push(`${label}: ${text.slice(0, 200)}`)
          if (res.status >= 400) {
            let body: any
            try {
              body = JSON.parse(text)
            } catch {
              failures.push(`${label}: not JSON`)
              continue
            }
            if (body.success !== false || typeof body.message !== 'string' || !body.message) failures.push(`${label}: bad envelope ${text.slice(0, 120)}`)
          }
        }
        if (accepted === 0 && (await digest()) !== before) failures.push(`${r.method} ${path}: refused every variant but changed stored data`)
      }
    }
    expect(failures).toEqual([])
  }, 300_000)

  it("never answers 5xx on /v1, refuses in each format's envelope, and stays healthy", async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 1_000_000 })
    apiKey = (await createToken(user.id)).key
    const failures: string[] = []
    for (const r of routeList('/v1')) {
      for (const path of concretePaths(r.path)) {
        const variants =
          r.method === 'GET'
            ? [{ name: 'none', body: undefined as BodyInit | undefined, type: '' }]
            : hostileBodies().map((b) => ({ name: b.name, body: b.body, type: b.contentType }))
        for (const v of variants) {
          for (const key of [apiKey, undefined]) {
            const res = await send(path, { method: r.method, key, body: v.body, headers: v.type ? { 'content-type': v.type } : {} })
            const label = `${r.method} ${path} [${v.name}] key=${Boolean(key)} → ${res.status}`
            if (res.status >= 500 && res.status !== 503 && res.status !== 502) failures.push(`${label}: ${res.text.slice(0, 200)}`)
            if (res.status >= 400) {
              const e = res.json?.error
              // Each inbound format answers in its own envelope: Google's {code, message, status} on /v1beta.
              const shaped = path.startsWith('/v1beta') ? typeof e?.status === 'string' && typeof e?.code === 'number' : typeof e?.type === 'string'
              if (!e || typeof e.message !== 'string' || !shaped) failures.push(`${label}: bad envelope ${res.text.slice(0, 120)}`)
            }
          }
        }
      }
    }
    expect(failures).toEqual([])
    expect((await root.get('/api/status')).status).toBe(200)
    const healthy = await send('/v1/chat/completions', { key: apiKey, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'still alive?' }] } })
    expect(healthy.status).toBe(200)
  }, 300_000)
})
