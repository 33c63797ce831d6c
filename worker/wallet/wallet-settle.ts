/**
 * How a UserWallet ends an exact hold: `settleHold` charges the request's exact cost in full with
 * its log row, `refundHold` gives the hold back (and what an expiry charged). A balance hold moves
 * the balance; a plan hold (wallet-plans.ts) moves its subscription's windows instead, its row names
 * the subscription (`subscription_id`), and its overrun is the window's (not the user's debt). Either
 * way the token's quota, use and budget count the charge. The caller commits and schedules the flush.
 */
import type { SettleInput, WalletLog } from './wallet-types'
import type { UserState } from './wallet-state'
import type { WalletStore } from './wallet-store'
import type { LimitBook } from './wallet-limits'
import type { DebtBook } from './wallet-debt'
import { takeExpiredPlan, type WalletPlans } from './wallet-plans'
import { clockNow } from '../lib/clock'
import { LOG_TYPE } from '../../shared/contract/enums'

export interface SettleParts {
  store: WalletStore
  plans: WalletPlans
  limits: LimitBook
  debt: DebtBook
}

/** Charge `input.quota` for the hold `input.reqId` (less what an expiry already charged), with its row. */
export async function settleHold(w: SettleParts, user: UserState, input: SettleInput): Promise<{ charged: number; overrun: number }> {
  const { store } = w
  const cost = input.quota
  const reservation = store.release(input.reqId)
  w.limits.settle(input.reqId, input.tokens ?? 0)
  const expired = store.kv.get<number>(`X:${input.reqId}`)
  if (expired !== undefined) store.kv.delete(`X:${input.reqId}`)
  // A plan hold (or a plan hold an expiry charged) is charged to its subscription's windows, not the balance.
  const plan = reservation?.plan ?? (expired !== undefined ? takeExpiredPlan(store.kv, input.reqId) : undefined)
  const tokenId = reservation?.tokenId ?? input.log?.tokenId
  const token = tokenId ? await store.ensureToken(tokenId) : undefined
  const charged = cost - (expired ?? 0)
  const overrun = reservation ? Math.max(0, cost - reservation.amount) : 0
  const log: WalletLog = input.log ?? { type: LOG_TYPE.CONSUME, createdAt: Math.floor(clockNow() / 1000), tokenId, requestId: input.reqId }
  store.charge(user, token, charged, expired === undefined, log.createdAt * 1000, !plan)
  if (plan) w.plans.charge(plan, charged, expired === undefined ? 1 : 0, log.createdAt * 1000, clockNow())
  const notes: Record<string, unknown> = {}
  if (reservation) notes.reserved = reservation.amount
  if (overrun > 0) notes.overrun = overrun
  // A plan overrun goes past a window's allowance, never into the balance: it is no debt of the user's.
  if (!plan) w.debt.add(overrun, input.maxOverrun, log.username)
  if (expired !== undefined) notes.charged_on_expiry = expired
  if (user.quota < 0 && !plan) notes.balance_after = user.quota
  const row = { ...log, metadata: { ...log.metadata, ...notes }, ...(plan ? { subscriptionId: plan.sub } : {}) }
  store.appendLog(row, charged, input.channelId && charged ? [input.channelId, charged] : undefined)
  return { charged, overrun }
}

/**
 * Give the hold `input.reqId` back, with the error row when there is one. A plan hold's windows took
 * nothing (a request window's count was the hold itself), unless an expiry charged them: that charge
 * goes back to the window, on a row naming the subscription. True when a row was written.
 */
export async function refundHold(w: SettleParts, user: UserState, input: { reqId: string; log?: WalletLog }): Promise<boolean> {
  const { store } = w
  const reservation = store.release(input.reqId)
  w.limits.settle(input.reqId, 0)
  const expired = store.kv.get<number>(`X:${input.reqId}`)
  const log = input.log ?? { type: LOG_TYPE.CONSUME, createdAt: Math.floor(clockNow() / 1000), requestId: input.reqId }
  const plan = expired !== undefined ? (reservation?.plan ?? takeExpiredPlan(store.kv, input.reqId)) : undefined
  if (expired !== undefined) {
    store.kv.delete(`X:${input.reqId}`)
    const tokenId = reservation?.tokenId ?? input.log?.tokenId
    store.charge(user, tokenId ? await store.ensureToken(tokenId) : undefined, -expired, false, log.createdAt * 1000, !plan)
    if (plan) w.plans.charge(plan, -expired, -1, log.createdAt * 1000, clockNow())
  }
  if (!input.log && expired === undefined) return false
  const row = plan ? { ...log, subscriptionId: plan.sub } : log
  store.appendLog(expired !== undefined ? { ...row, metadata: { ...log.metadata, refunded_expiry_charge: expired } } : row, -(expired ?? 0))
  return true
}
