/**
 * Log retention and the R2 archive on the real server (its own, so LogMaxRows = 500 does not touch
 * the shared server's logs): 1,200 relay requests, one retention run, then at most 500 rows stay in
 * D1, the rest are listed in the archive, and the CSV export of the whole range has all 1,200 rows
 * exactly once — also after a restart on the same state (Miniflare's local R2 persists).
 */
import { rmSync } from 'node:fs'
import { afterAll, describe, expect, inject, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/serve.mjs'
import { ApiSession } from './support/api'
import { freshMigratedState } from '../../scripts/fresh-state'

const MODEL = 'e2e-retention-times'
const REQUESTS = 1200
const persistDir = freshMigratedState('gateway-e2e-retention-')
let server: { stop(): Promise<void>; url: URL } | undefined

async function boot() {
  server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
  return server!.url.href.replace(/\/$/, '')
}

afterAll(async () => {
  await server?.stop()
  rmSync(persistDir, { recursive: true, force: true })
})

const exportIds = async (root: ApiSession, query: string) => {
  const res = await fetch(`${root.base}/api/log/export?${query}`, { headers: { cookie: root.cookieHeader() } })
  expect(res.status).toBe(200)
  return (await res.text())
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]))
}

describe('log retention with the R2 archive', () => {
  it('1,200 requests and one run with LogMaxRows 500: ≤ 500 rows in D1, the rest archived, the export has each row once', async () => {
    const url = await boot()
    const root = new ApiSession(url)
    await root.call('GET', '/api/status')
    await root.ok('POST', '/api/setup', { username: 'root', password: 'root-password-1' })
    await root.ok('POST', '/api/prices/single', { model: MODEL, type: 'times', channel_type: 1, input: 0.001, output: 0 })
    await root.ok('POST', '/api/channel/', { type: 8, name: 'mock', key: 'sk-retention', base_url: inject('mockUrl'), models: [MODEL], group: ['default'], test_model: MODEL })
    // No requests-per-minute cap for root's group (the default allows 600 a minute).
    const groups = await root.ok<any[]>('GET', '/api/user_group/')
    const def = groups.find((g) => g.symbol === 'default')
    await root.ok('PUT', '/api/user_group/', { id: def.id, symbol: 'default', name: def.name, ratio: 1, api_rate: 0, public: false, enable: true })
    const token = await root.ok<{ key: string }>('POST', '/api/token/', { name: 'retention', unlimited_quota: true })
    const started = Math.floor(Date.now() / 1000) - 1

    let next = 0
    const worker = async () => {
      while (next < REQUESTS) {
        next++
        const res = await fetch(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
        })
        expect(res.status).toBe(200)
        await res.arrayBuffer()
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))

    // The wallets write their log rows behind the answers: wait until all 1,200 are in D1.
    const range = `type=2&token_name=retention&start_timestamp=${started}&end_timestamp=${Math.floor(Date.now() / 1000) + 60}`
    const deadline = Date.now() + 180_000
    let count = 0
    while (Date.now() < deadline) {
      count = (await root.ok<{ count: number }>('GET', `/api/log/stat?${range}`)).count
      if (count >= REQUESTS) break
      await new Promise((r) => setTimeout(r, 500))
    }
    expect(count).toBe(REQUESTS)

    await root.ok('PUT', '/api/option/', { key: 'LogMaxRows', value: '500' })
    const run = await root.call('POST', '/api/log/retention/run')
    expect(run.status).toBe(200)
    expect(run.body.success).toBe(true)
    expect(run.body.data).toMatchObject({ archive_enabled: true, more: false })
    expect(run.body.data.archived).toBe(run.body.data.deleted)
    expect(run.body.data.archived).toBeGreaterThanOrEqual(REQUESTS - 500)

    const status = await root.ok<{ rows: number; archive: { rows: number; objects: number } }>('GET', '/api/log/retention')
    expect(status.rows).toBeLessThanOrEqual(500)
    expect(status.archive.rows).toBe(run.body.data.archived)
    expect((await root.ok<{ count: number }>('GET', `/api/log/stat?${range}`)).count).toBeLessThanOrEqual(500)
    const archive = await root.ok<{ data: { key: string }[]; total: { rows: number } }>('GET', '/api/log/archive?page_size=100')
    expect(archive.total.rows).toBe(run.body.data.archived)

    const ids = await exportIds(root, range)
    expect(ids).toHaveLength(REQUESTS)
    expect(new Set(ids).size).toBe(REQUESTS)

    // Restart on the same state: the archive is still there (npm start persists the local R2).
    await server!.stop()
    server = undefined
    const again = new ApiSession(await boot())
    await again.login('root', 'root-password-1')
    expect(await exportIds(again, range)).toEqual(ids)
    const file = await fetch(`${again.base}/api/log/archive/download?key=${encodeURIComponent(archive.data[0]!.key)}`, { headers: { cookie: again.cookieHeader() } })
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/gzip')
  }, 900_000)
})
