/**
 * The log archive in R2 (binding LOG_ARCHIVE): log rows leaving D1 are written as gzip NDJSON
 * objects, one per hour of `created_at` and retention batch, under
 * `logs/YYYY/MM/DD/HH/<min id>-<max id>.ndjson.gz` (the table's column names, one row a line), and
 * each day gets `logs/YYYY/MM/DD/manifest.json` listing its objects.
 *
 * Crash safety: objects are uploaded first; then ONE D1 batch inserts their manifest rows
 * (`log_archives`) and deletes exactly the archived ids from `logs`. A row is therefore always in
 * `logs` or in exactly one listed object: a stop after the upload leaves an unlisted object (the
 * same key is overwritten when the same rows go again, and unlisted objects are never read), and a
 * stop after the batch only leaves a day manifest to rewrite, which the next move does.
 */
import { getTableColumns } from 'drizzle-orm'
import type { ArchiveObject } from '../../shared/contract/log-budget'
import type { Log } from '../db/schema'
import { logs } from '../db/schema'
import { nowSeconds } from '../lib/time'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'log-archive' })

const COLUMNS = Object.entries(getTableColumns(logs)).map(([prop, col]) => [prop, col.name] as const)

/** A log row as the archive stores it: the D1 column names, metadata as JSON, booleans as booleans. */
const toArchived = (row: Log): Record<string, unknown> => Object.fromEntries(COLUMNS.map(([prop, name]) => [name, row[prop as keyof Log]]))

const fromArchived = (rec: Record<string, unknown>): Log => Object.fromEntries(COLUMNS.map(([prop, name]) => [prop, rec[name] ?? null])) as unknown as Log

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** The hour (Unix seconds) a row's `created_at` falls in. */
const hourOf = (createdAt: number) => createdAt - (((createdAt % 3600) + 3600) % 3600)

/** `logs/YYYY/MM/DD/` of a Unix time (UTC). */
function dayPrefix(ts: number): string {
  const d = new Date(ts * 1000)
  return `logs/${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1, 2)}/${pad(d.getUTCDate(), 2)}/`
}

/** The deterministic key of an hour's rows of one batch: the same rows always land on the same key. */
const objectKey = (hour: number, minId: number, maxId: number) => `${dayPrefix(hour)}${pad(new Date(hour * 1000).getUTCHours(), 2)}/${pad(minId, 12)}-${pad(maxId, 12)}.ndjson.gz`

/** What `GET /api/log/archive/download` accepts: object keys only, never a manifest or another prefix. */
export const OBJECT_KEY = /^logs\/\d{4}\/\d{2}\/\d{2}\/\d{2}\/\d{12}-\d{12}(~\d+)?\.ndjson\.gz$/

async function gzip(text: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
}

async function gunzip(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body.pipeThrough(new DecompressionStream('gzip'))).text()
}

interface Prepared {
  meta: ArchiveObject
  body: Uint8Array
}

/** Group rows by hour, sort each hour by id and compress it. */
async function prepare(rows: Log[], now: number): Promise<Prepared[]> {
  const byHour = new Map<number, Log[]>()
  for (const r of rows) {
    const h = hourOf(r.createdAt)
    const list = byHour.get(h)
    if (list) list.push(r)
    else byHour.set(h, [r])
  }
  const out: Prepared[] = []
  for (const [hour, list] of byHour) {
    list.sort((a, b) => a.id - b.id)
    const body = await gzip(list.map((r) => JSON.stringify(toArchived(r))).join('\n') + '\n')
    const created = list.map((r) => r.createdAt)
    out.push({
      body,
      meta: {
        key: objectKey(hour, list[0]!.id, list[list.length - 1]!.id),
        from_ts: Math.min(...created),
        to_ts: Math.max(...created),
        min_id: list[0]!.id,
        max_id: list[list.length - 1]!.id,
        rows: list.length,
        bytes: body.byteLength,
        created_at: now,
      },
    })
  }
  return out
}

/** A key some listed object already has must never be overwritten: such a batch gets a suffix. */
async function avoidListedKeys(db: D1Database, prepared: Prepared[], now: number) {
  const keys = prepared.map((p) => p.meta.key)
  const taken = await db.prepare('SELECT key FROM log_archives WHERE key IN (SELECT value FROM json_each(?))').bind(JSON.stringify(keys)).all<{ key: string }>()
  const set = new Set(taken.results.map((r) => r.key))
  for (const p of prepared) if (set.has(p.meta.key)) p.meta.key = p.meta.key.replace('.ndjson.gz', `~${now}.ndjson.gz`)
}

const deleteIds = (db: D1Database, ids: number[]) => db.prepare('DELETE FROM logs WHERE id IN (SELECT value FROM json_each(?))').bind(JSON.stringify(ids))

/** Delete rows without archiving them (no LOG_ARCHIVE binding). Returns the rows deleted. */
export async function deleteRows(db: D1Database, rows: Log[]): Promise<number> {
  return (
    await deleteIds(
      db,
      rows.map((r) => r.id)
    ).run()
  ).meta.changes
}

/**
 * Archive `rows` then delete them from D1: upload every hour's object, then one D1 batch that lists
 * the objects and deletes exactly these ids. Returns the rows deleted (= archived).
 */
