/**
 * Restart durability: stopping the local server right after traffic (before the wallet's
 * write-behind ran) and starting it again on the same state loses no settled quota, token,
 * channel or log — the wallet's pending changes survive in its Durable Object and flush after restart;
 * and stopping it under load leaves no answered request unpaid: the stop first makes the Worker
 * refuse new requests (503 `server_restarting`), then lets the requests in flight report their costs.
 */
import { rmSync } from 'node:fs'
import { describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/serve.mjs'
import { ApiSession } from './support/api'
import { freshMigratedState } from '../../scripts/fresh-state'

async function boot(persistDir: string) {
  const server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
  return { server, url: (server.url as URL).href.replace(/\/$/, '') }
}

const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 250))
  }
  return false
}

/** Root, a priced model on a mock channel, `quota` granted to root, and root's balance after it. */
async function prepare(url: string, quota: number) {
  const admin = new ApiSession(url)
  await admin.call('GET', '/api/status')
  await admin.ok('POST', '/api/setup', { username: 'root', password: 'root-password-1' })
  await admin.ok('POST', '/api/prices/single', { model: 'restart-model', type: 'tokens', channel_type: 1, input: 1, output: 1 })
  const [channel] = await admin.ok<any[]>('POST', '/api/channel/', {
    type: 8,
    name: 'mock',
    key: 'sk-restart',
    base_url: inject('mockUrl'),
    models: ['restart-model'],
    group: ['default'],
  })
  const me = await admin.ok<{ id: number }>('GET', '/api/user/self')
  await admin.ok('POST', `/api/user/quota/${me.id}`, { quota })
  // Root's starting balance plus the grant above.
  const before = (await admin.ok<{ quota: number }>('GET', '/api/user/self')).quota
  return { admin, channel, before }
}

describe('restart', () => {
  it('keeps settled quota, tokens, channels and logs across a stop and start', async () => {
    const persistDir = freshMigratedState('gateway-restart-')
    try {
      let { server, url } = await boot(persistDir)
      const { admin, channel, before } = await prepare(url, 1_000_000)
      const token = await admin.ok<{ id: number; key: string }>('POST', '/api/token/', { name: 'restart', unlimited_quota: true })
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'restart-model', messages: [{ role: 'user', content: 'remember me' }] }),
          }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
        )
      )
      expect(answers.every((a) => a.status === 200)).toBe(true)
      const charged = answers.reduce((s, a) => s + a.body.usage.prompt_tokens + a.body.usage.completion_tokens, 0)
      // Stop at once: the wallet's write-behind (≈1 s) has likely not run yet.
      await server.stop()
      ;({ server, url } = await boot(persistDir))
      const again = new ApiSession(url)
      await again.login('root', 'root-password-1')
      const settled = await until(async () => (await again.ok<any>('GET', '/api/user/self')).quota === before - charged)
      expect(settled).toBe(true)
      const logs = await again.ok<any>('GET', '/api/log/self?type=2&page_size=100')
      expect(logs.total_count).toBe(10)
      expect(logs.data.reduce((s: number, l: any) => s + l.quota, 0)).toBe(charged)
      expect((await again.ok<any>('GET', `/api/token/${token.id}`)).used_quota).toBe(charged)
      expect((await again.ok<any>('GET', `/api/channel/${channel.id}`)).used_quota).toBe(charged)
      await server.stop()
    } finally {
      rmSync(persistDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('charges every answered request when it stops under load, and refuses new ones while it stops', async () => {
    const persistDir = freshMigratedState('gateway-restart-load-')
    try {
      let { server, url } = await boot(persistDir)
      const { admin, before } = await prepare(url, 10_000_000)
      // No requests-per-minute cap for this user's group (the default allows 600 a minute).
      const groups = await admin.ok<any[]>('GET', '/api/user_group/')
      const def = groups.find((g) => g.symbol === 'default')
      await admin.ok('PUT', '/api/user_group/', { id: def.id, symbol: 'default', name: def.name, ratio: 1, api_rate: 0, public: false, enable: true })
      const token = await admin.ok<{ key: string }>('POST', '/api/token/', { name: 'load', unlimited_quota: true })
      const target = url
      let running = true
      let served = 0
      let paid = 0
      const refused: string[] = []
      const worker = async () => {
        while (running) {
          try {
            const res = await fetch(`${target}/v1/chat/completions`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
              body: JSON.stringify({ model: 'restart-model', messages: [{ role: 'user', content: 'under load' }] }),
            })
            const body = (await res.json()) as any
            if (res.status === 200) {
              served++
              paid += body.usage.prompt_tokens + body.usage.completion_tokens
            } else refused.push(`${res.status} ${body.error?.code}`)
          } catch {
            // the socket closed: the server is down
            await new Promise((r) => setTimeout(r, 20))
          }
        }
      }
      const workers = Array.from({ length: 8 }, worker)
      await new Promise((r) => setTimeout(r, 1500))
      await server.stop()
      running = false
      await Promise.all(workers)
      expect(served).toBeGreaterThan(20)
      expect(refused.length).toBeGreaterThan(0)
      expect(new Set(refused)).toEqual(new Set(['503 server_restarting']))
      ;({ server, url } = await boot(persistDir))
      const again = new ApiSession(url)
      await again.login('root', 'root-password-1')
      const settled = await until(async () => (await again.ok<any>('GET', '/api/user/self')).quota === before - paid)
      expect(settled).toBe(true)
      const logs = await again.ok<any>('GET', '/api/log/self?type=2&page_size=1')
      expect(logs.total_count).toBe(served)
      await server.stop()
    } finally {
      rmSync(persistDir, { recursive: true, force: true })
    }
  }, 120_000)
})
