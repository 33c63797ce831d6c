/**
 * One charge: the money path every paid call takes (relay requests, realtime sessions and task
 * submits). `open` holds the worst case (from this isolate's credit lease when the caller allows it
 * and the lease covers it, else an exact reservation in the user's wallet), after checking the API
 * key's limits in this isolate, and counts the hold in the isolate's windows once granted. `settle`
 * charges the exact cost and `refund` gives the hold back, each with the one log row `logRow`
 * builds. A request's hold names its model and time zone, so the wallet covers it from the user's
 * subscriptions first (a lease may draw from one: worker/wallet/wallet-plan-lease.ts; a plan lease's
 * plan has no channel tags, so its hold lets any channel serve). Every idempotency key is derived
 * here: the request's server-made id, a session's parts under it (`ChargePart`), a failed task's
 * refund under its row (`taskRefundKey`). Refusals come back as values; each surface renders them
 * in its own envelope.
 */
import type { Context } from 'hono'
import { type Wallet, walletOf } from '../wallet/wallet-client'
import type { LimitSpec } from '../wallet/wallet-limits'
import type { BudgetCrossing, DebtLimits, LeaseSettleResult, RefusalReason, SettleResult, WalletLog } from '../wallet/wallet-types'
import type { PlanCovered } from '../wallet/wallet-plans'
import { onIsolateReset } from '../cache/isolate'
import type { HonoEnv } from '../env'
import { clockNow } from '../lib/clock'
import { clientIp } from '../lib/client-ip'
import type { RelayAuth } from '../access/token-auth'
import { admitLocally, budgetOnly, checkLocally, hasLimits, localStatus, rateLimitHeaders, settleLocally, walletSaysFull } from '../access/token-limits'
import { holdFromLease, type LeaseHold, type LeaseWallet, returnToLease, settleToLease } from './wallet-lease'
import { LOG_TYPE } from '../../shared/contract/enums'
import { metrics } from '../lib/metrics/recorder'
import { emitNotice } from '../notify/emit'
import { alertBudgetCrossings } from '../notify/budget'

/**
 * Requests this isolate serves from credit leases, per user, open now: MaxUserOpenRequests caps them
 * here (beyond it a request takes the exact path, where the wallet counts its own), so a supplier
 * that ignores limits cannot multiply an overrun without bound (worker/wallet/wallet-debt.ts).
 */
const leaseServed = new Map<number, number>()
onIsolateReset(() => leaseServed.clear())

/** Who pays, and what every log row of the call says about it. */
export interface ChargeContext {
  env: Env
  ctx: ExecutionContext
  auth: Pick<RelayAuth, 'id' | 'userId' | 'username' | 'name'>
  /** The server-made request id: the charge's idempotency key, and the root of its parts' keys. */
  reqId: string
  model: string
  sourceIp: string
  /** Appended to every row's metadata (the inbound format, the client's own request id). */
  labels?: Record<string, unknown>
}

/** The context of a call made through a Hono request (its request id and client IP). */
export function chargeContext(c: Context<HonoEnv>, auth: ChargeContext['auth'], model: string, labels?: Record<string, unknown>): ChargeContext {
  return {
    env: c.env,
    // Read when used: only a lease hold needs it, and a context without one throws on access.
    get ctx() {
      return c.executionCtx as ExecutionContext
    },
    auth,
    reqId: c.get('requestId'),
    model,
    sourceIp: clientIp(c.req, c.env),
    labels,
  }
}

/**
 * A part of a call with its own hold (a realtime session holds many): its key-limit slot, its
 * session slot, a balance check, a response, a transcription, or a charge that held nothing.
 */
export type ChargePart = 'slot' | 'session' | 'check' | 'response' | 'transcription' | 'unheld'

/** The key under which a failed task's charge is given back, once whatever races. */
export const taskRefundKey = (platform: string, id: number) => `task-refund:${platform}:${id}`

export interface HoldRequest {
  amount: number
  /** The wallet may hold less than `amount` (what is free), down to this. */
  floor?: number
  /** The API key's limits, checked exactly by the wallet (and counted there until the hold settles). */
  limits?: LimitSpec
  /** Check `limits` in this isolate first, and count the hold in its windows once granted. */
  admit?: boolean
  /** The group's requests per minute for this user. */
  rpm?: number
  debt?: DebtLimits
  /** Serve the hold from the isolate's credit lease when it covers it (the relay's hot path). */
  lease?: boolean
  /** The part of the call this hold is for; the call itself when omitted. */
  part?: ChargePart
  /**
   * The BudgetTimezone setting, for a hold of a request (not of a slot): the user's subscriptions
   * cover it first, by the call's model, in windows rolling in this zone (worker/wallet/wallet-plans.ts).
   */
  planTz?: string
  /**
   * With `planTz`: the tags of the channels able to serve the call (worker/channels/tag-scope.ts);
   * a subscription limited to channel tags covers it only when one of them is the plan's.
   */
  planTags?: string[]
}

