/**
 * /api/audit (administrators): the audit trail under the rank rule, filtered and paged, and its
 * CSV export (a step-up action, like the log export).
 */
import { Hono } from 'hono'
import { adminRoute } from '../../middleware/access'
import { requireStepUp } from '../../accounts/step-up'
import { csvResponse } from '../../lib/csv'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { auditQuery, exportAudit, listAudit } from './audit.service'

export const auditRoutes = new Hono<HonoEnv>()
  .get('/audit/', adminRoute, validate('query', auditQuery), async (c) => ok(c, await listAudit(c.env, c.req.valid('query'), c.get('user')!)))
  .get('/audit/export', adminRoute, requireStepUp, validate('query', auditQuery), (c) => csvResponse(exportAudit(c.env, c.req.valid('query'), c.get('user')!), 'audit'))
