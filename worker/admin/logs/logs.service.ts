/**
 * Log queries for the log page: filters that each hit an index (type, time range, model, token,
 * user, channel), newest first, a bounded count (never more than COUNT_CAP rows scanned per page
 * turn), the filtered quota sum, CSV export streamed in id-keyed chunks — D1 first, then the rows
 * retention archived to R2 (log-archive.ts), each row once — and root's deletion before a date in chunks. Views redact key-like strings; users never see the
 * channels a request tried nor the supplier's error text (admins read it in the metadata).
 */
import type { LogPage, LogRow } from '../../../shared/contract/logs'
import { and, count, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { csvCell } from '../../lib/csv'
import { logs, type Log } from '../../db/schema'
import { redactSecrets } from '../../lib/redact'
import { nextObject, readObject } from '../../logs/log-archive'

export const COUNT_CAP = 10_000

export const logQuery = z.object({
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  type: z.coerce.number().int().min(0).max(5).optional(),
  start_timestamp: z.coerce.number().int().min(0).optional(),
  end_timestamp: z.coerce.number().int().min(0).optional(),
  model_name: z.string().trim().max(200).optional(),
  token_name: z.string().trim().max(100).optional(),
  username: z.string().trim().max(64).optional(),
  channel_id: z.coerce.number().int().min(0).optional(),
})

export type LogQuery = z.infer<typeof logQuery>

/**
 * Who may be seen: one user's rows (`userId`), or an admin's rank filter (`within`, see shared/rank;
 * `hiddenUsers` is its JS form for archived rows).
 */
export interface LogScope {
  userId?: number
  within?: SQL
  hiddenUsers?: () => Promise<Set<number>>
}

export function logFilter(q: LogQuery, scope: LogScope): SQL | undefined {
  return and(
    scope.userId !== undefined ? eq(logs.userId, scope.userId) : undefined,
    scope.within,
    q.type ? eq(logs.type, q.type) : undefined,
    q.start_timestamp ? gte(logs.createdAt, q.start_timestamp) : undefined,
    q.end_timestamp ? lte(logs.createdAt, q.end_timestamp) : undefined,
    q.model_name ? eq(logs.modelName, q.model_name) : undefined,
    q.token_name ? eq(logs.tokenName, q.token_name) : undefined,
    scope.userId === undefined && q.username ? eq(logs.username, q.username) : undefined,
    scope.userId === undefined && q.channel_id ? eq(logs.channelId, q.channel_id) : undefined
  )
}

/** `logFilter` for a row read from the archive; `hidden` are the owners the scope may not see. */
function matchesFilter(r: Log, q: LogQuery, scope: LogScope, hidden: Set<number>): boolean {
  const own = scope.userId !== undefined
  return (
    (!own || r.userId === scope.userId) &&
    !hidden.has(r.userId) &&
    (!q.type || r.type === q.type) &&
    (!q.start_timestamp || r.createdAt >= q.start_timestamp) &&
    (!q.end_timestamp || r.createdAt <= q.end_timestamp) &&
    (!q.model_name || r.modelName === q.model_name) &&
    (!q.token_name || r.tokenName === q.token_name) &&
    (own || !q.username || r.username === q.username) &&
    (own || !q.channel_id || r.channelId === q.channel_id)
  )
}

/** Metadata users never see: which channels were tried (the channel column is hidden from them too) and the supplier's own error text. */
const ADMIN_ONLY_METADATA = ['tried', 'upstream_error']

function userMetadata(metadata: Log['metadata']) {
  if (!metadata) return metadata
  return Object.fromEntries(Object.entries(metadata).filter(([k]) => !ADMIN_ONLY_METADATA.includes(k)))
}

export function logView(l: Log, admin: boolean) {
  return {
    id: l.id,
    user_id: l.userId,
    created_at: l.createdAt,
    type: l.type,
    content: redactSecrets(l.content),
    username: l.username,
    token_name: l.tokenName,
    model_name: l.modelName,
    quota: l.quota,
    prompt_tokens: l.promptTokens,
    completion_tokens: l.completionTokens,
    request_time: l.requestTime,
    first_response_time: l.firstResponseTime,
    is_stream: l.isStream,
    metadata: admin ? l.metadata : userMetadata(l.metadata),
    ...(admin ? { channel_id: l.channelId, upstream_model: l.upstreamModel, source_ip: l.sourceIp, request_id: l.requestId } : {}),
  } satisfies LogRow
}

export async function listLogs(env: Env, q: LogQuery, scope: LogScope, admin: boolean) {
  const db = createDb(env.DB)
  const where = logFilter(q, scope)
  // Bounded count: never scan more than COUNT_CAP + 1 rows to size the pager.
  const capped = db
    .select({ one: sql`1`.as('one') })
    .from(logs)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('capped')
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(logs)
      .where(where)
      .orderBy(desc(logs.createdAt), desc(logs.id))
      .limit(q.page_size)
      .offset((q.p - 1) * q.page_size),
    db.select({ n: count() }).from(capped),
  ])
  const n = counted?.n ?? 0
  return { data: rows.map((r) => logView(r, admin)), page: q.p, size: q.page_size, total_count: Math.min(n, COUNT_CAP), total_capped: n > COUNT_CAP } satisfies LogPage
}

