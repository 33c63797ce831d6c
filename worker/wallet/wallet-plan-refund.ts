/**
 * A failed task's plan charge given back (issue 33). A task whose submit a subscription covered was
 * charged to that subscription's windows, not the balance; when it fails later its refund goes back
 * to the same windows — never to the balance — once per idempotency key (the task's
 * `task-refund:<platform>:<id>`, the key a balance refund would use, so the two can never both
 * apply), with exactly one log row:
 * - the windows it counted in are still the current ones: −cost on the quota windows and item, −1 on
 *   the request windows and item (wallet-plans.ts giveBack), on a SYSTEM row naming the subscription
 *   with quota −cost (a give-back row: the registry's view counts it −1 in request windows);
 * - a window rolled over, or the subscription ended: nothing goes back; the row says so (quota 0,
 *   `plan_returned: false`) and names the subscription in its metadata only, so it counts in no window.
 * Either way the token's remaining and used quota and the user's used quota come back, as a balance
 * refund does. Every await comes before the key is checked, so racing refunds apply once.
 */
import type { PlanRefundInput, PlanRefundResult } from './wallet-types'
import type { AppliedCredit } from './wallet-state'
import type { WalletStore } from './wallet-store'
import type { WalletPlans } from './wallet-plans'
import { isAmount } from './wallet-state'
import { clockNow } from '../lib/clock'

/** Apply the refund (the caller's `written` schedules the write-behind and flushes once it is stored). */
export async function refundToPlan(store: WalletStore, plans: WalletPlans, input: PlanRefundInput, written: () => Promise<unknown>): Promise<PlanRefundResult> {
  if (!isAmount('amount', input.amount) || !isAmount('at', input.at) || typeof input.key !== 'string' || !input.key) return { ok: false, reason: 'invalid_amount' }
  const user = await store.ensureUser(input.userId)
  if (!user) return { ok: false, reason: 'user_not_found' }
  await plans.ensure(input.userId)
  const token = input.restoreToken ? await store.ensureToken(input.restoreToken) : undefined
  // No await from here to the key's write: a racing refund of the same task finds it.
  if (store.kv.get<AppliedCredit>(`I:${input.key}`)) return { ok: true, returned: false, duplicate: true }
  // The row's second is the moment the windows are judged in, so the row falls where the give-back counts.
  const createdAt = Math.floor(clockNow() / 1000)
  const returned = plans.giveBack(input.plan, input.amount, input.at, createdAt * 1000)
  const quota = returned ? -input.amount : 0
  if (input.amount > 0) store.restoreUse(user, token, input.amount)
  const metadata = { ...input.log.metadata, subscription_id: input.plan.sub, plan_returned: returned, idempotency_key: input.key }
  const content = returned ? input.log.content : `${input.log.content ?? ''} Nothing went back: the plan window has rolled over since, or the subscription ended.`.slice(0, 1000)
  store.appendLog({ ...input.log, createdAt, content, metadata, ...(returned ? { subscriptionId: input.plan.sub } : {}) }, quota)
  store.kv.put(`I:${input.key}`, { at: Date.now(), amount: 0, userQuota: user.quota } satisfies AppliedCredit)
  store.commit()
  await written()
  return { ok: true, returned }
}
