/**
 * Plan leases (issue 33): the credit lease of a user who holds a subscription in force draws from
 * the subscription's windows instead of the balance, so subscribers keep the warm path
 * (worker/billing/wallet-lease.ts). Restricted to the cases that are exact without knowing each
 * request: the lease draws only from the first subscription in consumption order, and only when it
 * has neither per-model items nor channel tags (it then covers every request alike, and no other
 * subscription comes before it). Otherwise the wallet answers `plans_active` and the requests take
 * the exact path (reserve/settle), as before.
 * - A plan lease is a lease hold marked with its subscription (`Reservation.plan`): it holds units
 *   (never more than the least quota window's remainder) and, when the plan counts requests,
 *   `requests` (never more than the least request window's remainder); both count against the
 *   windows like a plan hold, so exact holds and the lease never pass a window together.
 * - It may be spent until `until`, when its first window rolls or its subscription ends; the
 *   wallet gives it back at its first call after that (a grant or a report), and whenever the
 *   subscription it draws from is no longer the first leasable one. Any change of the user's
 *   subscriptions (syncUser: a revoke, an extension, a new one) sets `until` to 0: the lease goes
 *   back at its next call, and stays held until then — its isolate may still spend what it holds,
 *   so no window is ever promised twice. An isolate that never calls again loses it after the
 *   lease TTL (wallet-expiry.ts).
 * - Reported requests name the subscription they were served under (`LeaseItem.plan`) and are
 *   charged to its windows with rows naming it (wallet-lease-report.ts), one request each.
 */
import type { LeaseInput, LeasePlan, LeaseResult } from './wallet-types'
import type { Reservation } from './wallet-state'
import type { WalletStore } from './wallet-store'
import type { WalletAdmission } from './wallet-admission'
import type { WalletPlans } from './wallet-plans'

export interface PlanLeaseParts {
  store: WalletStore
  plans: WalletPlans
  admission: WalletAdmission
}

/** The plan a lease hold draws from, as grant and report answers name it (nothing for a balance lease). */
export function leasePlanView(r: Reservation | undefined): Partial<LeasePlan> {
  if (!r?.plan) return {}
  return { plan: r.plan, until: r.until ?? 0, ...(r.requests !== undefined ? { requests: r.requests } : {}) }
}

/** A plan lease that must go back: past its window or its subscription's end, or drawn from a subscription leases no longer draw from. */
export function planLeaseStale(plans: WalletPlans, r: Reservation, now: number): boolean {
  if (!r.plan) return false
  return now >= (r.until ?? 0) || plans.leaseSub(now)?.id !== r.plan.sub
}

/** What a plan lease may add now, up to `units` and `requests` asked for: within its windows' remainder and `tokenFree`. */
export function planLeaseExtra(plans: WalletPlans, r: Reservation, tokenFree: number, units: number, requests: number, now: number): { units: number; requests: number } {
  const sub = plans.leaseSub(now)
  if (!sub || !r.plan) return { units: 0, requests: 0 }
  const room = plans.leaseRoom(sub, r.plan.tz, now)
  return {
    units: Math.max(0, Math.min(units, room.units, tokenFree)),
    requests: room.requests === undefined ? 0 : Math.max(0, Math.min(requests, room.requests)),
  }
}

/**
 * Grant or extend a lease drawn from the first subscription in force (see the header), by up to
 * `amount` units (at least `floor`) and `plan.requests` requests (at least one, when the plan counts
 * requests). A lease of another kind, subscription or window under the same id goes back first.
 * `plans_active` when no subscription may be leased from now (the requests take the exact path).
 */
export async function leaseFromPlan(w: PlanLeaseParts, input: LeaseInput, now: number): Promise<LeaseResult> {
  const tz = input.plan?.tz
  if (!tz) return { ok: false, reason: 'plans_active' }
  const found: { room?: ReturnType<WalletPlans['leaseRoom']> } = {}
  const none = { refused: true as const, retryAfterMs: 0 }
  const admitted = await w.admission.admit(input.userId, input.tokenId, Math.min(input.floor, input.amount), undefined, false, { budget: input.budget }, input.debt, (floor) => {
    // Synchronous: the windows' room is read and held in one step.
    const sub = w.plans.leaseSub(now)
    if (!sub) return none
    const existing = w.store.holds().get(input.leaseId)
    if (existing && (existing.plan?.sub !== sub.id || existing.plan.tz !== tz || planLeaseStale(w.plans, existing, now))) w.store.release(input.leaseId)
    const room = w.plans.leaseRoom(sub, tz, now)
    if (room.units <= 0 || room.units < floor || room.requests === 0) return none
    found.room = room
    return { ref: { sub: sub.id, tz }, room: room.units }
  })
  w.store.commit()
  if (admitted.refused === 'plan_quota_exceeded') return { ok: false, reason: 'plans_active' }
  if (admitted.refused) return { ok: false, reason: admitted.refused }
  const room = found.room!
  const granted = Math.min(input.amount, admitted.free)
  const requests = room.requests === undefined ? undefined : Math.min(Math.max(1, input.plan!.requests), room.requests)
  const existing = w.store.holds().get(input.leaseId)
  let held: Reservation
  if (existing) held = w.store.resize(input.leaseId, granted, admitted.now, true, requests ?? 0)!
  else {
    held = { tokenId: admitted.token.id, amount: granted, at: admitted.now, lease: true, plan: admitted.plan!, until: room.until, ...(requests !== undefined ? { requests } : {}) }
    w.store.hold(input.leaseId, held)
  }
  return { ok: true, granted, held: held.amount, ...leasePlanView(held) }
}