export async function sumQuota(env: Env, q: LogQuery, scope: LogScope) {
  const [row] = await createDb(env.DB)
    .select({ quota: sql<number>`COALESCE(SUM(${logs.quota}), 0)`, count: sql<number>`COUNT(*)` })
    .from(logs)
    .where(logFilter(q, scope))
  return { quota: row?.quota ?? 0, count: row?.count ?? 0 }
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'type',
  'username',
  'token_name',
  'model_name',
  'channel_id',
  'prompt_tokens',
  'completion_tokens',
  'quota',
  'request_time',
  'first_response_time',
  'is_stream',
  'content',
] as const

const EXPORT_CAP = 100_000
const EXPORT_CHUNK = 1000

/**
 * Stream the filtered rows as CSV (at most 100,000), newest first, 1,000 per query: D1 by falling
 * id, then the archived objects overlapping the time range, newest first. A row a concurrent
 * retention run moved to the archive after this export sent it from D1 is skipped there (`sentIds`);
 * a row moved before the D1 pass reached it is in an object listed before the archive pass
 * starts. So each row appears exactly once.
 */
export function exportCsv(env: Env, q: LogQuery, scope: LogScope, admin: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const columns = admin ? CSV_COLUMNS : CSV_COLUMNS.filter((c) => c !== 'channel_id')
  const bucket = env.LOG_ARCHIVE as R2Bucket | undefined
  const db = createDb(env.DB)
  const sentIds = new Set<number>()
  let beforeId: number | undefined
  let inArchive = false
  let hidden = new Set<number>()
  let cursor: { maxId: number; key: string } | null = null
  let pending: Log[] = []
  const emit = (controller: ReadableStreamDefaultController<Uint8Array>, rows: Log[]) => {
    const take = rows.slice(0, EXPORT_CAP - sentIds.size)
    for (const r of take) sentIds.add(r.id)
    const view = take.map((r) => logView(r, admin) as Record<string, unknown>)
    controller.enqueue(
      encoder.encode(view.map((r) => columns.map((c) => csvCell(c === 'created_at' ? new Date(Number(r.created_at) * 1000).toISOString() : r[c])).join(',')).join('\n') + '\n')
    )
  }
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode('\uFEFF' + columns.join(',') + '\n'))
    },
    async pull(controller) {
      if (sentIds.size >= EXPORT_CAP) return controller.close()
      if (!inArchive) {
        const rows = await db
          .select()
          .from(logs)
          .where(and(logFilter(q, scope), beforeId !== undefined ? lt(logs.id, beforeId) : undefined))
          .orderBy(desc(logs.id))
          .limit(EXPORT_CHUNK)
        if (rows.length > 0) {
          beforeId = rows[rows.length - 1]!.id
          return emit(controller, rows)
        }
        if (!bucket) return controller.close()
        inArchive = true
        hidden = scope.hiddenUsers ? await scope.hiddenUsers() : hidden
      }
      while (pending.length === 0) {
        const obj = await nextObject(env.DB, q.start_timestamp || undefined, q.end_timestamp || undefined, cursor)
        if (!obj) return controller.close()
        cursor = { maxId: obj.max_id, key: obj.key }
        pending = (await readObject(bucket!, obj.key)).filter((r) => !sentIds.has(r.id) && matchesFilter(r, q, scope, hidden))
      }
      emit(controller, pending.splice(0, EXPORT_CHUNK))
    },
  })
}
