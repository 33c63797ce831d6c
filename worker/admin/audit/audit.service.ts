/**
 * Reading the audit trail: the filters of GET /api/audit/ (actor, action, target, time), the rank
 * rule (root sees every row; an administrator their own rows and those of lower-ranked actors),
 * the wire view and the CSV export of the same filters.
 */
import { and, desc, eq, gte, like, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { auditLogs, type AuditLog } from '../../db/schema'
import { csvCell, csvTime } from '../../lib/csv'
import { offset, page } from '../../lib/paging'
import { withinRank } from '../../lib/rank'
import type { SessionUser } from '../../env'
import type { AuditChange, AuditRow } from '../../../shared/contract/audit'
import { ROLE } from '../../../shared/contract/enums'

export const auditQuery = z.object({
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  /** The actor's username, or their id. */
  actor: z.string().trim().max(64).optional(),
  /** An action (`channel.update`), or a target's actions with a trailing dot (`channel.`). */
  action: z
    .string()
    .trim()
    .max(64)
    .regex(/^[a-z0-9_.]*$/, 'must be an action such as channel.update')
    .optional(),
  target_type: z.string().trim().max(40).optional(),
  target_id: z.string().trim().max(200).optional(),
  start_timestamp: z.coerce.number().int().min(0).optional(),
  end_timestamp: z.coerce.number().int().min(0).optional(),
})

type AuditQuery = z.infer<typeof auditQuery>

/** Rank rule: an administrator sees their own rows and rows of actors below their role (then and now). */
function scope(actor: SessionUser): SQL | undefined {
  if (actor.role >= ROLE.ROOT) return undefined
  return and(or(eq(auditLogs.actorId, actor.id), lt(auditLogs.actorRole, actor.role)), withinRank(actor, auditLogs.actorId))
}

function filter(q: AuditQuery, actor: SessionUser): SQL | undefined {
  const who = q.actor ? (/^\d+$/.test(q.actor) ? eq(auditLogs.actorId, Number(q.actor)) : eq(auditLogs.actorName, q.actor)) : undefined
  const action = q.action ? (q.action.endsWith('.') ? like(auditLogs.action, `${q.action}%`) : eq(auditLogs.action, q.action)) : undefined
  return and(
    scope(actor),
    who,
    action,
    q.target_type ? eq(auditLogs.targetType, q.target_type) : undefined,
    q.target_id ? eq(auditLogs.targetId, q.target_id) : undefined,
    q.start_timestamp ? gte(auditLogs.createdAt, q.start_timestamp) : undefined,
    q.end_timestamp ? lte(auditLogs.createdAt, q.end_timestamp) : undefined
  )
}

const auditView = (r: AuditLog): AuditRow => ({
  id: r.id,
  actor_id: r.actorId,
  actor_name: r.actorName,
  actor_role: r.actorRole,
  action: r.action,
  target_type: r.targetType,
  target_id: r.targetId,
  diff: (r.diff ?? {}) as Record<string, AuditChange>,
  method: r.method,
  path: r.path,
  ip: r.ip,
  user_agent: r.userAgent,
  request_id: r.requestId,
  created_at: r.createdAt,
})

export async function listAudit(env: Env, q: AuditQuery, actor: SessionUser) {
  const db = createDb(env.DB)
  const where = filter(q, actor)
  const [rows, [count]] = await Promise.all([
    db.select().from(auditLogs).where(where).orderBy(desc(auditLogs.id)).limit(q.page_size).offset(offset(q)),
    db.select({ n: sql<number>`count(*)` }).from(auditLogs).where(where),
  ])
  return page(q, rows.map(auditView), count?.n ?? 0)
}

const CSV_COLUMNS = ['id', 'created_at', 'actor_id', 'actor_name', 'action', 'target_type', 'target_id', 'diff', 'ip', 'user_agent', 'request_id'] as const
const EXPORT_CAP = 100_000
const EXPORT_BATCH = 1000

/** The filtered rows as CSV, newest first, read in id-keyed batches as the download is consumed. */
export function exportAudit(env: Env, q: AuditQuery, actor: SessionUser): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const db = createDb(env.DB)
  let beforeId: number | undefined
  let sent = 0
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${CSV_COLUMNS.join(',')}\n`))
    },
    async pull(controller) {
      const rows = await db
        .select()
        .from(auditLogs)
        .where(and(filter(q, actor), beforeId !== undefined ? lt(auditLogs.id, beforeId) : undefined))
        .orderBy(desc(auditLogs.id))
        .limit(Math.min(EXPORT_BATCH, EXPORT_CAP - sent))
      if (rows.length > 0) {
        const lines = rows.map((r) => {
          const v = auditView(r) as unknown as Record<string, unknown>
          return CSV_COLUMNS.map((c) => csvCell(c === 'created_at' ? csvTime(r.createdAt) : c === 'diff' ? JSON.stringify(v.diff) : v[c])).join(',')
        })
        controller.enqueue(encoder.encode(`${lines.join('\n')}\n`))
        sent += rows.length
        beforeId = rows.at(-1)!.id
      }
      if (rows.length < EXPORT_BATCH || sent >= EXPORT_CAP) controller.close()
    },
  })
}
