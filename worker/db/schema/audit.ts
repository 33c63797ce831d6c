/**
 * The audit trail of the management API: one row per state-changing call by an administrator or
 * root (worker/logs/audit.ts writes it, worker/admin/audit/ reads it). Kept apart from `logs`, which
 * users read; retention follows LogCleanupDays.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    createdAt: integer('created_at').notNull(),
    actorId: integer('actor_id').notNull(),
    actorName: text('actor_name').notNull().default(''),
    /** The actor's role when acting: the rank rule of the list reads it. */
    actorRole: integer('actor_role').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull().default(''),
    targetId: text('target_id').notNull().default(''),
    /** Field → {from?, to?}, or "changed"/"unchanged" for a secret. */
    diff: text('diff', { mode: 'json' }).$type<Record<string, unknown>>(),
    method: text('method').notNull().default(''),
    path: text('path').notNull().default(''),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
  },
  (t) => [
    index('idx_audit_created').on(t.createdAt),
    index('idx_audit_actor_created').on(t.actorId, t.createdAt),
    index('idx_audit_action_created').on(t.action, t.createdAt),
    index('idx_audit_target_created').on(t.targetType, t.targetId, t.createdAt),
  ]
)

export type AuditLog = typeof auditLogs.$inferSelect