export async function archiveRows(db: D1Database, bucket: R2Bucket, rows: Log[]): Promise<number> {
  if (rows.length === 0) return 0
  const now = nowSeconds()
  const prepared = await prepare(rows, now)
  await avoidListedKeys(db, prepared, now)
  for (const p of prepared) {
    await bucket.put(p.meta.key, p.body, {
      httpMetadata: { contentType: 'application/x-ndjson' },
      customMetadata: { from_ts: String(p.meta.from_ts), to_ts: String(p.meta.to_ts), rows: String(p.meta.rows) },
    })
  }
  const insert = db.prepare('INSERT INTO log_archives (key, from_ts, to_ts, min_id, max_id, rows, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
  const results = await db.batch([
    ...prepared.map(({ meta: m }) => insert.bind(m.key, m.from_ts, m.to_ts, m.min_id, m.max_id, m.rows, m.bytes, m.created_at)),
    deleteIds(
      db,
      rows.map((r) => r.id)
    ),
  ])
  const deleted = results[results.length - 1]!.meta.changes
  await writeManifests(db, bucket, [...new Set(prepared.map((p) => dayPrefix(p.meta.from_ts)))])
  return deleted
}

const objectView = (r: ArchiveObject): ArchiveObject => ({
  key: r.key,
  from_ts: r.from_ts,
  to_ts: r.to_ts,
  min_id: r.min_id,
  max_id: r.max_id,
  rows: r.rows,
  bytes: r.bytes,
  created_at: r.created_at,
})

/** Rewrite the day manifests from `log_archives`. A failure is only logged: the next archive of that day rewrites it. */
async function writeManifests(db: D1Database, bucket: R2Bucket, prefixes: string[]) {
  for (const prefix of prefixes) {
    try {
      const { results } = await db.prepare('SELECT * FROM log_archives WHERE key >= ? AND key < ? ORDER BY key').bind(prefix, `${prefix}~`).all<ArchiveObject>()
      const objects = results.map(objectView)
      const manifest = {
        day: prefix.slice(5, 15).replaceAll('/', '-'),
        objects,
        rows: objects.reduce((s, o) => s + o.rows, 0),
        bytes: objects.reduce((s, o) => s + o.bytes, 0),
        updated_at: nowSeconds(),
      }
      await bucket.put(`${prefix}manifest.json`, JSON.stringify(manifest), { httpMetadata: { contentType: 'application/json' } })
    } catch (err) {
      serverLog.error('archive manifest not written', { prefix, error: err })
    }
  }
}

const RANGE = 'WHERE (?1 IS NULL OR to_ts >= ?1) AND (?2 IS NULL OR from_ts <= ?2)'

/** The listed objects overlapping [from, to] (Unix seconds), newest first, `limit` at a time from `offset`. */
const objectsInRange = (db: D1Database, from: number | undefined, to: number | undefined, offset: number, limit: number) =>
  db.prepare(`SELECT * FROM log_archives ${RANGE} ORDER BY max_id DESC LIMIT ?3 OFFSET ?4`).bind(from ?? null, to ?? null, limit, offset)

/** Export paging: the next listed object overlapping [from, to] below the cursor (max id, key), newest first. */
export async function nextObject(db: D1Database, from: number | undefined, to: number | undefined, cursor: { maxId: number; key: string } | null) {
  return db
    .prepare(`SELECT * FROM log_archives ${RANGE} AND (?3 IS NULL OR max_id < ?3 OR (max_id = ?3 AND key < ?4)) ORDER BY max_id DESC, key DESC LIMIT 1`)
    .bind(from ?? null, to ?? null, cursor?.maxId ?? null, cursor?.key ?? '')
    .first<ArchiveObject>()
}

/** A page of listed objects with the totals of the same range. */
export async function listArchive(db: D1Database, opts: { from?: number; to?: number; limit: number; offset: number }) {
  const [page, total] = await db.batch<ArchiveObject & { n: number; r: number; b: number }>([
    objectsInRange(db, opts.from, opts.to, opts.offset, opts.limit),
    db.prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(rows), 0) AS r, COALESCE(SUM(bytes), 0) AS b FROM log_archives ${RANGE}`).bind(opts.from ?? null, opts.to ?? null),
  ])
  const t = total!.results[0]!
  return { objects: page!.results.map(objectView), total: { objects: t.n, rows: t.r, bytes: t.b } }
}

/** Totals of the whole archive for the status view. */
export async function archiveTotals(db: D1Database) {
  const row = await db
    .prepare('SELECT COUNT(*) AS objects, COALESCE(SUM(rows), 0) AS rows, COALESCE(SUM(bytes), 0) AS bytes, MIN(from_ts) AS from_ts, MAX(to_ts) AS to_ts FROM log_archives')
    .first<{ objects: number; rows: number; bytes: number; from_ts: number | null; to_ts: number | null }>()
  return row ?? { objects: 0, rows: 0, bytes: 0, from_ts: null, to_ts: null }
}

/** Is `key` a listed object? Downloads serve listed objects only. */
export async function isListed(db: D1Database, key: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 AS one FROM log_archives WHERE key = ?').bind(key).first('one')) === 1
}

/** The rows of one listed object, newest (highest id) first; a missing object reads as empty and is logged. */
export async function readObject(bucket: R2Bucket, key: string): Promise<Log[]> {
  const obj = await bucket.get(key)
  if (!obj) {
    serverLog.error('listed archive object missing from the bucket', { object: key })
    return []
  }
  const text = await gunzip(obj.body)
  return text
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => fromArchived(JSON.parse(l) as Record<string, unknown>))
    .sort((a, b) => b.id - a.id)
}
