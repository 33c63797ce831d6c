/**
 * The audit trail's hook on the management API: after every state-changing call (not GET) by an
 * administrator or root that succeeds (status < 400), one audit row with the route's action, the
 * target, the diff the handler left in `c.var.audit` (before/after) or else the validated request
 * fields, and the client's address, user agent and request id. The write is awaited inside the
 * request (one small D1 insert on a management call, never the relay path): a row cannot be lost
 * to an isolate that ends before a waitUntil, and the caller's next read sees it. A failed write is
 * logged and never fails the call it records.
 */
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { HonoEnv } from '../../env'
import { clientIp } from '../../lib/client-ip'
import { auditDiff, writeAudit } from '../../logs/audit'
import { ROLE } from '../../../shared/contract/enums'
import { auditAction, targetTypeOf } from './audit-actions'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The validated JSON body, else the parsed one; {} when there is none. */
async function requestFields(c: Context<HonoEnv>): Promise<Record<string, unknown>> {
  const validated = (c.req.valid as (target: 'json') => unknown)('json')
  if (validated && typeof validated === 'object') return validated as Record<string, unknown>
  if (!c.req.header('content-type')?.includes('application/json')) return {}
  // Read from Hono's body cache when a handler parsed it; an unread or unreadable body is just empty.
  const body = await c.req.json().catch(() => ({}))
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}

export const auditTrail = createMiddleware<HonoEnv>(async (c, next) => {
  const actor = c.get('user')
  if (READS.has(c.req.method) || !actor || actor.role < ROLE.ADMIN) return next()
  await next()
  if (c.res.status >= 400) return
  try {
    const action = auditAction(c.req.method, c.req.routePath)
    if (!action) return
    const hint = c.get('audit') ?? {}
    const targetType = targetTypeOf(action)
    const body = await requestFields(c)
    const params = Object.values(c.req.param() as Record<string, string>)
    const { id, ...fields } = body
    const targetId = hint.targetId ?? params[0] ?? id ?? (targetType === 'option' ? body.key : '') ?? ''
    const diff = hint.before !== undefined || hint.after !== undefined ? auditDiff(hint.before, hint.after, hint) : auditDiff(undefined, fields)
    await writeAudit(c.env, actor, {
      action,
      targetType,
      targetId: String(targetId ?? ''),
      diff,
      method: c.req.method,
      path: c.req.path,
      ip: clientIp(c.req),
      userAgent: c.req.header('user-agent') ?? '',
      requestId: c.get('requestId') ?? '',
    })
  } catch (err) {
    c.var.log.error('audit row not written', { method: c.req.method, path: c.req.path, error: err })
  }
})
