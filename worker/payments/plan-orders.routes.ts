/**
 * POST /api/plan/subscribe (signed-in users): order a published plan through an enabled payment
 * gateway (plan-orders.ts). It answers a PlacedOrder like POST /api/user/order, so the console
 * continues the same way (redirect or QR); the order's status is polled at /api/user/order/status.
 * PUT /api/user/subscription/:id (signed-in users): switch auto-renew of one's own subscription
 * (subscription-auto-renew.ts); POST /api/user/subscription/:id/renew pays its open renewal order
 * through that order's gateway, answered like a placed order (renewal-orders.ts).
 */
import { Hono } from 'hono'
import { userRoute } from '../middleware/access'
import { criticalRateLimit } from '../middleware/rate-limit'
import { ok } from '../lib/respond'
import { idParam, validate } from '../lib/validate'
import { publicSiteUrl } from '../lib/base-path'
import type { HonoEnv } from '../env'
import { getSettings } from '../settings/store'
import { planSubscribeSchema, subscriptionAutoRenewSchema } from '../../shared/contract/plans'
import { createPlanOrder } from './plan-orders'
import { setAutoRenew } from './subscription-auto-renew'
import { payRenewal } from './renewal-orders'

export const planOrderRoutes = new Hono<HonoEnv>()
  .post('/plan/subscribe', userRoute, criticalRateLimit('order'), validate('json', planSubscribeSchema), async (c) => {
    const settings = await getSettings(c.env)
    return ok(c, await createPlanOrder(c.env, settings, c.get('user')!, c.req.valid('json'), publicSiteUrl(c)))
  })
  .put('/user/subscription/:id{[0-9]+}', userRoute, criticalRateLimit('order'), validate('param', idParam), validate('json', subscriptionAutoRenewSchema), async (c) => {
    const { auto_renew } = c.req.valid('json')
    return ok(c, await setAutoRenew(c.env, c.get('user')!, c.req.valid('param').id, auto_renew), auto_renew ? 'Auto-renew is on' : 'Auto-renew is off')
  })
  .post('/user/subscription/:id{[0-9]+}/renew', userRoute, criticalRateLimit('order'), validate('param', idParam), async (c) => {
    const settings = await getSettings(c.env)
    return ok(c, await payRenewal(c.env, settings, c.get('user')!, c.req.valid('param').id, publicSiteUrl(c)))
  })
