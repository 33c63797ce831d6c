/**
 * UserWallet: one Durable Object per user, the single source of truth for the user's balance and
 * the remaining quota of the user's tokens. Every balance change goes through it — relay
 * reservations (reserve → settle/refund), top-ups, admin adjustments, rewards — and every change
 * leaves exactly one log row, so Σ log quota = balance change, always (rows of plan holds name
 * their subscription and change its windows instead: Σ quota of rows without one = balance change).
 * - reserve holds the worst case of a request against the balance and the token; holds are
 *   persisted (`R:` keys), so a restart forgets nothing and the next request cannot spend them.
 * - settle charges the exact cost in full. A cost beyond the hold (the supplier returned more than
 *   was reserved) is still charged: the balance may go below zero by that overrun, the log row says
 *   so, and reserve refuses the user until the balance is positive again. Nothing is forgiven.
 * - A hold never settled within RESERVATION_TTL_MS is charged by the alarm; a late settle then
 *   charges only the difference (`X:` keys remember what the expiry took).
 * - lease grants an isolate a credit lease (a hold its requests spend from without a round trip,
 *   worker/billing/wallet-lease.ts); settleLease charges the requests it reports in full, shrinks,
 *   extends or releases the lease (wallet-lease-report.ts); a lease not heard from within
 *   LEASE_TTL_MS is given back.
 * - credit applies a signed amount once per idempotency key (`I:` keys).
 * - Token limits (wallet-limits.ts): reserve checks the token's requests/tokens per minute and
 *   concurrency exactly and counts the request; lease reports count the requests an isolate
 *   admitted and answer which windows are full. A token's budget is part of its state: what its
 *   log rows in the current period add up to, reset at the period start (clockNow); holds and leases
 *   never exceed the remainder; settles answer the 80 %/100 % crossings (wallet-budget.ts).
 * - Subscriptions (wallet-plans.ts) cover a request first when the worker names its model: a plan
 *   hold draws on the subscription's windows, not the balance. While one is in force a lease draws from
 *   it when it is the first and has no model items or channel tags (wallet-plan-lease.ts), else
 *   there is none (`plans_active`); after syncUser a plan lease goes back at its next call. A failed
 *   task's plan charge goes back to them (refundToPlan, wallet-plan-refund.ts).
 * - Only safe integers reach money: anything else is refused, and a stored non-number heals from D1.
 * Settled changes and their log rows are written behind to D1 about a second later
 * (wallet-write-behind.ts). The state itself (loading, healing, holds, pending rows) lives in
 * wallet-store.ts, the admission check and in-memory limits in wallet-admission.ts, expiry of
 * holds in wallet-expiry.ts; this class is the RPC surface, the money rules and the alarm.
 */
import { DurableObject } from 'cloudflare:workers'
import { drainToD1 } from './wallet-write-behind'
import type {
  CreditInput,
  CreditResult,
  LeaseInput,
  LeaseResult,
  LeaseSettleInput,
  LeaseSettleResult,
  PlanRefundInput,
  PlanRefundResult,
  ReserveInput,
  ReserveResult,
  SettleInput,
  SettleResult,
  WalletBalance,
  WalletLog,
} from './wallet-types'
import { isAmount, walletLog, type AppliedCredit, type PendingEntry, type Reservation } from './wallet-state'
import { WalletStore } from './wallet-store'
import { budgetView, type BudgetView } from './wallet-budget'
import { WalletAdmission } from './wallet-admission'
import { expireHolds, holdExpiresAt } from './wallet-expiry'
import { WalletPlans, type WindowUse } from './wallet-plans'
import { refundHold, settleHold, type SettleParts } from './wallet-settle'
import { refundToPlan } from './wallet-plan-refund'
import { leaseFromPlan, type PlanLeaseParts } from './wallet-plan-lease'
import { applyLeaseReport } from './wallet-lease-report'
import { clockNow } from '../lib/clock'
import { TOKEN_STATUS, USER_STATUS } from '../../shared/contract/enums'

/**
 * Write-behind by size or time: D1 gets pending changes FLUSH_DELAY_MS after the first, or once
 * FLUSH_ROWS log rows wait, so no single large batch holds up the requests behind it (locally D1
 * shares workerd's thread: at c = 32 p99 went from 76–85 ms with one batch a second to 30–36 ms).
 */
const FLUSH_DELAY_MS = 1000
const FLUSH_ROWS = 256

