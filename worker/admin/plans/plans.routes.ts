/**
 * Subscription plans (issue 33), the management surface over worker/plans/: admin CRUD of plans
 * (DELETE marks a plan deleted and unpublished; running subscriptions keep their copied terms),
 * the published plans any signed-in user may read, and the caller's own subscriptions. Changing
 * a plan's price is root-only: a price is money (it sets what a gateway charges and what a revoke
 * refunds), while the rest of a plan is an administrator's to edit. A plan's group must be an
 * enabled group. Every change writes a manage log naming the actor.
 */
import { Hono } from 'hono'
import { adminRoute, userRoute } from '../../middleware/access'
import { forbidden } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { clientIp } from '../../lib/client-ip'
import { idParam, validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { auditLog } from '../../logs/audit-log'
import { assertGroup } from '../groups/groups.service'
import { createPlan, deletePlan, findPlan, listPlans, planView, toCents, updatePlan } from '../../plans/plan-store'
import { userSubscriptions } from '../../plans/subscription-views'
import { planBodySchema } from '../../../shared/contract/plans'
import { ROLE } from '../../../shared/contract/enums'

export const planRoutes = new Hono<HonoEnv>()
  .get('/plan/', adminRoute, async (c) => ok(c, (await listPlans(c.env)).map(planView)))
  .get('/plan/available', userRoute, async (c) => ok(c, (await listPlans(c.env, true)).map(planView)))
  .post('/plan/', adminRoute, validate('json', planBodySchema), async (c) => {
    const body = c.req.valid('json')
    if (body.group) await assertGroup(c.env, body.group)
    const row = await createPlan(c.env, body)
    const actor = c.get('user')!
    await auditLog(
      c.env,
      actor,
      actor,
      `${actor.username} created plan #${row.id} "${row.name}" at $${row.priceCents / 100}`,
      { plan_id: row.id, price_cents: row.priceCents },
      clientIp(c.req)
    )
    return ok(c, planView(row), 'Created')
  })
  .put('/plan/:id{[0-9]+}', adminRoute, validate('param', idParam), validate('json', planBodySchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    const before = await findPlan(c.env, c.req.valid('param').id)
    if (toCents(body.price) !== before.priceCents && actor.role < ROLE.ROOT) throw forbidden("Only root can change a plan's price")
    if (body.group && body.group !== before.group) await assertGroup(c.env, body.group)
    const row = await updatePlan(c.env, before.id, body)
    c.set('audit', { targetId: row.id, before: planView(before), after: planView(row) })
    await auditLog(
      c.env,
      actor,
      actor,
      `${actor.username} changed plan #${row.id} "${row.name}"${row.priceCents !== before.priceCents ? `: price $${before.priceCents / 100} → $${row.priceCents / 100}` : ''}`,
      { plan_id: row.id, price_cents_before: before.priceCents, price_cents: row.priceCents },
      clientIp(c.req)
    )
    return ok(c, planView(row), 'Updated')
  })
  .delete('/plan/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const row = await deletePlan(c.env, c.req.valid('param').id)
    const actor = c.get('user')!
    await auditLog(c.env, actor, actor, `${actor.username} deleted plan #${row.id} "${row.name}"`, { plan_id: row.id }, clientIp(c.req))
    return ok(c, null, 'Deleted')
  })
  .get('/user/subscription', userRoute, async (c) => ok(c, await userSubscriptions(c.env, c.get('user')!.id)))
