/** Wire shape of the audit trail (GET /api/audit/), shared by the worker's view and the console page. */

/** One field of a diff: old and new value, or only "changed"/"unchanged" for a secret. */
export type AuditChange = { from?: unknown; to?: unknown } | 'changed' | 'unchanged'

export interface AuditRow {
  id: number
  actor_id: number
  actor_name: string
  actor_role: number
  action: string
  target_type: string
  target_id: string
  diff: Record<string, AuditChange>
  method: string
  path: string
  ip: string
  user_agent: string
  request_id: string
  created_at: number
}
