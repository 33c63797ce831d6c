import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../test/client'
import { seedLogs, setOptions } from '../test/factories'
import { runRetention } from './log-retention'

const csvIds = (text: string) =>
  text
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]))

const allIds = async () => (await env.DB.prepare('SELECT id FROM logs ORDER BY id').all<{ id: number }>()).results.map((r) => r.id)

describe('log export across D1 and the archive', () => {
  it('exports every row of a time range exactly once, newest first, whether in D1 or archived', async () => {
    const root = await setupRoot()
    const start = Math.floor(Date.now() / 1000) - 7200
    await seedLogs(2300, { start, step: 3, username: 'alice' })
    const seeded = (await allIds()).filter((id) => id > 0)
    await setOptions({ LogMaxRows: '700' })
    const run = await root.post('/api/log/retention/run')
    expect(run.status).toBe(200)
    expect(run.body).toMatchObject({ success: true, data: { archived: expect.any(Number), deleted: expect.any(Number) } })
    expect(run.body.data.archived).toBeGreaterThan(1500)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM logs').first('n')).toBeLessThanOrEqual(700)

    const res = await root.raw('GET', `/api/log/export?type=2&username=alice&start_timestamp=${start}&end_timestamp=${start + 3 * 2300 + 10}`)
    expect(res.status).toBe(200)
    const ids = csvIds(await res.text())
    expect(ids).toHaveLength(2300)
    expect(new Set(ids).size).toBe(2300)
    expect([...ids].sort((a, b) => a - b)).toEqual(seeded.filter((id) => ids.includes(id)).sort((a, b) => a - b))
    expect(ids).toEqual([...ids].sort((a, b) => b - a))

    // Filters apply to archived rows too: a time window entirely in the archive.
    const early = csvIds(await (await root.raw('GET', `/api/log/export?start_timestamp=${start}&end_timestamp=${start + 3 * 100}`)).text())
    expect(early).toHaveLength(100)
    const none = csvIds(await (await root.raw('GET', `/api/log/export?model_name=other&start_timestamp=${start}`)).text())
    expect(none).toHaveLength(0)
  })

  it("keeps archived rows inside the rank rule and the user's own scope", async () => {
    const root = await setupRoot()
    const alice = await signedInUser('alicearch')
    const admin = await signedInUser('adminarch')
    await root.post('/api/user/manage', { id: admin.id, action: 'promote' })
    const rootId = (await root.get('/api/user/self')).body.data.id
    await seedLogs(150, { userId: rootId, username: 'root' })
    await seedLogs(150, { userId: alice.id, username: 'alicearch' })
    await setOptions({ LogMaxRows: '100' })
    await root.post('/api/log/retention/run')
    const text = await (await admin.client.raw('GET', '/api/log/export?type=2')).text()
    expect(text).not.toContain(',root,')
    expect(csvIds(text)).toHaveLength(150)
    const own = csvIds(await (await alice.client.raw('GET', '/api/log/self/export?type=2')).text())
    expect(own).toHaveLength(150)
  })
})

describe('archive routes', () => {
  it('are root only, list objects with time range, rows and size, and download one as gzip NDJSON', async () => {
    const root = await setupRoot()
    const admin = await signedInUser('adminarch2')
    await root.post('/api/user/manage', { id: admin.id, action: 'promote' })
    for (const [method, path] of [
      ['POST', '/api/log/retention/run'],
      ['GET', '/api/log/retention'],
      ['GET', '/api/log/archive'],
      ['GET', '/api/log/archive/download?key=logs/2026/01/01/00/000000000001-000000000002.ndjson.gz'],
    ] as const)
      expect((await admin.client.call(method, path)).status).toBe(403)

    await seedLogs(400)
    await setOptions({ LogMaxRows: '100' })
    const rowsBefore = Number(await env.DB.prepare('SELECT COUNT(*) AS n FROM logs').first('n'))
    await runRetention(env)
    const list = (await root.get('/api/log/archive?page_size=100')).body.data
    expect(list.enabled).toBe(true)
    expect(list.total.rows).toBe(rowsBefore - 100)
    const obj = list.data[0]
    expect(obj).toMatchObject({
      key: expect.stringMatching(/^logs\/.+\.ndjson\.gz$/),
      rows: expect.any(Number),
      bytes: expect.any(Number),
      from_ts: expect.any(Number),
      to_ts: expect.any(Number),
    })

    const file = await root.raw('GET', `/api/log/archive/download?key=${encodeURIComponent(obj.key)}`)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('application/gzip')
    const lines = (await new Response(file.body!.pipeThrough(new DecompressionStream('gzip'))).text()).trim().split('\n')
    expect(lines).toHaveLength(obj.rows)
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: obj.min_id, user_id: 7, model_name: 'gpt-4o', metadata: { n: 1 } })

    expect((await root.get('/api/log/archive/download?key=logs/2026/01/01/00/000000000001-000000000002.ndjson.gz')).status).toBe(404)
    const bad = await root.get('/api/log/archive/download?key=../secret')
    expect(bad.status).toBe(400)
    expect(bad.body.success).toBe(false)

    const status = (await root.get('/api/log/retention')).body.data
    expect(status).toMatchObject({ rows: 100, max_rows: 100, archive: { enabled: true, rows: rowsBefore - 100 } })
  })
})