export class UserWallet extends DurableObject<Env> {
  private store = new WalletStore(this.ctx.storage.kv, () => this.env.DB)
  private flushing: Promise<void> | undefined
  /** When the alarm is set for (undefined: not armed by this instance, or it is running). */
  private alarmAt: number | undefined
  /** Consecutive failed write-behind alarms (for the retry backoff). */
  private flushFailures = 0
  /** Who may hold money now, and the limits kept in memory (wallet-admission.ts). */
  private admission = new WalletAdmission(this.store, () => ({ store: this.store, ctx: this.ctx, db: this.env.DB, flush: () => this.flushNow() }))
  /** The user's subscriptions and their window use (wallet-plans.ts). */
  private plans = new WalletPlans(() => ({ store: this.store, db: this.env.DB }))

  /** What granting and reporting a lease touch (wallet-plan-lease.ts, wallet-lease-report.ts). */
  private get leaseParts(): PlanLeaseParts {
    return { store: this.store, plans: this.plans, admission: this.admission }
  }

  /** What settling and refunding a hold touch (wallet-settle.ts). */
  private get parts(): SettleParts {
    return { store: this.store, plans: this.plans, limits: this.limits, debt: this.admission.debt }
  }

  private get limits() {
    return this.admission.limits
  }

  private get kv() {
    return this.ctx.storage.kv
  }

  /** Arm the write-behind alarm once per batch window, or now when a batch's worth of rows waits (not while D1 fails: alarm()'s backoff decides). */
  private scheduleFlush() {
    const early = this.store.rowsSinceFlush >= FLUSH_ROWS && this.flushFailures === 0
    return this.armAlarm(Date.now() + (early ? 0 : FLUSH_DELAY_MS))
  }

  /** Set the alarm for `at` unless it is already set sooner: a pending flush is never postponed. */
  private async armAlarm(at: number) {
    if (this.alarmAt !== undefined && this.alarmAt <= at) return
    this.alarmAt = at
    await this.ctx.storage.setAlarm(at)
  }

  /** Hold the request's worst case (or, with a floor, whatever is free above it) against balance and token; a zero-amount hold (a session's slots, a free call) a subscription admits draws nothing from it. */
  async reserve(input: ReserveInput): Promise<ReserveResult> {
    if (!isAmount('amount', input.amount) || (input.floor !== undefined && !isAmount('floor', input.floor))) return { ok: false, reason: 'invalid_amount' }
    const amount = input.amount
    if (this.store.holds().has(input.reqId)) return { ok: false, reason: 'duplicate_request' }
    const plan = input.plan
    if (plan) await this.plans.ensure(input.userId)
    const cover = plan && ((floor: number) => this.plans.cover(plan.model, plan.tz, floor, clockNow(), plan.tags))
    const admitted = await this.admission.admit(input.userId, input.tokenId, Math.min(input.floor ?? amount, amount), input.rpm, true, input.limits, input.debt, cover)
    this.store.commit()
    if (admitted.refused) return { ok: false, reason: admitted.refused, ...(admitted.retryAfterMs ? { retryAfterMs: admitted.retryAfterMs } : {}) }
    const held = Math.min(amount, admitted.free)
    const drawn = admitted.plan && amount > 0 ? { plan: admitted.plan } : {}
    this.store.hold(input.reqId, { tokenId: admitted.token.id, amount: held, at: admitted.now, ...drawn })
    if (input.limits) this.limits.admit(input.limits, input.reqId, clockNow())
    if (this.alarmAt === undefined) await this.scheduleFlush()
    return { ok: true, held, ...this.plans.covered(admitted.plan) }
  }

  /** Grant or extend a credit lease (worker/billing/wallet-lease.ts) by up to `amount`, at least `floor`. */
  async lease(input: LeaseInput): Promise<LeaseResult> {
    if (!isAmount('amount', input.amount) || !isAmount('floor', input.floor)) return { ok: false, reason: 'invalid_amount' }
    let existing = this.store.holds().get(input.leaseId)
    if (existing && !existing.lease) return { ok: false, reason: 'duplicate_request' }
    await this.plans.ensure(input.userId)
    // A subscription in force: the lease draws from it, or there is none (wallet-plan-lease.ts).
    if (this.plans.anyInForce(clockNow())) {
      const res = await leaseFromPlan(this.leaseParts, input, clockNow())
      if (res.ok && this.alarmAt === undefined) await this.scheduleFlush()
      return res
    }
    // A plan lease outlived its subscription: it goes back, and a balance lease starts afresh.
    if (existing?.plan) {
      this.store.release(input.leaseId)
      existing = undefined
    }
    const admitted = await this.admission.admit(input.userId, input.tokenId, Math.min(input.floor, input.amount), undefined, false, { budget: input.budget }, input.debt)
    this.store.commit()
    if (admitted.refused) return { ok: false, reason: admitted.refused }
    const granted = Math.min(input.amount, admitted.free)
    const held = existing
      ? this.store.resize(input.leaseId, granted, admitted.now)!.amount
      : (this.store.hold(input.leaseId, { tokenId: admitted.token.id, amount: granted, at: admitted.now, lease: true }), granted)
    if (this.alarmAt === undefined) await this.scheduleFlush()
    return { ok: true, granted, held }
  }

