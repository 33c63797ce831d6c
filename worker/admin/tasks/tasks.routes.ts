/**
 * /api/mj and /api/task: the console's Midjourney and async-task lists. `/self` for every signed-in
 * user (own rows), `/` for admins (every row they outrank, with channel and user filters).
 * Midjourney image links follow the image proxy setting.
 */
import { Hono } from 'hono'
import { adminRoute, userRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { listMj, listTasks, mjQuery, taskQuery } from './tasks.service'
import { requestImageRewriter } from '../../tasks/task-images'

export const taskListRoutes = new Hono<HonoEnv>()
  .get('/mj/', adminRoute, validate('query', mjQuery), async (c) => ok(c, await listMj(c.env, c.req.valid('query'), { admin: c.get('user')! }, await requestImageRewriter(c))))
  .get('/mj/self', userRoute, validate('query', mjQuery), async (c) =>
    ok(c, await listMj(c.env, c.req.valid('query'), { userId: c.get('user')!.id }, await requestImageRewriter(c)))
  )
  .get('/task/', adminRoute, validate('query', taskQuery), async (c) => ok(c, await listTasks(c.env, c.req.valid('query'), { admin: c.get('user')! }, c.executionCtx)))
  .get('/task/self', userRoute, validate('query', taskQuery), async (c) => ok(c, await listTasks(c.env, c.req.valid('query'), { userId: c.get('user')!.id }, c.executionCtx)))
