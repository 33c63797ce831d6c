/**
 * A user switching auto-renew of their own subscription (PUT /api/user/subscription/:id). Another
 * user's subscription is 404; an ended one, or one that never expires, cannot renew (409). A
 * subscription renewed by a Stripe Subscription is switched at Stripe first (`cancel_at_period_end`
 * on off, back on with on): if Stripe already deleted it, switching on is refused (409) and the
 * subscription remembers the end. Any other subscription only keeps the flag; switching it on needs
 * a gateway to place renewal orders through, so only a subscription bought with an order may (409).
 */
import { createDb } from '../db/client'
import { payments } from '../db/schema'
import { eq } from 'drizzle-orm'
import { ApiError, conflict, notFound } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import type { SessionUser } from '../env'
import { findSubscription, type SubscriptionRow } from '../plans/subscriptions'
import { subscriptionViews } from '../plans/subscription-views'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { SubscriptionView } from '../../shared/contract/plans'
import { gatewayOf } from './gateways/registry'
import { parseConfig } from './gateway-rows'
import { GatewayError } from './gateways/types'
import { originOrder } from './plan-renewals'

const STRIPE_ENDED = 'Stripe has ended the recurring payment of this subscription; subscribe again to renew it'

async function markStripeEnded(env: Env, sub: SubscriptionRow) {
  await env.DB.prepare('UPDATE subscriptions SET auto_renew = 0, stripe_ended = 1, updated_at = ? WHERE id = ?').bind(nowSeconds(), sub.id).run()
}

/** Switches the Stripe Subscription behind `sub`; false when Stripe had already deleted it. */
async function switchAtStripe(env: Env, sub: SubscriptionRow, on: boolean): Promise<boolean> {
  const origin = await originOrder(env, sub)
  const [row] = origin ? await createDb(env.DB).select().from(payments).where(eq(payments.id, origin.gatewayId)).limit(1) : []
  const gateway = row && gatewayOf(row.type)
  if (!row || !gateway?.recurring) throw new ApiError(503, 'The payment gateway of this subscription is no longer configured; auto-renew cannot be changed')
  try {
    return (await gateway.recurring.setRenewal(parseConfig(row), sub.stripeSubscriptionId, on)) === 'ok'
  } catch (err) {
    throw new ApiError(502, err instanceof GatewayError ? `The payment gateway refused the change: ${err.message}` : 'The payment gateway could not be reached; please try again', {
      cause: err,
    })
  }
}

export async function setAutoRenew(env: Env, me: SessionUser, id: number, on: boolean): Promise<SubscriptionView> {
  const sub = await findSubscription(env, id).catch(() => undefined)
  if (!sub || sub.userId !== me.id) throw notFound('Subscription not found')
  if (sub.status !== SUBSCRIPTION_STATUS.ACTIVE) throw conflict('This subscription has ended')
  if (on && sub.expiresAt === 0) throw conflict('This subscription never expires, so it has nothing to renew')
  if (sub.stripeSubscriptionId) {
    if (on && sub.stripeEnded) throw conflict(STRIPE_ENDED)
    if (!sub.stripeEnded && !(await switchAtStripe(env, sub, on))) {
      await markStripeEnded(env, sub)
      if (on) throw conflict(STRIPE_ENDED)
    }
  } else if (on && !(await originOrder(env, sub))) {
    throw conflict('Only a subscription bought through a payment method can renew')
  }
  // A deletion that arrived meanwhile wins over switching on.
  await env.DB.prepare('UPDATE subscriptions SET auto_renew = ?, updated_at = ? WHERE id = ? AND (? = 0 OR stripe_ended = 0)')
    .bind(on ? 1 : 0, nowSeconds(), sub.id, on ? 1 : 0)
    .run()
  const [view] = await subscriptionViews(env, [await findSubscription(env, sub.id)])
  return view!
}
