/**
 * POST /api/plan/subscribe (signed-in users): order a published plan through an enabled payment
 * gateway (plan-orders.ts). It answers a PlacedOrder like POST /api/user/order, so the console
 * continues the same way (redirect or QR); the order's status is polled at /api/user/order/status.
 */
import { Hono } from 'hono'
import { userRoute } from '../middleware/access'
import { criticalRateLimit } from '../middleware/rate-limit'
import { ok } from '../lib/respond'
import { validate } from '../lib/validate'
import { publicSiteUrl } from '../lib/base-path'
import type { HonoEnv } from '../env'
import { getSettings } from '../settings/store'
import { planSubscribeSchema } from '../../shared/contract/plans'
import { createPlanOrder } from './plan-orders'

export const planOrderRoutes = new Hono<HonoEnv>().post('/plan/subscribe', userRoute, criticalRateLimit('order'), validate('json', planSubscribeSchema), async (c) => {
  const settings = await getSettings(c.env)
  return ok(c, await createPlanOrder(c.env, settings, c.get('user')!, c.req.valid('json'), publicSiteUrl(c)))
})
