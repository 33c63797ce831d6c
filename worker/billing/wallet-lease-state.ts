/**
 * The isolate's view of one credit lease (worker/billing/wallet-lease.ts runs it): what the wallet
 * holds for it less the costs not yet reported, the worst cases in flight, the report queue and its
 * numbering — and, for a plan lease (worker/wallet/wallet-plan-lease.ts), the subscription it draws
 * from, the requests it holds in request-counted windows, and until when it may be spent (its first
 * window's end or the subscription's). A request is served from a lease only when both its units and
 * (for a plan lease) one request fit, before `until`; every answer of the wallet sets the view anew,
 * less what this isolate has settled and not yet seen confirmed, so no unit or request counts twice.
 */
import type { PlanRef } from '../wallet/wallet-plans'
import type { DebtLimits, LeaseItem, LeasePlan } from '../wallet/wallet-types'
import type { LimitSpec } from '../wallet/wallet-limits'
import { clockNow } from '../lib/clock'
import { LOG_TYPE } from '../../shared/contract/enums'

/** A lease never holds fewer requests than this when it can (the wallet grants up to the windows' remainder). */
export const LEASE_REQUESTS = 16

export type Report = { seq: number; items: LeaseItem[]; extend: number; extendRequests: number }

export interface Lease {
  id: string
  userId: number
  tokenId: number
  /** What the wallet holds for this lease, less the costs queued here and not yet reported. */
  held: number
  /** Worst cases of requests in flight. */
  inflight: number
  /** Reports waiting for the next batch. */
  queue: LeaseItem[]
  /** Number of the last report sent (the wallet applies each number once). */
  seq: number
  /** Number of the last report the wallet answered. */
  answered: number
  /** A report whose answer did not arrive: sent again as it is, before anything newer. */
  unanswered?: Report
  /** Units to ask for with the next report (0: none). */
  wanted: number
  /** When the wallet call for this lease in flight started (made by one request, with its own stub); 0: none. */
  sendingSince: number
  /** When the report loop running (in one request's waitUntil) started; 0: none. */
  pumpingSince: number
  /** Number of the newest report loop (an older loop the runtime may still resume leaves the lease alone). */
  pumpGen: number
  /** The report loop's work (only releaseLeases, in tests, waits for it). */
  running?: Promise<unknown>
  expiresAt: number
  /** Size of the last grant or top-up (the top-up threshold is half of it). */
  size: number
  /** When the last top-up was asked for. */
  toppedUpAt: number
  /** Requests admitted here this minute, and whether the wallet said the group's limit is reached. */
  rate: { minute: number; count: number; blocked: boolean }
  /** Until when (ms) the wallet grants no lease: the user holds a subscription in force no lease may draw from. */
  plansUntil: number
  /** The group's requests-per-minute limit, sent with each report. */
  rpm: number
  /** The token's budget and the user's debt bounds, sent with each grant. */
  budget?: LimitSpec['budget']
  debt?: DebtLimits
  /** The BudgetTimezone of the requests (sent with each grant: a subscriber's lease may draw from a plan). */
  planTz?: string
  /** A plan lease: the subscription it draws from (absent: the balance). */
  plan?: PlanRef
  /** A plan lease's requests held by the wallet, less those settled here and not yet reported (absent: not counted). */
  requests?: number
  /** Plan requests in flight. */
  inflightRequests: number
  /** Until when (ms, clockNow) a plan lease may be spent. */
  until: number
  /** Requests to ask for with the next report (0: none), and the size of the last request grant. */
  wantedRequests: number
  requestSize: number
}

export function newLease(userId: number, tokenId: number): Lease {
  return {
    id: `lease:${crypto.randomUUID()}`,
    userId,
    tokenId,
    held: 0,
    inflight: 0,
    queue: [],
    seq: 0,
    answered: 0,
    wanted: 0,
    sendingSince: 0,
    pumpingSince: 0,
    pumpGen: 0,
    expiresAt: 0,
    size: 0,
    toppedUpAt: 0,
    rate: { minute: 0, count: 0, blocked: false },
    plansUntil: 0,
    rpm: 0,
    inflightRequests: 0,
    until: 0,
    wantedRequests: 0,
    requestSize: 0,
  }
}

export const available = (l: Lease) => l.held - l.inflight
const requestsFree = (l: Lease) => (l.requests === undefined ? Number.MAX_SAFE_INTEGER : l.requests - l.inflightRequests)

/** The lease covers a request holding `amount`: units, and for a plan lease one request, before its window ends. */
export const fits = (l: Lease, amount: number) => Date.now() < l.expiresAt && available(l) >= amount && (!l.plan || (clockNow() < l.until && requestsFree(l) >= 1))

/** A plan lease running low on requests (under half its last grant) wants a top-up. */
export const lowOnRequests = (l: Lease) => l.plan !== undefined && l.requests !== undefined && requestsFree(l) < l.requestSize / 2

/** Requests settled here and not yet confirmed by the wallet (queued, or in an unanswered report). */
export const unconfirmed = (l: Lease) => (l.unanswered ? [...l.queue, ...l.unanswered.items] : l.queue)
export const queuedCost = (l: Lease) => unconfirmed(l).reduce((s, i) => s + i.quota, 0)

/** Whether a settled item uses one of the requests of the plan lease grant `plan`/`until` (a failed request's error row does not; nor does one of an earlier grant). */
export const usesRequest = (item: LeaseItem, plan: PlanRef | undefined, until: number | undefined) =>
  plan !== undefined && item.plan?.sub === plan.sub && item.until === until && !(item.quota === 0 && item.log.type !== LOG_TYPE.CONSUME)

/**
 * The wallet's answer about the lease (a grant or a report): what it holds now, less what this
 * isolate settled and has not seen confirmed; a plan lease's subscription, requests and end.
 */
export function applyAnswer(lease: Lease, res: { held: number } & Partial<LeasePlan>) {
  lease.held = res.held - queuedCost(lease)
  lease.plan = res.plan
  lease.until = res.until ?? 0
  lease.requests = res.plan && res.requests !== undefined ? res.requests - unconfirmed(lease).filter((i) => usesRequest(i, res.plan, res.until)).length : undefined
}
