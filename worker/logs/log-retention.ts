/**
 * Log retention: keeps the `logs` table under LogCleanupDays and LogMaxRows, oldest first, in
 * bounded batches (RETENTION_BATCH rows: one select, one upload per hour, one small D1 batch that
 * deletes exactly those ids), so relay writes interleave between batches instead of waiting on one
 * giant delete. With the LOG_ARCHIVE binding every row goes to R2 first (log-archive.ts); without
 * it rows are deleted as before. Runs hourly from the cron and on demand (POST /api/log/retention/run).
 * Also the table's state against its budget (GET /api/log/retention), the notice to root at 80 %,
 * and the manual delete by age (DELETE /api/log/, deleteLogsBefore). The hourly run also applies
 * LogCleanupDays to the audit trail (audit.ts; by age only, never by the row budget).
 */
import { asc, lt, lte } from 'drizzle-orm'
import { LOG_BUDGET_BYTES, LOG_BUDGET_WARN_SHARE, LOG_ROW_BYTES, type RetentionResult, type RetentionStatus } from '../../shared/contract/log-budget'
import { cacheKeys } from '../cache/keys'
import { createDb } from '../db/client'
import { logs, type Log } from '../db/schema'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { archiveRows, archiveTotals, deleteRows } from './log-archive'
import { logForRoot } from './root-notice'
import { deleteAuditBefore } from './audit'

/** 250 rows: a request that arrives during a run waits for at most one such batch (bench:capacity). */
const RETENTION_BATCH = 250

/** The row count by id range: max − min + 1, read from the primary key (never a table scan); ≥ the real count. */
export const rowsByIdRange = (range: { lo: number | null; hi: number | null }) => (range.lo === null || range.hi === null ? 0 : range.hi - range.lo + 1)

/**
 * The ids the count rule removes: every id at or below the returned cut, so at most `maxRows` ids
 * (and therefore rows) remain; null when the id range already fits.
 */
export function idCut(range: { lo: number | null; hi: number | null }, maxRows: number): number | null {
  if (rowsByIdRange(range) <= maxRows) return null
  return range.hi! - maxRows
}

/** The age rule: rows created before this Unix time go; null when LogCleanupDays is 0 (keep). */
export const timeCut = (days: number, now: number): number | null => (days > 0 ? now - days * 86400 : null)

/** How full the table is: the larger of rows / LogMaxRows and database bytes / byte budget. */
export const budgetUsage = (rows: number, maxRows: number, dbBytes: number) => Math.max(maxRows > 0 ? rows / maxRows : 0, dbBytes / LOG_BUDGET_BYTES)

async function idRange(db: D1Database) {
  const res = await db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM logs').all<{ lo: number | null; hi: number | null }>()
  const row = res.results[0] ?? { lo: null, hi: null }
  // D1 reports the database size after each query (meta.size_after); Miniflare does too.
  return { range: row, dbBytes: Number((res.meta as { size_after?: number }).size_after ?? 0) }
}

interface RetentionOptions {
  /** Stop starting new batches after this long (the next run continues). */
  budgetMs?: number
  batch?: number
  now?: number
}

/**
 * A timer turn between batches. When D1 and R2 answer from the same process (`npm start`), a chain
 * of their calls never lets the runtime poll for new connections, so every request that arrived
 * during a run would wait for the whole run; a timer makes it poll (bench:capacity measures it).
 */