/** A granted hold: its key and how much it covers. */
export interface Hold {
  reqId: string
  held: number
  /** Held in the isolate's credit lease. */
  lease?: LeaseHold
  /** Counted in `leaseServed` (until it settles or refunds). */
  served?: boolean
  /** The limits counted in this isolate's windows, when, and under which key (the first hold's when regrown). */
  admitted?: { limits: LimitSpec; at: number; key: string }
  /**
   * The subscription that covered the hold (a task keeps it, to give a failed task's charge back
   * there) and the channel tags the call is then limited to (none: any channel); absent = the balance.
   */
  plan?: PlanCovered
}

/** A hold the wallet (or this isolate's windows) refused: why, when to try again, the rate headers. */
export interface Refusal {
  reason: RefusalReason
  retryAfterMs?: number
  headers?: Record<string, string>
}

export const isRefusal = (h: Hold | Refusal): h is Refusal => 'reason' in h

export interface SettleRequest {
  quota: number
  channelId?: number
  log: WalletLog
  /** False when consume rows are off: the wallet writes (or the lease sends) a minimal row. */
  keepLog?: boolean
  /** Prompt + completion tokens (the tokens-per-minute count). */
  tokens?: number
  maxOverrun?: number
  /** The part settled when there is no hold. */
  part?: ChargePart
}

/** Count a lease grant or report the wallet answered (refused ones apart). */
function leaseEvent<R extends { ok: boolean }>(res: R, event: 'grant' | 'report'): R {
  metrics.inc('gateway_wallet_lease_events_total', [res.ok ? event : `${event}_refused`])
  return res
}

export class Charge {
  private stub: Wallet | undefined
  private parts = 0
  /** The lease's view of the wallet (most requests served from a lease never make a stub). */
  private readonly leaseWallet: LeaseWallet = {
    // RPC results are thenables with pipelined fields; the lease code only awaits them.
    lease: ((input) => this.wallet.lease(input).then((res) => leaseEvent(res, 'grant'))) as LeaseWallet['lease'],
    settleLease: ((input) => this.wallet.settleLease(input).then((res) => this.alertBudgets(leaseEvent(res, 'report')))) as LeaseWallet['settleLease'],
  }

  constructor(readonly c: ChargeContext) {}

  /** wallet.overrun (one per user per cool-down, worker/notify/), never on the response path. */
  private alertOverrun(quota: number, held: number) {
    const userId = this.c.auth.userId
    this.background(
      emitNotice(this.c.env, {
        event: 'wallet.overrun',
        subject: `user:${userId}`,
        text: `A request of user #${userId} cost ${quota} quota, over its hold of ${held}`,
        data: { user_id: userId, token_id: this.c.auth.id, quota, held, request_id: this.c.reqId },
      })
    )
  }

  /** The budget crossings a settle answered: their notices (worker/notify/budget.ts), in the background. */
  private alertBudgets<R extends { ok: boolean; budgets?: BudgetCrossing[] }>(res: R): R {
    if (res.ok && res.budgets?.length) this.background(alertBudgetCrossings(this.c.env, this.c.auth.userId, res.budgets))
    return res
  }

  /** Work that must not hold up the response: waitUntil, or on its own where there is no context (it never throws). */
  private background(work: Promise<unknown>) {
    try {
      this.c.ctx.waitUntil(work)
    } catch {
      // A context without waitUntil (background work): the promise runs on its own.
    }
  }

  /** The user's wallet, made on first use in this request's context (a stub never serves another). */
  get wallet(): Wallet {
    this.stub ??= walletOf(this.c.env, this.c.auth.userId)
    return this.stub
  }

  /** The idempotency key of the call or of one of its parts. */
  private key(part?: ChargePart): string {
    if (!part) return this.c.reqId
    if (part === 'slot' || part === 'session') return `${this.c.reqId}:${part}`
    return `${this.c.reqId}:${part}:${++this.parts}`
  }

  /** A log row of this call: its user, key, model, IP and request id, then `fields`. */
  logRow(type: number, fields: Omit<WalletLog, 'type' | 'createdAt' | 'metadata'>, metadata: Record<string, unknown>): WalletLog {
    const { auth } = this.c
    return {
      type,
      createdAt: Math.floor(clockNow() / 1000),
      username: auth.username,
      tokenName: auth.name,
      tokenId: auth.id,
      modelName: this.c.model,
      sourceIp: this.c.sourceIp,
      requestId: this.c.reqId,
      ...fields,
      metadata: { ...metadata, ...this.c.labels },
    }
  }