  /** Requests an isolate served from its lease, charged with their rows; the lease shrinks, grows or goes back (wallet-lease-report.ts). */
  async settleLease(input: LeaseSettleInput): Promise<LeaseSettleResult> {
    const res = await applyLeaseReport(this.leaseParts, input)
    if (res.ok && !res.duplicate) await this.scheduleFlush()
    return res
  }

  /** Charge the exact cost in full and write its log row (wallet-settle.ts). */
  async settle(input: SettleInput): Promise<SettleResult> {
    if (!isAmount('quota', input.quota)) return { ok: false, reason: 'invalid_amount' }
    const user = await this.store.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const { charged, overrun } = await settleHold(this.parts, user, input)
    this.store.commit()
    await this.scheduleFlush()
    return { ok: true, charged, userQuota: user.quota, overrun, ...this.store.takeCrossings() }
  }

  /** The request failed: release its hold (and give back what an expiry took) with its error log. */
  async refund(input: { userId: number; reqId: string; log?: WalletLog }): Promise<void> {
    const user = await this.store.ensureUser(input.userId)
    if (!user) return
    if (await refundHold(this.parts, user, input)) {
      this.store.commit()
      await this.scheduleFlush()
    }
  }

  /** Add (or, negative, subtract) an amount once per idempotency key, with its log row. */
  async credit(input: CreditInput): Promise<CreditResult> {
    if (!isAmount('amount', input.amount, -Number.MAX_SAFE_INTEGER) || typeof input.key !== 'string' || !input.key) return { ok: false, reason: 'invalid_amount' }
    const amount = input.amount
    const user = await this.store.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const applied = this.kv.get<AppliedCredit>(`I:${input.key}`)
    if (applied) return { ok: true, userQuota: applied.userQuota, duplicate: true }
    if (!isAmount('balance', user.quota + amount, -Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'invalid_amount' }
    // A deduction may take only what no in-flight request holds.
    if (amount < 0 && user.quota - this.store.holdTotal() + amount < 0) return { ok: false, reason: 'insufficient_user_quota' }
    user.quota += amount
    if (amount > 0) this.admission.debt.clear()
    if (input.restoreToken !== undefined && amount > 0) this.store.restoreUse(user, await this.store.ensureToken(input.restoreToken), amount)
    this.store.touchUser(user)
    this.store.appendLog({ ...input.log, metadata: { ...input.log.metadata, idempotency_key: input.key } }, amount)
    this.kv.put(`I:${input.key}`, { at: Date.now(), amount, userQuota: user.quota } satisfies AppliedCredit)
    this.store.commit()
    await this.scheduleFlush()
    await this.flush()
    return { ok: true, userQuota: user.quota }
  }

  /** A failed task's plan charge back to its subscription's windows, once per key (wallet-plan-refund.ts). */
  async refundToPlan(input: PlanRefundInput): Promise<PlanRefundResult> {
    return refundToPlan(this.store, this.plans, input, () => this.scheduleFlush().then(() => this.flush()))
  }

  /** The token API changed a token: take its limits from D1 (or set the remaining quota explicitly). */
  async syncToken(input: { userId: number; tokenId: number; remain?: number }): Promise<void> {
    if (input.remain !== undefined && !isAmount('remain', input.remain)) return
    await this.store.ensureUser(input.userId)
    const row = await this.env.DB.prepare('SELECT unlimited_quota, status, expired_time FROM tokens WHERE id = ?')
      .bind(input.tokenId)
      .first<{ unlimited_quota: number; status: number; expired_time: number }>()
    if (!row) {
      this.revokeLeases((r) => r.tokenId === input.tokenId)
      this.store.tokens.delete(input.tokenId)
      this.kv.delete(`t:${input.tokenId}`)
      return
    }
    const token = await this.store.ensureToken(input.tokenId)
    if (!token) return
    token.unlimited = Boolean(row.unlimited_quota)
    token.status = row.status
    token.expired = row.expired_time
    if (token.status !== TOKEN_STATUS.ENABLED) this.revokeLeases((r) => r.tokenId === token.id)
    if (input.remain !== undefined) token.remain = input.remain
    this.store.touchToken(token)
    this.store.commit()
    await this.scheduleFlush()
    await this.flush()
  }

  /** Give back the leases of a disabled token or user: their isolates learn it at their next report. */
  private revokeLeases(which: (r: Reservation) => boolean) {
    for (const [id, r] of [...this.store.holds()]) if (r.lease && which(r)) this.store.release(id)
  }

  /** The user API changed the user's status. */
  async syncUser(input: { userId: number }): Promise<void> {
    const user = await this.store.ensureUser(input.userId)
    if (!user) return
    const row = await this.env.DB.prepare('SELECT status FROM users WHERE id = ?').bind(input.userId).first<{ status: number }>()
    if (row) user.status = row.status
    await this.plans.reload(input.userId)
    // Balance leases go back while a subscription is in force. Plan leases go back at their next call
    // (the isolate learns then): until then they stay held, so no window is promised twice.
    if (!row || user.status !== USER_STATUS.ENABLED) this.revokeLeases(() => true)
    else if (this.plans.anyInForce(clockNow())) this.revokeLeases((r) => !r.plan)
    for (const [id, r] of this.store.holds()) if (r.lease && r.plan) this.store.endPlanLease(id)
    this.kv.put('user', user)
  }

  /** Each subscription's windows now (the registry's view): use, start and end in `tz`. */
  async planUse(input: { userId: number; tz: string }): Promise<Record<number, WindowUse[]>> {
    await this.plans.ensure(input.userId)
    return this.plans.view(input.tz, clockNow())
  }

  async balance(input: { userId: number; tokenId?: number }): Promise<WalletBalance | undefined> {
    const user = await this.store.ensureUser(input.userId)
    if (!user) return undefined
    this.store.holds()
    const token = input.tokenId !== undefined ? await this.store.ensureToken(input.tokenId) : undefined
    return {
      quota: user.quota,
      usedQuota: user.usedQuota,
      requestCount: user.requestCount,
      reserved: this.store.holdTotal(),
      pendingLogs: [...this.kv.list<PendingEntry>({ prefix: 'L:' })].reduce((n, [, e]) => n + (Array.isArray(e) ? e.length : 1), 0),
      token: token && {
        remain: token.remain,
        used: token.used,
        unlimited: token.unlimited,
        ...(token.budget ? { budget: budgetView(this.store, token) } : {}),
      },
    }
  }

  /** The current period's budget use of several tokens (the token list). */
  async budgets(input: { userId: number; tokenIds: number[] }): Promise<Record<number, BudgetView>> {
    const user = await this.store.ensureUser(input.userId)
    if (!user) return {}
    const out: Record<number, BudgetView> = {}
    for (const id of input.tokenIds.slice(0, 200)) {
      const token = await this.store.ensureToken(id)
      if (token?.budget) out[id] = budgetView(this.store, token)
    }
    return out
  }

  /** Write-behind: pending changes to D1 now (tests and admin actions that show D1); a failure leaves them pending. */
  async flush(): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      await this.flushNow()
      return { ok: true }
    } catch (err) {
      walletLog.error('flush failed; changes stay pending', { error: err })
      return { ok: false, error: String((err as Error)?.message ?? err) }
    }
  }

  private async flushNow(): Promise<void> {
    this.store.commit()
    while (this.flushing) await this.flushing
    this.store.rowsSinceFlush = 0
    this.flushing = drainToD1(this.store, this.env.DB).finally(() => (this.flushing = undefined))
    await this.flushing
  }

  async alarm(): Promise<void> {
    this.alarmAt = undefined
    await expireHolds(this.store, this.limits, this.plans)
    try {
      await this.flushNow()
      this.flushFailures = 0
    } catch (err) {
      // D1 unreachable: everything stays pending (the saved plan is replayed); try again with backoff.
      this.flushFailures++
      walletLog.error('write-behind failed; retrying', { failures: this.flushFailures, error: err })
      await this.armAlarm(Date.now() + Math.min(60_000, FLUSH_DELAY_MS * 2 ** this.flushFailures))
      return
    }
    // Mutations during the flush armed the next batch window; outstanding reservations only need
    // the alarm again at their expiry, which must never push that window back.
    const holds = this.store.holds()
    if (holds.size > 0) {
      const next = Math.min(...[...holds.values()].map(holdExpiresAt))
      await this.armAlarm(Math.max(next, Date.now() + FLUSH_DELAY_MS))
    }
  }
}
