/**
 * Subscription plans inside a UserWallet (issue 33): which of the user's active subscriptions covers
 * a request, and the use of each subscription's windows and model items. The registry
 * (worker/plans/) owns the subscriptions in D1 and calls syncUser after every change; the wallet
 * keeps their list (`subs`) and each subscription's window use (`P:<subscriptionId>`) in its own
 * storage, so the use is exact under any concurrency and survives restarts.
 *
 * - A window's use is `{start, used}`: quota units or requests, in the window that starts at
 *   `start` (windowBounds in the BudgetTimezone the worker sends); it rolls to 0 when the window
 *   start moves (a new period, or a new time zone). A per-model item counts in the period of the
 *   plan's first window (never rolling when the plan has no window).
 * - A plan reservation is a hold marked with its subscription (`Reservation.plan`): it holds the
 *   token's quota but not the balance. What is free in a window is its allowance less its use and
 *   less what the subscription's open holds take (their amounts; one per hold in request windows).
 * - A charge (settle, expiry) adds the cost to every quota window and the quota item, and one to
 *   every request window and the request item, when its log row falls in the current window — so
 *   Σ of the subscription's rows in a window is the window's use, always.
 * - A failed task's charge goes back (giveBack, wallet-plan-refund.ts): −cost on quota windows, −1 on
 *   request windows, on a row naming the subscription — only while the charge's windows are current.
 * - A plan with channel tags covers a request only when the worker names, among the tags of the
 *   channels able to serve it (`tags`), one of the plan's (worker/channels/tag-scope.ts); the
 *   hold's answer names the covering subscription and its tags, and the worker then routes the
 *   request to those channels only. A tagged plan that cannot cover a request is passed over like
 *   a full one: the next subscription, then the balance, or a refusal when it forbids the fallback.
 * - A credit lease may draw from a subscription (wallet-plan-lease.ts) only when it is the first in
 *   consumption order and has neither model items nor channel tags (it then covers every request
 *   alike): `leaseSub` names it, `leaseRoom` says what its windows have free. A plan lease is a plan
 *   hold too: its amount, and the requests it holds (`Reservation.requests`), count against room.
 */
