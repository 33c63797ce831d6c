/**
 * Administrators' hands on subscriptions (issue 33): grant a plan without payment (idempotent by
 * `key`; without one each call is a new grant), revoke with or without a pro-rata refund to the
 * balance, extend, and list a user's subscriptions. An administrator acts only on themself and on
 * users of a lower role (lib/rank.ts), and never grants, extends or refunds their own subscriptions
 * (root may), as they never raise their own balance; each action writes a manage log in the user's log naming
 * the actor (a refund's credit row is that log), beside the audit row of the middleware.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { adminRoute } from '../../middleware/access'
import { forbidden, notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { clientIp } from '../../lib/client-ip'
import { assertRank } from '../../lib/rank'
import { randomString } from '../../lib/crypto'
import { validate } from '../../lib/validate'
import type { HonoEnv, SessionUser } from '../../env'
import { auditLog } from '../../logs/audit-log'
import { findPlanUser } from '../../plans/plan-groups'
import { findSubscription, startSubscription } from '../../plans/subscriptions'
import { extendSubscription, revokeSubscription } from '../../plans/subscription-end'
import { subscriptionViews, userSubscriptions } from '../../plans/subscription-views'
import { ROLE } from '../../../shared/contract/enums'
import { planExtendSchema, planGrantSchema, planRevokeSchema, type PlanRevokeResult } from '../../../shared/contract/plans'

const userQuery = z.object({ user_id: z.coerce.number().int().positive('must be a positive integer') })

/** The subscription's owner, if the actor may act on them. */
async function rankedOwner(env: Env, actor: SessionUser, userId: number) {
  const user = await findPlanUser(env, userId)
  if (!user) throw notFound('User not found')
  assertRank(actor, user)
  return user
}

/** Like a balance, a plan is money: administrators below root never give one (or time, or a refund) to themselves. */
function assertNotOwnGain(actor: SessionUser, userId: number) {
  if (actor.role < ROLE.ROOT && actor.id === userId) throw forbidden('Only root can grant, extend or refund your own subscriptions')
}

export const subscriptionAdminRoutes = new Hono<HonoEnv>()
  .get('/plan/subscriptions', adminRoute, validate('query', userQuery), async (c) => {
    const user = await rankedOwner(c.env, c.get('user')!, c.req.valid('query').user_id)
    return ok(c, await userSubscriptions(c.env, user.id))
  })
  .post('/plan/grant', adminRoute, validate('json', planGrantSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    const user = await rankedOwner(c.env, actor, body.user_id)
    assertNotOwnGain(actor, user.id)
    const key = body.key ? `grant:${body.key}` : `grant:${randomString(24)}`
    const { subscription, created } = await startSubscription(c.env, { userId: user.id, planId: body.plan_id, key, source: 'grant', createdBy: actor.id })
    if (created) {
      await auditLog(
        c.env,
        actor,
        user,
        `${actor.username} granted plan "${subscription.terms.name}" (#${subscription.planId}) to ${user.username}: subscription #${subscription.id}`,
        { subscription_id: subscription.id, plan_id: subscription.planId, admin_id: actor.id },
        clientIp(c.req)
      )
    }
    c.set('audit', { targetId: user.id, after: { subscription_id: subscription.id, plan_id: subscription.planId, created } })
    const [view] = await subscriptionViews(c.env, [subscription])
    return ok(c, view, created ? 'Granted' : 'Already granted')
  })
  .post('/plan/revoke', adminRoute, validate('json', planRevokeSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    const user = await rankedOwner(c.env, actor, (await findSubscription(c.env, body.subscription_id)).userId)
    if (body.refund) assertNotOwnGain(actor, user.id)
    const { subscription, refunded } = await revokeSubscription(c.env, body.subscription_id, { refund: body.refund, actor })
    if (refunded === 0) {
      await auditLog(
        c.env,
        actor,
        user,
        `${actor.username} revoked subscription #${subscription.id} to "${subscription.terms.name}" without refund`,
        { subscription_id: subscription.id, plan_id: subscription.planId, admin_id: actor.id },
        clientIp(c.req)
      )
    }
    c.set('audit', { targetId: user.id, after: { subscription_id: subscription.id, refunded } })
    const [view] = await subscriptionViews(c.env, [subscription])
    return ok(c, { subscription: view!, refunded } satisfies PlanRevokeResult, 'Revoked')
  })
  .post('/plan/extend', adminRoute, validate('json', planExtendSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    const before = await findSubscription(c.env, body.subscription_id)
    const user = await rankedOwner(c.env, actor, before.userId)
    assertNotOwnGain(actor, user.id)
    const after = await extendSubscription(c.env, before.id, body.duration_unit, body.duration_count)
    await auditLog(
      c.env,
      actor,
      user,
      `${actor.username} extended subscription #${after.id} to "${after.terms.name}" by ${body.duration_count} ${body.duration_unit}`,
      { subscription_id: after.id, expires_at_before: before.expiresAt, expires_at: after.expiresAt, admin_id: actor.id },
      clientIp(c.req)
    )
    c.set('audit', { targetId: user.id, before: { expires_at: before.expiresAt }, after: { expires_at: after.expiresAt } })
    const [view] = await subscriptionViews(c.env, [after])
    return ok(c, view, 'Extended')
  })
