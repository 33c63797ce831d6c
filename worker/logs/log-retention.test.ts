import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { DEFAULT_LOG_MAX_ROWS, LOG_BUDGET_BYTES, LOG_ROW_BYTES } from '../../shared/contract/log-budget'
import { OPTION_META } from '../../shared/contract/settings'
import { getSettings } from '../settings/store'
import { seedLogs, setOptions } from '../test/factories'
import { budgetUsage, idCut, noticeBudget, retentionStatus, rowsByIdRange, runRetention, timeCut } from './log-retention'

const NOW = 1_800_000_000

const ids = async () => (await env.DB.prepare('SELECT id FROM logs ORDER BY id').all<{ id: number }>()).results.map((r) => r.id)
const listed = async () => (await env.DB.prepare('SELECT * FROM log_archives ORDER BY min_id').all<any>()).results

describe('log budget arithmetic', () => {
  it('defaults LogMaxRows to the 8 GB budget over 650 bytes a row', async () => {
    expect(DEFAULT_LOG_MAX_ROWS).toBe(12_307_692)
    expect(DEFAULT_LOG_MAX_ROWS * LOG_ROW_BYTES).toBeLessThanOrEqual(LOG_BUDGET_BYTES)
    expect((DEFAULT_LOG_MAX_ROWS + 1) * LOG_ROW_BYTES).toBeGreaterThan(LOG_BUDGET_BYTES)
    expect(OPTION_META.LogMaxRows.default).toBe('12307692')
    expect((await getSettings(env)).int('LogMaxRows')).toBe(12_307_692)
  })

  it('cuts ids so at most LogMaxRows remain, days into a time cut, and takes the fuller of rows and bytes', () => {
    expect(rowsByIdRange({ lo: null, hi: null })).toBe(0)
    expect(rowsByIdRange({ lo: 11, hi: 1200 })).toBe(1190)
    expect(idCut({ lo: 1, hi: 500 }, 500)).toBeNull()
    expect(idCut({ lo: 1, hi: 1200 }, 500)).toBe(700)
    expect(idCut({ lo: null, hi: null }, 500)).toBeNull()
    expect(timeCut(0, NOW)).toBeNull()
    expect(timeCut(7, NOW)).toBe(NOW - 7 * 86400)
    expect(budgetUsage(80, 100, 0)).toBe(0.8)
    expect(budgetUsage(10, 100, LOG_BUDGET_BYTES * 0.9)).toBe(0.9)
  })
})

describe('retention run', () => {
  it('keeps LogMaxRows, oldest ids first, in bounded batches, archiving every row it deletes', async () => {
    await seedLogs(2500)
    await setOptions({ LogMaxRows: '1000' })
    const before = await ids()
    const res = await runRetention(env, { batch: 300 })
    expect(res).toMatchObject({ archived: 1500, deleted: 1500, by_count: 1500, by_age: 0, batches: 5, archive_enabled: true, more: false })
    expect(await ids()).toEqual(before.slice(1500))
    const objects = await listed()
    expect(objects.reduce((s: number, o: any) => s + o.rows, 0)).toBe(1500)
    expect(Math.max(...objects.map((o: any) => o.rows))).toBeLessThanOrEqual(300)
    // The listed id ranges cover exactly the deleted ids, once each.
    expect(objects.flatMap((o: any) => before.filter((id) => id >= o.min_id && id <= o.max_id))).toEqual(before.slice(0, 1500))
    // A second run has nothing to do.
    expect((await runRetention(env)).deleted).toBe(0)
  })

  it('removes rows older than LogCleanupDays by created_at, then the count rule', async () => {
    await seedLogs(300, { start: NOW - 3 * 86400, step: 600 }) // 300 rows over ~2 days, starting 3 days ago
    await setOptions({ LogCleanupDays: '2' })
    const cut = NOW - 2 * 86400
    const old = await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?').bind(cut).first<number>('n')
    const res = await runRetention(env, { now: NOW, batch: 50 })
    expect(res.by_age).toBe(old)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?').bind(cut).first('n')).toBe(0)
    // Hour objects: no object spans two hours.
    for (const o of await listed()) expect(Math.floor(o.from_ts / 3600)).toBe(Math.floor(o.to_ts / 3600))
  })

  it('stops at its time budget and says there is more', async () => {
    await seedLogs(600)
    await setOptions({ LogMaxRows: '100' })
    const res = await runRetention(env, { batch: 100, budgetMs: 0 })
    expect(res).toMatchObject({ batches: 1, deleted: 100, more: true })
  })

  it('deletes without archiving when there is no LOG_ARCHIVE binding', async () => {
    await seedLogs(400)
    await setOptions({ LogMaxRows: '100' })
    const res = await runRetention({ ...env, LOG_ARCHIVE: undefined } as unknown as Env)
    expect(res).toMatchObject({ archived: 0, deleted: 300, archive_enabled: false })
    expect((await ids()).length).toBe(100)
    expect(await listed()).toEqual([])
  })
})

