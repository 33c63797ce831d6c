/**
 * Redeeming a code for a user, shared by POST /api/user/topup and the Telegram bot's /recharge:
 * a single conditional UPDATE claims the code (one winner under concurrency), then the quota is
 * credited through the user's wallet once under `redemption:<id>`; a failed credit gives the code
 * back. A code carrying a plan starts a subscription to it instead (`redemption:<id>`, the same
 * give-back on failure). An administrator cannot redeem codes they created (root can).
 */
import { and, eq, ne } from 'drizzle-orm'
import { createDb } from '../db/client'
import { redemptions } from '../db/schema'
import { ApiError, badRequest } from '../lib/errors'
import { sha256Hex } from '../lib/crypto'
import { nowSeconds } from '../lib/time'
import { paySignupRewardsQuietly } from './signup-rewards'
import type { RedeemResult } from '../../shared/contract/redemptions'
import { walletOf } from '../wallet/wallet-client'
import { startSubscription, subscriptionByKey } from '../plans/subscriptions'
import { LOG_TYPE, ROLE, REDEMPTION_STATUS } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'redeem' })

export interface Redeemer {
  id: number
  username: string
  role: number
}

export async function redeemCode(env: Env, me: Redeemer, key: string, via = ''): Promise<RedeemResult> {
  const now = nowSeconds()
  const hash = await sha256Hex(key)
  // An administrator may not pay themself with codes they created; root may.
  const notOwnCode = me.role >= ROLE.ROOT ? undefined : ne(redemptions.createdBy, me.id)
  const [won] = await createDb(env.DB)
    .update(redemptions)
    .set({ status: REDEMPTION_STATUS.REDEEMED, userId: me.id, redeemedTime: now })
    .where(and(eq(redemptions.key, hash), eq(redemptions.status, REDEMPTION_STATUS.UNUSED), notOwnCode))
    .returning()
  if (!won) {
    const [own] = notOwnCode
      ? await createDb(env.DB)
          .select({ id: redemptions.id })
          .from(redemptions)
          .where(and(eq(redemptions.key, hash), eq(redemptions.createdBy, me.id)))
          .limit(1)
      : []
    if (own) throw new ApiError(403, 'You cannot redeem a code you created; ask root to credit your account')
    throw badRequest('Invalid or already used redemption code')
  }
  if (won.planId > 0) return redeemPlan(env, me, won)
  // The code is claimed first (one winner), then credited once under its id; if the credit fails
  // the claim is undone, so a failure never loses the code.
  let result
  try {
    result = await walletOf(env, me.id).credit({
      userId: me.id,
      amount: won.quota,
      key: `redemption:${won.id}`,
      log: {
        type: LOG_TYPE.TOPUP,
        createdAt: now,
        username: me.username,
        content: `Redeemed code "${won.name}" (#${won.id})${via}`,
        metadata: { redemption_id: won.id, created_by: won.createdBy },
      },
    })
  } catch (err) {
    result = undefined
    serverLog.error('redemption credit failed', { redemption_id: won.id, error: err })
  }
  if (!result?.ok) {
    await unclaim(env, won.id, me.id)
    throw new ApiError(503, 'The top-up could not be credited; the code is still unused, please try again')
  }
  // A first top-up releases the held sign-up rewards (once).
  await paySignupRewardsQuietly(env, me.id, 'top-up')
  return { quota: won.quota, balance: result.userQuota }
}

/** Gives a claimed code back (its credit or plan did not go through). */
async function unclaim(env: Env, codeId: number, userId: number) {
  await createDb(env.DB)
    .update(redemptions)
    .set({ status: REDEMPTION_STATUS.UNUSED, userId: 0, redeemedTime: 0 })
    .where(and(eq(redemptions.id, codeId), eq(redemptions.userId, userId), eq(redemptions.status, REDEMPTION_STATUS.REDEEMED)))
}

/**
 * A plan code: the claimed code starts a subscription once under `redemption:<id>` (the plan's
 * max_per_user applies); a refusal or failure gives the code back, and the refusal is the answer.
 */
async function redeemPlan(env: Env, me: Redeemer, won: typeof redemptions.$inferSelect): Promise<RedeemResult> {
  const key = `redemption:${won.id}`
  let sub
  try {
    sub = (await startSubscription(env, { userId: me.id, planId: won.planId, key, source: 'redemption', createdBy: won.createdBy })).subscription
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) {
      await unclaim(env, won.id, me.id)
      throw err
    }
    serverLog.error('redemption plan not started', { redemption_id: won.id, plan_id: won.planId, error: err })
    // Started before the failure (the wallet did not answer): the code is spent, the plan is held.
    sub = await subscriptionByKey(env, key)
    if (!sub) {
      await unclaim(env, won.id, me.id)
      throw new ApiError(503, 'The plan could not be started; the code is still unused, please try again')
    }
  }
  await paySignupRewardsQuietly(env, me.id, 'top-up')
  const balance = (await walletOf(env, me.id).balance({ userId: me.id }))?.quota ?? 0
  return { quota: 0, balance, subscription: { id: sub.id, plan_id: sub.planId, name: sub.terms.name } }
}
