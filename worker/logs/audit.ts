/**
 * The audit trail's writer: one `audit_logs` row per state-changing management call by an
 * administrator or root, and the field-level diff it stores. Secrets never enter a row: a field
 * whose name reads as a secret (key, password, token, secret…) or a secret setting's value is
 * recorded only as "changed"/"unchanged", and every other string passes through redactSecrets.
 */
import { createDb } from '../db/client'
import { auditLogs } from '../db/schema'
import { redactSecrets } from '../lib/redact'
import { nowSeconds } from '../lib/time'
import type { SessionUser } from '../env'
import type { AuditChange } from '../../shared/contract/audit'
import { SECRET_OPTION_KEYS } from '../../shared/contract/settings'

/** A field name that holds a secret (`key`, `api_key`, `password`, `SMTPToken`, `client_secret`, …). */
const SECRET_NAME = /(^|[._-])(key|keys|secret|password|passwd|token|code|codes)$|(Key|Secret|Password|Token)$|^(key|secret|password|token)[._-]/i

export const isSecretField = (path: string) => SECRET_NAME.test(path.split('.').at(-1) ?? path) || SECRET_OPTION_KEYS.has(path.split('.').at(-1) ?? '')

/** Longest string kept in a diff value; longer texts are cut (the diff is for reading, not restoring). */
const MAX_TEXT = 300
/** Deepest object level flattened into dotted paths; deeper values compare as JSON. */
const MAX_DEPTH = 3

function flatten(value: unknown, prefix: string, out: Map<string, unknown>, depth: number) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < MAX_DEPTH) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out, depth + 1)
    return
  }
  out.set(prefix, value)
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

function shown(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = redactSecrets(value)
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
  }
  if (value !== null && typeof value === 'object') return shown(JSON.stringify(value))
  return value
}

/** A settings write `{key, value}`: the value is secret when the key names a secret setting. */
function secretOptionValue(fields: Map<string, unknown>) {
  const key = fields.get('key')
  return typeof key === 'string' && fields.has('value') && isSecretField(key)
}

/**
 * The diff of one change. With `before` and `after`, only fields that differ are kept (secrets always
 * appear, as "changed" or "unchanged"); with only `after` (a create or a plain request) every field
 * is a `to`; with only `before` (a delete) every field is a `from`.
 * Fields in `ignore` (timestamps and the like) are left out; paths in `secrets` are secrets whatever
 * their name (a payment gateway's declared secret fields).
 */
export function auditDiff(before: unknown, after: unknown, opts: { ignore?: readonly string[]; secrets?: readonly string[] } = {}): Record<string, AuditChange> {
  const { ignore = [], secrets = [] } = opts
  const a = new Map<string, unknown>()
  const b = new Map<string, unknown>()
  if (before !== undefined) flatten(before, '', a, 0)
  if (after !== undefined) flatten(after, '', b, 0)
  const secretValue = secretOptionValue(b) || secretOptionValue(a)
  const diff: Record<string, AuditChange> = {}
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (ignore.includes(path)) continue
    const from = a.get(path)
    const to = b.get(path)
    const secret = isSecretField(path) || secrets.includes(path) || (secretValue && path === 'value')
    if (secret) {
      if (before === undefined || after === undefined) diff[path || 'value'] = 'changed'
      else diff[path || 'value'] = same(from, to) || !b.has(path) ? 'unchanged' : 'changed'
      continue
    }
    if (before === undefined) {
      diff[path || 'value'] = { to: shown(to) }
      continue
    }
    if (after === undefined) {
      diff[path || 'value'] = { from: shown(from) }
      continue
    }
    if (!b.has(path) || same(from, to)) continue
    diff[path || 'value'] = { from: shown(from), to: shown(to) }
  }
  return diff
}

interface AuditEntry {
  action: string
  targetType: string
  targetId: string
  diff: Record<string, AuditChange>
  method: string
  path: string
  ip: string
  userAgent: string
  requestId: string
}

/** Writes one audit row for `actor`. */
export async function writeAudit(env: Env, actor: SessionUser, entry: AuditEntry, at = nowSeconds()) {
  await createDb(env.DB)
    .insert(auditLogs)
    .values({
      createdAt: at,
      actorId: actor.id,
      actorName: actor.username,
      actorRole: actor.role,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId.slice(0, 200),
      diff: entry.diff,
      method: entry.method,
      path: entry.path.slice(0, 500),
      ip: entry.ip,
      userAgent: entry.userAgent.slice(0, 300),
      requestId: entry.requestId,
    })
}

/** Retention: audit rows created before `before` (Unix seconds) go, 5,000 per statement; returns the count. */
export async function deleteAuditBefore(env: Env, before: number, budgetMs = 20_000): Promise<number> {
  const started = Date.now()
  let total = 0
  for (;;) {
    const res = await env.DB.prepare('DELETE FROM audit_logs WHERE id IN (SELECT id FROM audit_logs WHERE created_at < ? LIMIT 5000)').bind(before).run()
    total += res.meta.changes
    if (res.meta.changes < 5000 || Date.now() - started > budgetMs) return total
  }
}
