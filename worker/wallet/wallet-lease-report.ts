/**
 * A credit lease's report in a UserWallet (worker/billing/wallet-lease.ts is the isolate side): the
 * requests an isolate served from its lease are each charged in full with their log row — from the
 * balance, or, served from a plan lease (`LeaseItem.plan`, wallet-plan-lease.ts), from that
 * subscription's windows with a row naming it, one request each — and the lease shrinks by what
 * they covered (a cost beyond it is an overrun, logged); then the lease is extended, renewed or
 * released. A plan lease past its window or its subscription goes back here. A lease the wallet no
 * longer has (expired, revoked) still charges every request; the isolate learns `held: 0` and stops
 * spending from it. Each report number is applied once (`S:` keys). The caller schedules the flush.
 */
import type { LeaseSettleInput, LeaseSettleResult } from './wallet-types'
import { isAmount, type AppliedReport } from './wallet-state'
import type { RateRule } from './wallet-limits'
import { leasePlanView, planLeaseExtra, planLeaseStale, type PlanLeaseParts } from './wallet-plan-lease'
import { clockNow } from '../lib/clock'
import { LOG_TYPE, TOKEN_STATUS, USER_STATUS } from '../../shared/contract/enums'

export async function applyLeaseReport(w: PlanLeaseParts, input: LeaseSettleInput): Promise<LeaseSettleResult> {
  const { store, plans, admission } = w
  if (input.items.some((i) => !isAmount('quota', i.quota)) || (input.extend !== undefined && !isAmount('extend', input.extend))) {
    return { ok: false, reason: 'invalid_amount' }
  }
  if (input.extendRequests !== undefined && !isAmount('extendRequests', input.extendRequests)) return { ok: false, reason: 'invalid_amount' }
  const user = await store.ensureUser(input.userId)
  if (!user) return { ok: false, reason: 'user_not_found' }
  await plans.ensure(input.userId)
  if (input.seq !== undefined && input.seq <= (store.kv.get<AppliedReport>(`S:${input.leaseId}`)?.seq ?? 0)) {
    // Sent again after its answer was lost: already charged and logged.
    const lease = store.holds().get(input.leaseId)
    return { ok: true, held: lease?.amount ?? 0, userQuota: user.quota, charged: 0, overrun: 0, rateLimited: false, duplicate: true, ...leasePlanView(lease) }
  }
  let charged = 0
  let overrun = 0
  const now = Date.now()
  const rules = new Map<string, RateRule>()
  // The lease shrinks by what the batch spends, in one storage write after the loop.
  const held0 = store.holds().get(input.leaseId)
  let leaseLeft = held0?.amount ?? 0
  // Requests of the plan lease's subscription the batch charged (its request reservation shrinks by them).
  let requestsSpent = 0
  const token0 = held0 ? await store.ensureToken(held0.tokenId) : undefined
  // The items are this call's own copies (RPC), so their rows get the wallet's notes in place.
  for (const item of input.items) {
    if (item.limits) {
      admission.limits.record(item.limits.rules, item.limits.at, item.limits.tokens)
      for (const r of item.limits.rules) rules.set(`${r.kind}|${r.key}`, r)
    }
    const notes = (item.log.metadata ??= {})
    notes.lease = input.leaseId
    if (item.quota === 0 && item.log.type !== LOG_TYPE.CONSUME) {
      // A failed request: its error row only (its hold was given back to the lease in the isolate).
      store.appendLog(item.log, 0)
      continue
    }
    const plan = item.plan
    const covered = held0 ? Math.min(leaseLeft, item.quota) : 0
    leaseLeft -= covered
    if (plan && held0?.plan?.sub === plan.sub && item.until === held0.until) requestsSpent++
    const over = item.quota - covered
    const token = held0 ? token0 : item.log.tokenId ? await store.ensureToken(item.log.tokenId) : undefined
    const at = item.log.createdAt * 1000
    store.charge(user, token, item.quota, true, at, !plan)
    if (plan) plans.charge(plan, item.quota, 1, at, clockNow())
    if (over > 0) notes.overrun = over
    if (user.quota < 0 && !plan) notes.balance_after = user.quota
    store.appendLog(plan ? { ...item.log, subscriptionId: plan.sub } : item.log, item.quota, item.channelId && item.quota ? [item.channelId, item.quota] : undefined)
    charged += item.quota
    overrun += over
    // A plan overrun goes past a window's allowance, never into the balance: it is no debt of the user's.
    if (!plan) admission.debt.add(item.quota - (item.held ?? item.quota), item.maxOverrun, item.log.username)
  }
  const spent = held0 ? held0.amount - leaseLeft : 0
  if (input.seq !== undefined) store.kv.put(`S:${input.leaseId}`, { seq: input.seq, at: now } satisfies AppliedReport)
  const lease = store.holds().get(input.leaseId)
  if (lease && (input.release || planLeaseStale(plans, lease, clockNow()))) store.release(input.leaseId)
  else if (lease) {
    // Shrink by what the batch spent, then extend: one storage write for both.
    store.resize(input.leaseId, -spent, now, false, -requestsSpent)
    const token = input.extend || input.extendRequests ? await store.ensureToken(lease.tokenId) : undefined
    const enabled = token !== undefined && token.status === TOKEN_STATUS.ENABLED && user.status === USER_STATUS.ENABLED
    let extra = { units: 0, requests: 0 }
    if (enabled && lease.plan) extra = planLeaseExtra(plans, lease, store.tokenFree(token), input.extend ?? 0, input.extendRequests ?? 0, clockNow())
    else if (enabled && input.extend && !plans.anyInForce(clockNow())) {
      const free = Math.min(user.quota - store.holdTotal(), store.tokenFree(token))
      extra = { units: Math.max(0, Math.min(input.extend, free)), requests: 0 }
    }
    store.resize(input.leaseId, extra.units, now, true, extra.requests)
  }
  store.commit()
  const after = input.release ? undefined : store.holds().get(input.leaseId)
  const full = rules.size > 0 ? admission.limits.full([...rules.values()], clockNow()) : {}
  return {
    ok: true,
    held: after?.amount ?? 0,
    userQuota: user.quota,
    charged,
    overrun,
    rateLimited: admission.countRequests(input.items.length, input.rpm),
    ...store.takeCrossings(),
    ...(Object.keys(full).length > 0 ? { full } : {}),
    ...leasePlanView(after),
  }
}