/** `env` whose D1 refuses every batch: the archive commit (list + delete) fails after the upload. */
function commitFails(): Env {
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'batch') return () => Promise.reject(new Error('injected: D1 refused the commit'))
      const v = Reflect.get(target, prop)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { ...env, DB: db }
}

describe('archive before delete', () => {
  it('a failure between the upload and the delete loses nothing, and the re-run duplicates nothing', async () => {
    await seedLogs(700)
    await setOptions({ LogMaxRows: '200' })
    const before = await ids()
    await expect(runRetention(commitFails(), { batch: 250 })).rejects.toThrow('injected')
    // The first batch's objects were uploaded, but nothing is listed and no row left D1.
    expect(await ids()).toEqual(before)
    expect(await listed()).toEqual([])
    const orphans = (await env.LOG_ARCHIVE.list({ prefix: 'logs/' })).objects.filter((o) => o.key.endsWith('.ndjson.gz')).map((o) => o.key)
    expect(orphans.length).toBeGreaterThan(0)

    const res = await runRetention(env, { batch: 250 })
    expect(res.archived).toBe(500)
    expect(await ids()).toEqual(before.slice(500))
    const objects = await listed()
    expect(objects.reduce((s: number, o: any) => s + o.rows, 0)).toBe(500)
    // The re-run wrote the same keys again: every object in the bucket is listed (no second copy).
    const stored = (await env.LOG_ARCHIVE.list({ prefix: 'logs/' })).objects.filter((o) => o.key.endsWith('.ndjson.gz')).map((o) => o.key)
    expect(stored.sort()).toEqual(objects.map((o: any) => o.key).sort())
    for (const k of orphans) expect(stored).toContain(k)
  })

  it('an upload that fails deletes nothing', async () => {
    await seedLogs(300)
    await setOptions({ LogMaxRows: '100' })
    const broken = { ...env, LOG_ARCHIVE: { put: () => Promise.reject(new Error('injected: R2 down')) } } as unknown as Env
    await expect(runRetention(broken)).rejects.toThrow('R2 down')
    expect((await ids()).length).toBe(300)
    expect(await listed()).toEqual([])
  })

  it('writes a day manifest listing the objects with time range, rows and size', async () => {
    await seedLogs(300, { start: NOW - 86400 * 3, step: 1 })
    await setOptions({ LogMaxRows: '100' })
    await runRetention(env)
    const objects = await listed()
    const prefix = objects[0].key.slice(0, 16)
    const manifest = (await (await env.LOG_ARCHIVE.get(`${prefix}manifest.json`))!.json()) as any
    expect(manifest.rows).toBe(200)
    expect(manifest.objects).toEqual(objects.map((o: any) => expect.objectContaining({ key: o.key, from_ts: o.from_ts, to_ts: o.to_ts, rows: o.rows, bytes: o.bytes })))
  })
})

describe('budget status and notice', () => {
  it('reports rows, the D1 size and warns root once a day at 80 %', async () => {
    await seedLogs(90)
    await setOptions({ LogMaxRows: '100' })
    const status = await retentionStatus(env)
    expect(status).toMatchObject({ rows: 90, max_rows: 100, warning: true, row_bytes: 650, budget_bytes: 8_000_000_000 })
    expect(status.db_bytes).toBeGreaterThan(0)
    expect(await noticeBudget(env, status)).toBe(true)
    expect(await noticeBudget(env, status)).toBe(false)
    const notice = await env.DB.prepare("SELECT type, content FROM logs WHERE content LIKE 'Logs:%'").all<any>()
    expect(notice.results).toHaveLength(1)
    expect(notice.results[0]).toMatchObject({ type: 4 })
    expect(notice.results[0].content).toContain('90% of its budget')
    await setOptions({ LogMaxRows: '1000' })
    expect((await retentionStatus(env)).warning).toBe(false)
  })
})
