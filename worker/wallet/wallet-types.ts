import type { LimitSpec, RateRule } from './wallet-limits'
import type { PlanCovered, PlanRef } from './wallet-plans'

/**
 * The typed surface of the UserWallet Durable Object as the Worker uses it: inputs and results of
 * its RPC methods. Results are plain objects (never thrown errors) so refusals cross RPC cleanly.
 */

/** A log row as the wallet writes it; `quota` is filled in by the wallet with what it charged. */
export interface WalletLog {
  type: number
  createdAt: number
  content?: string
  username?: string
  tokenName?: string
  tokenId?: number
  modelName?: string
  upstreamModel?: string
  promptTokens?: number
  completionTokens?: number
  channelId?: number
  requestTime?: number
  firstResponseTime?: number
  isStream?: boolean
  sourceIp?: string
  requestId?: string
  metadata?: Record<string, unknown>
  /** The subscription the row drew from (set by the wallet; absent: the balance). */
  subscriptionId?: number
}

export type RefusalReason =
  | 'user_not_found'
  | 'user_disabled'
  | 'token_not_found'
  | 'token_disabled'
  | 'token_expired'
  | 'insufficient_user_quota'
  | 'insufficient_token_quota'
  | 'rate_limited'
  /** The token's own limits (wallet-limits.ts): requests or tokens per minute, requests in flight, budget. */
  | 'rate_limit_exceeded'
  | 'tokens_per_minute_exceeded'
  | 'concurrency_limit_exceeded'
  | 'budget_exceeded'
  /** Bounded debt (wallet-debt.ts): the user's open exact reservations are at MaxUserOpenRequests. */
  | 'too_many_open_requests'
  /** Bounded debt: today's overruns passed MaxUserOverrun; stopped until a top-up. */
  | 'overrun_limit'
  /** An amount that is not a safe integer in range (a bug upstream of the wallet; nothing was stored). */
  | 'invalid_amount'
  /** The request id already holds a reservation (ids are server-made, so this is a bug). */
  | 'duplicate_request'
  /** No subscription has room for the request and one that covers its model forbids the balance fallback (wallet-plans.ts). */
  | 'plan_quota_exceeded'

/** `held` is what the wallet holds for the request: `amount`, or less (≥ `floor`) when only that was free. */
/** The user's debt bounds (MaxUserOpenRequests, MaxUserOverrun; 0 = no cap), sent by the worker with each call. */
export interface DebtLimits {
  maxOpen: number
  maxOverrun: number
}

/** `plan`: the subscription that covered the hold (its model item and time zone: a task stores them, to give a failed task's charge back there) and the channel tags it limits the request to (wallet-plans.ts); absent = the balance. */
export type ReserveResult = { ok: true; held: number; plan?: PlanCovered } | { ok: false; reason: RefusalReason; retryAfterMs?: number }

export interface ReserveInput {
  userId: number
  tokenId: number
  /** A server-made request id (never a client-supplied one). */
  reqId: string
  /** The worst-case cost of the request (a non-negative safe integer). */
  amount: number
  /**
   * When set, the wallet may hold less than `amount` (whatever is free) as long as it is at least
   * `floor`; the relay then limits the answer to what was held.
   */
  floor?: number
  /** Requests per minute allowed to this user (their group's api_rate); 0 = unlimited. */
  rpm?: number
  debt?: DebtLimits
  /** The token's limits and budget for this request (checked exactly, then counted until it settles). */
  limits?: LimitSpec
  /**
   * The request's model and the BudgetTimezone setting: the user's subscriptions cover it first
   * (wallet-plans.ts). Without it the hold is the balance's (a part of a call that is no request).
   * `tags`: those of the channels able to serve the request (none: a plan limited to channel tags
   * does not cover it).
   */
  plan?: { model: string; tz: string; tags?: string[] }
}

export interface SettleInput {
  userId: number
  reqId: string
  /** Exact cost computed by the billing formula (a non-negative safe integer), charged in full. */
  quota: number
  channelId?: number
  /** The consume log row (the wallet writes a minimal one when it is omitted). */
  log?: WalletLog
  /** Prompt + completion tokens the request used (its tokens-per-minute count). */
  tokens?: number
  /** MaxUserOverrun: an overrun that takes today's sum past it stops the user (wallet-debt.ts). */
  maxOverrun?: number
}

export type SettleResult =
  | {
      ok: true
      /** What this settle changed the balance by: the cost, less what an expiry already charged. */
      charged: number
      userQuota: number
      /** Units charged beyond the reservation (the supplier returned more than was reserved). */
      overrun: number
      /** Budgets that reached 80 % or 100 % since the wallet last answered a settle (wallet-budget.ts). */
      budgets?: BudgetCrossing[]
    }
  | { ok: false; reason: 'invalid_amount' | 'user_not_found' }

/** A key's budget crossed a notice threshold in its period (the worker raises token.budget_* from it). */
export interface BudgetCrossing {
  tokenId: number
  kind: 'threshold' | 'exhausted'
  used: number
  quota: number
  period: string
  /** The period's start and end (Unix ms): one notice of each kind per period. */
  start: number
  end: number
}