  /** The API key's limits in this isolate's windows: a refusal when one is full. */
  checkLimits(limits: LimitSpec, now: number): Refusal | undefined {
    const local = checkLocally(limits, now)
    return local && { reason: local.code, retryAfterMs: local.retryAfterMs, headers: rateLimitHeaders(localStatus(limits, now)) }
  }

  /** Hold the worst case of the call (or of one part of it). */
  async open(req: HoldRequest): Promise<Hold | Refusal> {
    const now = clockNow()
    const userId = this.c.auth.userId
    if (req.admit && req.limits) {
      const local = this.checkLimits(req.limits, now)
      if (local) return local
    }
    const reqId = this.key(req.part)
    let debt = req.debt
    if (req.lease && req.limits) {
      const maxOpen = debt?.maxOpen ?? 0
      if (maxOpen > 0 && (leaseServed.get(userId) ?? 0) >= maxOpen) return { reason: 'too_many_open_requests' }
      if (req.amount > 0 && !walletSaysFull(req.limits, now)) {
        // The slot is taken before the lease is asked, so requests waiting for the same grant count too.
        enterLease(userId)
        const who = { userId, tokenId: this.c.auth.id, rpm: req.rpm ?? 0, budget: req.limits.budget, debt, planTz: req.planTz }
        const lease = await holdFromLease(this.leaseWallet, this.c.ctx, who, req.amount).catch(() => undefined)
        if (lease) return this.admit({ reqId, held: req.amount, lease, served: true, ...(lease.plan ? { plan: { ...lease.plan, tags: [] } } : {}) }, req, now)
        leaveLease(userId)
      }
      // Requests this isolate serves from leases count against the cap too.
      if (debt) debt = { ...debt, maxOpen: maxOpen > 0 ? Math.max(1, maxOpen - (leaseServed.get(userId) ?? 0)) : 0 }
    }
    // A lease was wanted but could not serve: this request pays a synchronous wallet round trip.
    if (req.lease) metrics.inc('gateway_wallet_lease_events_total', ['sync_fallback'])
    const res = await this.wallet.reserve({
      userId,
      tokenId: this.c.auth.id,
      reqId,
      amount: req.amount,
      ...(req.floor !== undefined ? { floor: req.floor } : {}),
      ...(req.rpm !== undefined ? { rpm: req.rpm } : {}),
      ...(req.limits ? { limits: req.limits } : {}),
      ...(req.planTz ? { plan: { model: this.c.model, tz: req.planTz, tags: req.planTags ?? [] } } : {}),
      debt,
    })
    if (!res.ok) return { reason: res.reason, retryAfterMs: res.retryAfterMs, ...(req.limits ? { headers: rateLimitHeaders(localStatus(req.limits, now)) } : {}) }
    return this.admit({ reqId, held: res.held, ...(res.plan ? { plan: res.plan } : {}) }, req, now)
  }

  /** Count a granted hold in this isolate's windows when asked to. */
  private admit(hold: Hold, req: HoldRequest, now: number): Hold {
    if (!req.admit || !req.limits) return hold
    admitLocally(req.limits, hold.reqId, now)
    return { ...hold, admitted: { limits: req.limits, at: now, key: hold.reqId } }
  }

  /** The x-ratelimit-* headers a hold answers with. */
  rateHeaders(hold: Hold): Record<string, string> {
    return hold.admitted ? rateLimitHeaders(localStatus(hold.admitted.limits, hold.admitted.at)) : {}
  }

  /** Settle a hold's entry in this isolate's windows, and the lease report's rate entry for it. */
  private settleWindows(hold: Hold | undefined, tokens: number) {
    if (!hold?.admitted) return {}
    settleLocally(hold.admitted.key, tokens)
    const { limits, at } = hold.admitted
    return hasLimits(limits) ? { limits: { rules: limits.rules, at, tokens } } : {}
  }

  /** Charge the exact cost with its log row, settling `hold` (or, without one, the call or `part`). */
  async settle(hold: Hold | undefined, s: SettleRequest): Promise<SettleResult | LeaseSettleResult | undefined> {
    const reqId = hold?.reqId ?? this.key(s.part)
    const tokens = s.tokens ?? 0
    if (hold && s.quota > hold.held) {
      metrics.inc('gateway_wallet_overruns_total', [])
      this.alertOverrun(s.quota, hold.held)
    }
    if (hold?.lease) {
      leaveHold(hold, this.c.auth.userId)
      const log = s.keepLog === false ? { type: s.log.type, createdAt: s.log.createdAt, tokenId: this.c.auth.id, requestId: this.c.reqId } : s.log
      const item = { reqId, quota: s.quota, held: hold.lease.amount, maxOverrun: s.maxOverrun, channelId: s.channelId, log, ...this.settleWindows(hold, tokens) }
      return settleToLease(this.leaseWallet, this.c.ctx, hold.lease, item)
    }
    this.settleWindows(hold, tokens)
    const settled = await this.wallet.settle({
      userId: this.c.auth.userId,
      reqId,
      quota: s.quota,
      channelId: s.channelId,
      log: s.keepLog === false ? undefined : s.log,
      tokens: s.tokens,
      maxOverrun: s.maxOverrun,
    })
    return this.alertBudgets(settled)
  }