import { windowBounds } from '../lib/budget-period'
import type { PlanModelItem, PlanPeriod, PlanTerms } from '../../shared/contract/plans'
import { SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { WalletStore } from './wallet-store'

/** An active subscription as the wallet keeps it (`subs`). */
export interface PlanSub {
  id: number
  startsAt: number
  /** Unix ms; 0 = never. */
  expiresAt: number
  terms: PlanTerms
}

/** A window's (or model item's) use in the window that starts at `start`. */
export interface Slot {
  period?: PlanPeriod
  start: number
  used: number
}

/** A subscription's use (`P:<id>`), index-aligned with its terms' windows and models. */
export interface PlanUse {
  windows: Slot[]
  items: Slot[]
}

/** Which subscription a plan hold draws from, the model item it counts in, and how to roll its windows. */
export interface PlanRef {
  sub: number
  item?: number
  tz: string
}

/** The subscription that covered a hold and the channel tags it limits the request to (none: any channel), as the reserve answer names it. */
export interface PlanCovered extends PlanRef {
  tags: string[]
}

/** What covers a request: a subscription (holding up to `room`), a refusal, or nothing (the balance). */
export type PlanCover = { ref: PlanRef; room: number } | { refused: true; retryAfterMs: number } | undefined

/** What the registry's view shows of one window (planUse RPC). */
export interface WindowUse {
  period: PlanPeriod | ''
  used: number
  start: number
  end: number
}

const inForce = (s: PlanSub, now: number) => s.startsAt <= now && (s.expiresAt === 0 || s.expiresAt > now)

/** `*` is a wildcard in a model pattern. */
function matches(pattern: string, model: string): boolean {
  if (!pattern.includes('*')) return pattern === model
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`
  )
  return re.test(model)
}

/** The index of the model item that applies to `model`: the first matching pattern, else the `*` line. */
export function modelItem(models: PlanModelItem[], model: string): number | undefined {
  const first = models.findIndex((m) => m.pattern !== '*' && matches(m.pattern, model))
  if (first >= 0) return first
  const other = models.findIndex((m) => m.pattern === '*')
  return other >= 0 ? other : undefined
}

/** A plan without channel tags serves any request; one with tags, a request some channel with one of them can serve. */
const servesTags = (terms: PlanTerms, tags: readonly string[]) => !terms.channel_tags?.length || terms.channel_tags.some((t) => tags.includes(t))

const allowance = (a: { quota: number } | { requests: number } | { excluded: true }) => ('quota' in a ? { quota: a.quota } : 'requests' in a ? { requests: a.requests } : undefined)

export class WalletPlans {
  private subs: PlanSub[] | undefined
  private readonly uses = new Map<number, PlanUse>()
  private loading: Promise<void> | undefined

  /** The wallet's state and D1, read at each use (tests swap them). */
  constructor(private readonly parts: () => { store: WalletStore; db: D1Database }) {}

  private get kv() {
    return this.parts().store.kv
  }

  /** The subscriptions as last read from D1 (none before the first read). */
  private list(): PlanSub[] {
    this.subs ??= this.kv.get<PlanSub[]>('subs')
    return this.subs ?? []
  }

  /** The subscriptions, from storage, or from D1 the first time this wallet needs them. */
  async ensure(userId: number): Promise<PlanSub[]> {
    if (this.list().length > 0 || this.subs) return this.list()
    this.loading ??= this.reload(userId).finally(() => (this.loading = undefined))
    await this.loading
    return this.list()
  }

  /** Read the user's active subscriptions from D1 again (syncUser). Use of ended ones is forgotten. */
  async reload(userId: number): Promise<void> {
    const rows = await this.parts()
      .db.prepare('SELECT id, starts_at, expires_at, terms FROM subscriptions WHERE user_id = ? AND status = ? ORDER BY id')
      .bind(userId, SUBSCRIPTION_STATUS.ACTIVE)
      .all<{ id: number; starts_at: number; expires_at: number; terms: string }>()
    const subs = rows.results.map((r) => ({ id: r.id, startsAt: r.starts_at, expiresAt: r.expires_at, terms: JSON.parse(r.terms) as PlanTerms }))
    for (const old of this.list()) {
      if (subs.some((s) => s.id === old.id)) continue
      this.uses.delete(old.id)
      this.kv.delete(`P:${old.id}`)
    }
    this.subs = subs
    this.kv.put('subs', subs)
  }

  /** Whether a subscription is in force now (no lease is granted then). */
  anyInForce(now: number): boolean {
    return this.list().some((s) => inForce(s, now))
  }

  /** Subscriptions in force, in consumption order: plan priority (high first), then the earliest expiry. */
  private ordered(now: number): PlanSub[] {
    const end = (s: PlanSub) => (s.expiresAt === 0 ? Number.MAX_SAFE_INTEGER : s.expiresAt)
    return this.list()
      .filter((s) => inForce(s, now))
      .sort((a, b) => b.terms.priority - a.terms.priority || end(a) - end(b) || a.id - b.id)
  }

  /** The subscription's use, its windows rolled to the ones containing `now`. */
  private use(sub: PlanSub, tz: string, now: number): PlanUse {
    const use = this.uses.get(sub.id) ?? this.kv.get<PlanUse>(`P:${sub.id}`) ?? { windows: [], items: [] }
    this.uses.set(sub.id, use)
    const roll = (slots: Slot[], i: number, period: PlanPeriod | undefined) => {
      const start = period ? windowBounds(period, tz, now).start : 0
      const s = slots[i]
      if (!s || s.start !== start || s.period !== period) slots[i] = { period, start, used: 0 }
    }
    sub.terms.windows.forEach((w, i) => roll(use.windows, i, w.period))
    use.windows.length = sub.terms.windows.length
    const itemPeriod = sub.terms.windows[0]?.period
    sub.terms.models.forEach((_, i) => roll(use.items, i, itemPeriod))
    use.items.length = sub.terms.models.length
    return use
  }

  /** What open holds of `sub` take: units and holds, in all and in model item `item`. */
  private held(sub: number, item: number | undefined) {
    const out = { quota: 0, requests: 0, itemQuota: 0, itemRequests: 0 }
    for (const r of this.parts().store.holds().values()) {
      if (r.plan?.sub !== sub) continue
      // A plan lease holds as many requests as it says; any other hold, its own.
      const requests = r.lease ? (r.requests ?? 0) : 1
      out.quota += r.amount
      out.requests += requests
      if (item !== undefined && r.plan.item === item) {
        out.itemQuota += r.amount
        out.itemRequests++
      }
    }
    return out
  }

  /**
   * The first subscription (in consumption order) whose windows and model item all have room for at
   * least `need` units (and one more request) for `model`, with the units it may hold. When none has
   * and a subscription that would cover the model forbids the balance fallback: a refusal, retried
   * when the earliest such subscription's full windows have all rolled. A subscription limited to
   * channel tags counts only when `tags` (those of the channels able to serve the request) names
   * one of them; otherwise it is passed over like a full one, never to be retried by waiting.
   */
  cover(model: string, tz: string, need: number, now: number, tags: readonly string[] = []): PlanCover {
    let retryAt = Number.POSITIVE_INFINITY
    let refuse = false
    for (const sub of this.ordered(now)) {
      const item = modelItem(sub.terms.models, model)
      const line = item === undefined ? undefined : sub.terms.models[item]
      if (line && 'excluded' in line) continue
      if (!servesTags(sub.terms, tags)) {
        refuse ||= !sub.terms.allow_balance_fallback
        continue
      }
      const use = this.use(sub, tz, now)
      const held = this.held(sub.id, item)
      let room = Number.MAX_SAFE_INTEGER
      let freeAt = 0
      const check = (a: { quota?: number; requests?: number }, slot: Slot, heldQuota: number, heldRequests: number) => {
        const free = a.quota !== undefined ? a.quota - slot.used - heldQuota : (a.requests ?? 0) - slot.used - heldRequests
        if (a.quota !== undefined) room = Math.min(room, free)
        const full = a.quota !== undefined ? free < need || free <= 0 : free < 1
        if (full) freeAt = Math.max(freeAt, slot.period ? windowBounds(slot.period, tz, now).end : Number.POSITIVE_INFINITY)
      }
      sub.terms.windows.forEach((w, i) => check(w, use.windows[i]!, held.quota, held.requests))
      const limit = line && allowance(line)
      if (limit && item !== undefined) check(limit, use.items[item]!, held.itemQuota, held.itemRequests)
      if (freeAt === 0) return { ref: { sub: sub.id, tz, ...(item !== undefined ? { item } : {}) }, room }
      if (!sub.terms.allow_balance_fallback) {
        refuse = true
        retryAt = Math.min(retryAt, freeAt)
      }
    }
    if (!refuse) return undefined
    return { refused: true, retryAfterMs: Number.isFinite(retryAt) ? Math.max(1000, retryAt - now) : 3_600_000 }
  }

  /** The subscription a credit lease may draw from now: the first in consumption order, when it has no model items and no channel tags. */
  leaseSub(now: number): PlanSub | undefined {
    const first = this.ordered(now)[0]
    return first && first.terms.models.length === 0 && !first.terms.channel_tags?.length ? first : undefined
  }

  /**
   * What `sub`'s windows have free now beyond its use and every open hold: units (the least quota
   * window's; the safe maximum without one) and requests (the least request window's; undefined
   * without one), and when (ms) the first window rolls or the subscription ends.
   */
  leaseRoom(sub: PlanSub, tz: string, now: number): { units: number; requests?: number; until: number } {
    const use = this.use(sub, tz, now)
    const held = this.held(sub.id, undefined)
    let units = Number.MAX_SAFE_INTEGER
    let requests: number | undefined
    let until = sub.expiresAt === 0 ? Number.MAX_SAFE_INTEGER : sub.expiresAt
    sub.terms.windows.forEach((w, i) => {
      const used = use.windows[i]!.used
      if ('quota' in w) units = Math.min(units, w.quota - used - held.quota)
      else requests = Math.min(requests ?? Number.MAX_SAFE_INTEGER, w.requests - used - held.requests)
      until = Math.min(until, windowBounds(w.period, tz, now).end)
    })
    return { units: Math.max(0, units), ...(requests !== undefined ? { requests: Math.max(0, requests) } : {}), until }
  }

  /** The reserve answer's account of a plan hold: its subscription and the tags it limits the request to. */
  covered(ref: PlanRef | undefined): { plan?: PlanCovered } {
    if (!ref) return {}
    const tags = this.list().find((s) => s.id === ref.sub)?.terms.channel_tags ?? []
    return { plan: { ...ref, tags } }
  }

  /**
   * Count a charge of `amount` units (signed; `requests` is +1 for a charged request, −1 for an
   * expiry charge given back) in the subscription's current windows, when its row at `at` (ms)
   * falls in them. A subscription the wallet no longer holds counts nowhere.
   */
  charge(ref: PlanRef, amount: number, requests: number, at: number, now: number) {
    const sub = this.list().find((s) => s.id === ref.sub)
    if (!sub) return
    const use = this.use(sub, ref.tz, now)
    const add = (a: { quota?: number; requests?: number } | undefined, slot: Slot | undefined) => {
      if (!a || !slot) return
      const end = slot.period ? windowBounds(slot.period, ref.tz, slot.start).end : Number.POSITIVE_INFINITY
      if (at < slot.start || at >= end) return
      slot.used += a.quota !== undefined ? amount : requests
    }
    sub.terms.windows.forEach((w, i) => add(w, use.windows[i]))
    if (ref.item !== undefined) {
      const line = sub.terms.models[ref.item]
      add(line && allowance(line), use.items[ref.item])
    }
    this.kv.put(`P:${sub.id}`, use)
  }

  /**
   * Give back the charge of a row written at `at` (a failed task's): `amount` units to the quota
   * windows and quota item, one to the request windows and request item — only when every window
   * (and the item) it counted in is still the current one in `ref.tz` at `now`, so the give-back
   * row falls in the same windows as the charge's row and Σ rows = use still holds. When one has
   * rolled over (or the subscription ended) nothing goes back. True when it went back.
   */
  giveBack(ref: PlanRef, amount: number, at: number, now: number): boolean {
    const sub = this.list().find((s) => s.id === ref.sub)
    const use = sub && (this.uses.get(sub.id) ?? this.kv.get<PlanUse>(`P:${sub.id}`))
    if (!sub || !use) return false
    const current = (slot: Slot | undefined, period: PlanPeriod | undefined) => {
      const start = period ? windowBounds(period, ref.tz, at).start : 0
      return slot !== undefined && slot.period === period && slot.start === start && (!period || windowBounds(period, ref.tz, now).start === start)
    }
    const line = ref.item === undefined ? undefined : sub.terms.models[ref.item]
    const limit = line && allowance(line)
    if (!sub.terms.windows.every((w, i) => current(use.windows[i], w.period))) return false
    if (limit && !current(use.items[ref.item!], sub.terms.windows[0]?.period)) return false
    sub.terms.windows.forEach((w, i) => {
      use.windows[i]!.used -= 'quota' in w ? amount : 1
    })
    if (limit) use.items[ref.item!]!.used -= 'quota' in limit ? amount : 1
    this.uses.set(sub.id, use)
    this.kv.put(`P:${sub.id}`, use)
    return true
  }

  /** Each subscription's windows now: use, start and end (the registry's view). */
  view(tz: string, now: number): Record<number, WindowUse[]> {
    const out: Record<number, WindowUse[]> = {}
    for (const sub of this.list()) {
      const use = this.use(sub, tz, now)
      out[sub.id] = sub.terms.windows.map((w, i) => {
        const { start, end } = windowBounds(w.period, tz, now)
        return { period: w.period, used: use.windows[i]!.used, start, end }
      })
    }
    return out
  }
}

/** The subscription an expiry charged instead of the balance (`XP:` beside `X:`), taken once by the late settle or refund. */
export function takeExpiredPlan(kv: SyncKvStorage, reqId: string): PlanRef | undefined {
  const ref = kv.get<PlanRef>(`XP:${reqId}`)
  if (ref) kv.delete(`XP:${reqId}`)
  return ref
}
