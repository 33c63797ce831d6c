/**
 * /api/log: admins see every log (/api/log/, /stat, /export, DELETE before a date for root),
 * users only their own (/api/log/self, /self/stat, /self/export). Admins below root do not see the
 * logs of other admins or of root (shared/rank).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { adminRoute, rootRoute, userRoute } from '../../middleware/access'
import { csvResponse as csv } from '../../lib/csv'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { requireStepUp } from '../../accounts/step-up'
import type { HonoEnv, SessionUser } from '../../env'
import { logs } from '../../db/schema'
import { outrankedIds, withinRank } from '../../lib/rank'
import { exportCsv, listLogs, logQuery, sumQuota } from './logs.service'
import { deleteLogsBefore } from '../../logs/log-retention'

/** Rank rule: an admin sees their own logs and those of lower roles, never a peer's or root's (archived rows too). */
const adminScope = (env: Env, actor: SessionUser) => ({ within: withinRank(actor, logs.userId), hiddenUsers: () => outrankedIds(env.DB, actor) })

export const logRoutes = new Hono<HonoEnv>()
  .get('/log/', adminRoute, validate('query', logQuery), async (c) => ok(c, await listLogs(c.env, c.req.valid('query'), adminScope(c.env, c.get('user')!), true)))
  .get('/log/stat', adminRoute, validate('query', logQuery), async (c) => ok(c, await sumQuota(c.env, c.req.valid('query'), adminScope(c.env, c.get('user')!))))
  .get('/log/export', adminRoute, requireStepUp, validate('query', logQuery), (c) => csv(exportCsv(c.env, c.req.valid('query'), adminScope(c.env, c.get('user')!), true), 'logs'))
  .get('/log/self', userRoute, validate('query', logQuery), async (c) => ok(c, await listLogs(c.env, c.req.valid('query'), { userId: c.get('user')!.id }, false)))
  .get('/log/self/stat', userRoute, validate('query', logQuery), async (c) => ok(c, await sumQuota(c.env, c.req.valid('query'), { userId: c.get('user')!.id })))
  .get('/log/self/export', userRoute, validate('query', logQuery), (c) => csv(exportCsv(c.env, c.req.valid('query'), { userId: c.get('user')!.id }, false), 'my-logs'))
  .delete('/log/', rootRoute, validate('query', z.object({ target_timestamp: z.coerce.number().int().min(1, 'target_timestamp is required') })), async (c) =>
    ok(c, await deleteLogsBefore(c.env, c.req.valid('query').target_timestamp), 'Deleted')
  )
