/**
 * The default plan of new accounts (issue 33): when the DefaultPlanId setting names a plan, a new
 * account is subscribed to it at registration, once (`default-plan:<userId>`). A missing plan or a
 * failure is logged and never fails the registration itself.
 */
import type { Settings } from '../settings/store'
import { logger } from '../lib/logger'
import { startSubscription } from './subscriptions'

const serverLog = logger({ module: 'default-plan' })

export async function applyDefaultPlan(env: Env, settings: Settings, userId: number): Promise<void> {
  const planId = settings.int('DefaultPlanId')
  if (planId <= 0) return
  try {
    await startSubscription(env, { userId, planId, key: `default-plan:${userId}`, source: 'default' })
  } catch (err) {
    serverLog.error('default plan not applied', { user_id: userId, plan_id: planId, error: err })
  }
}
