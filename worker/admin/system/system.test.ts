import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { createChannel, setOptions } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { DAILY_CRON, FREQUENT_CRON, runScheduled } from '../../cron'
import { nextCronRun } from '../../cron/cron-report'
import { nowSeconds } from '../../lib/time'
import { createExecutionContext } from 'cloudflare:test'
import { holdFromLease, settleToLease } from '../../billing/wallet-lease'
import { resetIsolateState } from '../../cache/isolate'

const COLLECTOR = 'https://upstream.test/collector'
let upstream: ReturnType<typeof mockUpstream>
let posted: any[]
beforeEach(() => {
  posted = []
  upstream = mockUpstream((req) => {
    if (!req.url.startsWith(COLLECTOR)) return undefined
    return req.json().then((body) => {
      posted.push({ url: req.url, auth: req.headers.get('authorization'), body })
      return new Response('{}')
    })
  })
})
afterEach(() => upstream.restore())

describe('GET /api/system/', () => {
  it('is root only: an administrator gets 403', async () => {
    await setupRoot()
    const admin = await signedInUser('sysadmin')
    await env.DB.prepare('UPDATE users SET role = 10 WHERE id = ?').bind(admin.id).run()
    expect((await admin.client.get('/api/system/')).status).toBe(403)
    expect((await admin.client.post('/api/system/otlp-test', {})).status).toBe(403)
  })

  it('reports version, cron runs, channel health, the database, reachability, telemetry, alerts and the environment', async () => {
    const root = await setupRoot()
    await createChannel({ key: 'good' })
    const off = await createChannel({ key: 'off' })
    await env.DB.prepare('UPDATE channels SET status = 2 WHERE id = ?').bind(off).run()
    await runScheduled({ cron: FREQUENT_CRON, scheduledTime: Date.now() }, env)
    await setOptions({ OtlpEndpoint: COLLECTOR, OtlpHeaders: 'authorization=Bearer collector-secret', MetricsToken: 'metrics-secret-123456' })
    const now = nowSeconds()
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO notify_channels (id, name, type, url, secret, enabled) VALUES (1, 'ops', 'webhook', 'https://hooks.test/a', 'hook-secret', 1), (2, 'old', 'slack', 'https://hooks.test/b', '', 0)"
      ),
      env.DB.prepare(
        "INSERT INTO notify_deliveries (channel_id, event, status, error, created_at, updated_at) VALUES (1, 'cron.failed', 'pending', '', ?, ?), (1, 'channel.disabled', 'failed', 'HTTP 500', ?, ?), (1, 'key.disabled', 'failed', 'old', ?, ?)"
      ).bind(now, now, now - 60, now - 60, now - 2 * 86400, now - 2 * 86400),
    ])

    const res = await root.get('/api/system/')
    expect(res.status).toBe(200)
    const d = res.body.data
    expect(d.version.version).toMatch(/^\d+\.\d+\.\d+/)
    const rollup = d.cron.find((j: any) => j.job === 'rollup' && j.cron === FREQUENT_CRON)
    expect(rollup).toMatchObject({ result: 'ok', error: null })
    expect(rollup.last_run).toBeGreaterThan(0)
    expect(rollup.duration_ms).toBeGreaterThanOrEqual(0)
    expect(rollup.next_run % 300_000).toBe(0)
    expect(d.cron.find((j: any) => j.job === 'sessions')).toMatchObject({ cron: DAILY_CRON, last_run: null })
    expect(d.health).toMatchObject({ channels: { enabled: 1, disabled: 1, frozen: 0 }, dead_letters: 0, dead_letters_oldest_at: null })
    expect(d.database.tables.length).toBeGreaterThan(0)
    expect(d.database.tables.map((t: any) => t.name)).toContain('channels')
    for (const probe of ['kv', 'durable_object', 'd1']) expect(d.reachability[probe], probe).toMatchObject({ ok: true })
    expect(d.telemetry.metrics.token_configured).toBe(true)
    expect(d.telemetry.otlp).toMatchObject({ endpoint: COLLECTOR, headers_configured: true, sample_rate: 1, record_content: false })
    expect(d.alerts).toEqual({
      channels: 2,
      enabled: 1,
      pending: 1,
      failed_24h: 1,
      last_failure: { channel: 'ops', event: 'channel.disabled', error: 'HTTP 500', at: now - 60 },
    })
    expect(JSON.stringify(d)).not.toContain('hook-secret')
    expect(d.environment).toMatchObject({ ok: true })
    expect(JSON.stringify(d)).not.toContain('collector-secret')
    expect(JSON.stringify(d)).not.toContain('metrics-secret')
  })

  it('shows the oldest dead letter and the lease reports no wallet has confirmed yet', async () => {
    const root = await setupRoot()
    const now = nowSeconds()
    await env.DB.prepare("INSERT INTO wallet_dead_letters (user_id, wallet_key, payload, error, created_at) VALUES (9, 'L:1', '[]', 'x', ?), (9, 'L:2', '[]', 'x', ?)")
      .bind(now - 7200, now - 60)
      .run()
    // A wallet that grants but never answers a report: the request stays unconfirmed in this isolate.
    const silent = { lease: async () => ({ ok: true, granted: 1000, held: 1000 }), settleLease: () => new Promise(() => {}) } as unknown as Parameters<typeof holdFromLease>[0]
    const ctx = createExecutionContext()
    const hold = await holdFromLease(silent, ctx, { userId: 9, tokenId: 4, rpm: 0 }, 100)
    void settleToLease(silent, ctx, hold!, { reqId: 'sys-pending', quota: 40, log: { type: 2, createdAt: now - 5, tokenId: 4, requestId: 'sys-pending' } })
    try {
      const d = (await root.get('/api/system/')).body.data
      expect(d.health).toMatchObject({ dead_letters: 2, dead_letters_oldest_at: now - 7200, pending_reports: { requests: 1, quota: 40, oldest_at: now - 5 } })
    } finally {
      resetIsolateState()
    }
  })

  it('sends one test span to the saved collector, and refuses without an endpoint', async () => {
    const root = await setupRoot()
    expect((await root.post('/api/system/otlp-test', {})).status).toBe(400)
    await setOptions({ OtlpEndpoint: COLLECTOR, OtlpHeaders: '{"authorization":"Bearer c"}' })
    const res = await root.post('/api/system/otlp-test', {})
    expect(res.body.data).toMatchObject({ ok: true, status: 200 })
    expect(posted).toHaveLength(1)
    expect(posted[0].url).toBe(`${COLLECTOR}/v1/traces`)
    expect(posted[0].auth).toBe('Bearer c')
    const span = posted[0].body.resourceSpans[0].scopeSpans[0].spans[0]
    expect(span).toMatchObject({ name: 'gateway.test', traceId: res.body.data.trace_id })
  })
})

describe('nextCronRun', () => {
  it('finds the next five-minute mark and the next 00:10 UTC', () => {
    const at = Date.UTC(2026, 0, 1, 23, 57, 30)
    expect(nextCronRun('*/5 * * * *', at)).toBe(Date.UTC(2026, 0, 2, 0, 0))
    expect(nextCronRun('10 0 * * *', at)).toBe(Date.UTC(2026, 0, 2, 0, 10))
    expect(nextCronRun('0 0 1 * *', at)).toBeUndefined()
  })
})