const letOthersIn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** One retention run under the current settings; see the module comment. */
export async function runRetention(env: Env, opts: RetentionOptions = {}): Promise<RetentionResult> {
  const started = Date.now()
  const settings = await getSettings(env)
  const batch = opts.batch ?? RETENTION_BATCH
  const budgetMs = opts.budgetMs ?? 20_000
  const before = timeCut(settings.int('LogCleanupDays'), opts.now ?? nowSeconds())
  const { range } = await idRange(env.DB)
  const cut = idCut(range, settings.int('LogMaxRows'))
  const bucket = env.LOG_ARCHIVE as R2Bucket | undefined
  const db = createDb(env.DB)
  const result: RetentionResult = { archived: 0, deleted: 0, batches: 0, by_age: 0, by_count: 0, archive_enabled: Boolean(bucket), more: false, ms: 0 }
  for (;;) {
    let rows: Log[] = []
    let rule: 'by_age' | 'by_count' = 'by_age'
    // Age first (oldest created_at first, on idx_logs_created), then the count rule (lowest ids, on the primary key).
    if (before !== null) rows = await db.select().from(logs).where(lt(logs.createdAt, before)).orderBy(asc(logs.createdAt), asc(logs.id)).limit(batch)
    if (rows.length === 0 && cut !== null) {
      rule = 'by_count'
      rows = await db.select().from(logs).where(lte(logs.id, cut)).orderBy(asc(logs.id)).limit(batch)
    }
    if (rows.length === 0) break
    const gone = bucket ? await archiveRows(env.DB, bucket, rows) : await deleteRows(env.DB, rows)
    result.deleted += gone
    if (bucket) result.archived += gone
    result[rule] += rows.length
    result.batches++
    if (Date.now() - started > budgetMs) {
      result.more = true
      break
    }
    await letOthersIn()
  }
  result.ms = Date.now() - started
  return result
}

/** The table against its budget, as the log page shows it to root. */
export async function retentionStatus(env: Env): Promise<RetentionStatus> {
  const settings = await getSettings(env)
  const [{ range, dbBytes }, archive] = await Promise.all([idRange(env.DB), archiveTotals(env.DB)])
  const rows = rowsByIdRange(range)
  const maxRows = settings.int('LogMaxRows')
  const usage = budgetUsage(rows, maxRows, dbBytes)
  return {
    rows,
    max_rows: maxRows,
    cleanup_days: settings.int('LogCleanupDays'),
    db_bytes: dbBytes,
    budget_bytes: LOG_BUDGET_BYTES,
    row_bytes: LOG_ROW_BYTES,
    usage,
    warning: usage >= LOG_BUDGET_WARN_SHARE,
    archive: { enabled: Boolean(env.LOG_ARCHIVE), ...archive },
  }
}

/** At 80 % of the budget, one system log row for root a day (the log page shows the warning meanwhile). Returns whether it wrote one. */
export async function noticeBudget(env: Env, status: RetentionStatus, now = Date.now()): Promise<boolean> {
  if (!status.warning) return false
  const key = cacheKeys.logBudgetNotice
  const last = Number((await env.CACHE.get(key)) ?? 0)
  if (now - last < 86_400_000) return false
  await env.CACHE.put(key, String(now))
  const pct = Math.round(status.usage * 100)
  await logForRoot(
    env,
    `Logs: the log table is at ${pct}% of its budget (${status.rows} of ${status.max_rows} rows, database ${status.db_bytes} bytes). ` +
      (status.archive.enabled ? 'The oldest rows are archived to R2 and deleted hourly.' : 'Without LOG_ARCHIVE the oldest rows are deleted hourly.'),
    { usage: status.usage, rows: status.rows, max_rows: status.max_rows, db_bytes: status.db_bytes }
  )
  return true
}

/** The hourly cron job: the run, the audit trail's age rule (same LogCleanupDays), then the budget check. */
export async function scheduledRetention(env: Env) {
  await runRetention(env, { budgetMs: 60_000 })
  const auditCut = timeCut((await getSettings(env)).int('LogCleanupDays'), nowSeconds())
  if (auditCut !== null) await deleteAuditBefore(env, auditCut)
  await noticeBudget(env, await retentionStatus(env))
}

/** Delete logs created before `before` (Unix seconds), 5,000 rows per statement; returns the count. */
export async function deleteLogsBefore(env: Env, before: number, budgetMs = 20_000): Promise<number> {
  const started = Date.now()
  let total = 0
  for (;;) {
    const res = await env.DB.prepare('DELETE FROM logs WHERE id IN (SELECT id FROM logs WHERE created_at < ? LIMIT 5000)').bind(before).run()
    total += res.meta.changes
    if (res.meta.changes < 5000 || Date.now() - started > budgetMs) return total
  }
}