  /**
   * Move a granted hold to a larger worst case (a relay request falling back to a dearer model): an
   * exact wallet reservation under a part key first (down to `floor` when given), then the old hold
   * goes back without a log row, so the call holds something throughout. The key's limits stay
   * counted in this isolate under the first hold's entry; settling the new hold settles them.
   */
  async regrow(hold: Hold, req: { amount: number; floor?: number; debt?: DebtLimits; plan?: { model: string; tz: string; tags: string[] } }): Promise<Hold | Refusal> {
    const userId = this.c.auth.userId
    const reqId = this.key('response')
    const res = await this.wallet.reserve({
      userId,
      tokenId: this.c.auth.id,
      reqId,
      amount: req.amount,
      ...(req.floor !== undefined ? { floor: req.floor } : {}),
      ...(req.plan ? { plan: req.plan } : {}),
      debt: req.debt,
    })
    if (!res.ok) return { reason: res.reason, retryAfterMs: res.retryAfterMs }
    if (hold.lease) {
      // Back to the lease untouched: nothing was spent from it, and no row is queued.
      leaveHold(hold, userId)
      returnToLease(hold.lease)
    } else await this.wallet.refund({ userId, reqId: hold.reqId })
    return { reqId, held: res.held, ...(hold.admitted ? { admitted: hold.admitted } : {}), ...(res.plan ? { plan: res.plan } : {}) }
  }

  /** The call failed (or a part never ran): give its hold back, with the log row when there is one. */
  async refund(hold: Hold | undefined, log?: WalletLog): Promise<void> {
    const reqId = hold?.reqId ?? this.c.reqId
    if (hold?.lease) {
      leaveHold(hold, this.c.auth.userId)
      const row = log ?? this.logRow(LOG_TYPE.ERROR, {}, {})
      await settleToLease(this.leaseWallet, this.c.ctx, hold.lease, { reqId, quota: 0, log: row, ...this.settleWindows(hold, 0) })
      return
    }
    this.settleWindows(hold, 0)
    await this.wallet.refund({ userId: this.c.auth.userId, reqId, ...(log ? { log } : {}) })
  }

  /**
   * A realtime session's two slots, held (amount 0) until its socket closes: one of the key's
   * in-flight requests, and one of its `maxSessions` realtime sessions; the session counts once
   * in this isolate's windows. With `plan`, a subscription with room admits the slots of a user
   * with no balance (they draw nothing from it); `tags` are the session's candidate channels' (HoldRequest.planTags).
   */
  async openSession(limits: LimitSpec, maxSessions: number, plan?: { tz: string; tags: string[] }): Promise<{ holds: Hold[] } | { refused: Refusal; slot: 'key' | 'sessions' }> {
    const now = clockNow()
    const local = this.checkLimits(limits, now)
    if (local) return { refused: local, slot: 'key' }
    const planned = plan ? { planTz: plan.tz, planTags: plan.tags } : {}
    const key = await this.open({ amount: 0, limits, part: 'slot', ...planned })
    if (isRefusal(key)) return { refused: key, slot: 'key' }
    const sessions: LimitSpec = { ...budgetOnly(limits), concurrency: { key: `rt:${this.c.auth.id}`, limit: maxSessions } }
    const rt = await this.open({ amount: 0, limits: sessions, part: 'session', ...planned })
    if (isRefusal(rt)) {
      await this.refund(key)
      return { refused: { ...rt, headers: rateLimitHeaders(localStatus(limits, now)) }, slot: 'sessions' }
    }
    admitLocally(limits, this.c.reqId, now)
    return { holds: [key, rt] }
  }

  /** The session ended: its slots go back. */
  async closeSession(holds: Hold[]): Promise<void> {
    settleLocally(this.c.reqId, 0)
    for (const hold of holds) await this.refund(hold)
  }
}

/** The request counts among the lease-served requests open in this isolate. */
function enterLease(userId: number) {
  leaseServed.set(userId, (leaseServed.get(userId) ?? 0) + 1)
}

/** It no longer does: it finished, or the lease could not serve it. */
function leaveLease(userId: number) {
  const n = (leaseServed.get(userId) ?? 1) - 1
  if (n > 0) leaseServed.set(userId, n)
  else leaseServed.delete(userId)
}

/** A lease hold leaves `leaseServed` once, whether it settles or refunds. */
function leaveHold(hold: Hold, userId: number) {
  if (!hold.served) return
  hold.served = false
  leaveLease(userId)
}