export interface CreditInput {
  userId: number
  /** Positive adds, negative subtracts (never below zero). A non-zero safe integer. */
  amount: number
  /** Idempotency key: a second credit with the same key changes nothing and answers the first result. */
  key: string
  log: WalletLog
  /**
   * A refund of an earlier charge by this token (a failed asynchronous task): the amount also comes
   * back to the token's remaining quota and leaves the user's and the token's used quota. The
   * token's budget keeps the charge (budgets count consumption rows, and this row is a credit).
   */
  restoreToken?: number
}

export type CreditResult = { ok: true; userQuota: number; duplicate?: boolean } | { ok: false; reason: 'insufficient_user_quota' | 'user_not_found' | 'invalid_amount' }

/**
 * A failed task's plan charge given back (wallet-plan-refund.ts): `amount` units (and one request)
 * go back to the windows of `plan` that the consume row written at `at` (Unix ms) counted in, while
 * they are still the current ones, once per `key`; the token's quota comes back as for a credit.
 */
export interface PlanRefundInput {
  userId: number
  amount: number
  key: string
  plan: PlanRef
  at: number
  log: WalletLog
  restoreToken?: number
}

/** `returned`: the windows got the charge back (false: they rolled over, or the subscription ended). */
export type PlanRefundResult = { ok: true; returned: boolean; duplicate?: boolean } | { ok: false; reason: 'user_not_found' | 'invalid_amount' }

export interface WalletBalance {
  quota: number
  usedQuota: number
  requestCount: number
  reserved: number
  pendingLogs: number
  token?: { remain: number; used: number; unlimited: boolean; budget?: { period: string; quota: number; used: number; start: number; end: number } }
}

/** A credit lease asked for (or extended) by an isolate: a hold its requests spend from locally. */
export interface LeaseInput {
  userId: number
  tokenId: number
  leaseId: string
  /** Units wanted (granted up to what is free). */
  amount: number
  /** Refuse unless at least this much can be granted (the request waiting for it). */
  floor: number
  /** The token's budget: a lease never holds more than its remainder in the current period. */
  budget?: LimitSpec['budget']
  debt?: DebtLimits
  /**
   * The BudgetTimezone, for a lease of relay requests: while a subscription is in force the lease
   * may draw from it (wallet-plan-lease.ts), `requests` of them in its request-counted windows.
   */
  plan?: { tz: string; requests: number }
}

/** What a plan lease draws from (wallet-plan-lease.ts): the subscription, the requests it holds (none: counted in quota only), and until when (ms) it may be spent. */
export interface LeasePlan {
  plan: PlanRef
  requests?: number
  until: number
}

/** `plans_active`: the user holds a subscription in force that no lease may draw from now, so requests take the exact path (wallet-plans.ts). */
export type LeaseResult = ({ ok: true; granted: number; held: number } & Partial<LeasePlan>) | { ok: false; reason: RefusalReason | 'plans_active' }

/** One request served from a lease, reported with its exact cost and log row. */
export interface LeaseItem {
  reqId: string
  quota: number
  /** What the request held from the lease (its overrun is the cost beyond it), and MaxUserOverrun (wallet-debt.ts). */
  held?: number
  maxOverrun?: number
  channelId?: number
  log: WalletLog
  /** The windows the request counted in locally, when it was admitted, and its settled tokens. */
  limits?: { rules: RateRule[]; at: number; tokens: number }
  /** Served from a plan lease: charged to this subscription's windows, not the balance. */
  plan?: PlanRef
  /** The `until` of the plan lease grant it was served from (a request of an earlier window's grant spends none of a later one's requests). */
  until?: number
}

export interface LeaseSettleInput {
  userId: number
  leaseId: string
  items: LeaseItem[]
  /** Units to add to the lease (background top-up), granted up to what is free. */
  extend?: number
  /** A plan lease's top-up in requests, granted up to its request windows' remainder. */
  extendRequests?: number
  /** Give the rest of the lease back. */
  release?: boolean
  /** The group's requests-per-minute limit: the items count toward it (0 = none). */
  rpm?: number
  /**
   * The report's number within its lease (1, 2, …). A report whose answer was lost is sent again
   * with the same number and items; the wallet applies each number once (`S:` keys).
   */
  seq?: number
}

export type LeaseSettleResult =
  | ({
      ok: true
      held: number
      userQuota: number
      charged: number
      overrun: number
      /** The user reached the group's requests-per-minute limit this minute: stop admitting locally. */
      rateLimited: boolean
      /** Windows of the reported requests now full (wallet-limits.ts key → until, ms): ask the wallet until then. */
      full?: Record<string, number>
      /** This report's number was applied before (its answer was lost): nothing was charged again. */
      duplicate?: boolean
      budgets?: BudgetCrossing[]
    } & Partial<LeasePlan>)
  | { ok: false; reason: 'invalid_amount' | 'user_not_found' }
