/**
 * /api/user/notices (any signed-in user): their own notices — the low-balance reminder mail and
 * their keys' budget notices by mail and Telegram (worker/notify/user-notices.ts). PUT takes all
 * three switches, validated; Telegram notices go out only while a chat is bound.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { userRoute } from '../../middleware/access'
import { notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { getUserNotices, saveUserNotices } from '../../notify/user-notices'
import type { HonoEnv } from '../../env'

const flag = z.boolean('must be true or false')
const prefsSchema = z.strictObject({ balance_email: flag, budget_email: flag, budget_telegram: flag })

export const userNoticeRoutes = new Hono<HonoEnv>()
  .get('/user/notices', userRoute, async (c) => {
    const view = await getUserNotices(c.env, c.get('user')!.id)
    if (!view) throw notFound('User not found')
    return ok(c, view)
  })
  .put('/user/notices', userRoute, validate('json', prefsSchema), async (c) => {
    const view = await saveUserNotices(c.env, c.get('user')!.id, c.req.valid('json'))
    if (!view) throw notFound('User not found')
    return ok(c, view, 'Saved')
  })
