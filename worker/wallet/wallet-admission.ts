/**
 * Who may hold money now: a wallet's admission check for reserves and leases (user and token
 * status, expiry, what is free of the balance and the token's quota beyond every hold, the token's
 * budget, or the room of the subscription that covers the request) and the limits a wallet keeps in memory only — the group's requests per minute and the
 * tokens' rate windows and concurrency (wallet-limits.ts). Nothing here moves money.
 */
import type { DebtLimits, RefusalReason } from './wallet-types'
import type { TokenState } from './wallet-state'
import type { WalletStore } from './wallet-store'
import { LimitBook, type LimitRefusal, type LimitSpec } from './wallet-limits'
import { configureBudget, type WalletParts } from './wallet-budget'
import { clockNow } from '../lib/clock'
import { DebtBook } from './wallet-debt'
import type { PlanCover, PlanRef } from './wallet-plans'
import { TOKEN_STATUS, USER_STATUS } from '../../shared/contract/enums'

export class WalletAdmission {
  /** Requests admitted in the current minute (for the group's requests-per-minute limit). */
  private rate = { minute: 0, count: 0 }
  /** The user's tokens' rate windows and in-flight requests (memory only: never money). */
  readonly limits = new LimitBook()
  /** Overruns and open reservations: what a misbehaving supplier can make the user owe (wallet-debt.ts). */
  readonly debt: DebtBook
  private limitsSweptAt = 0

  constructor(
    private readonly store: WalletStore,
    /** What the budget check needs to recount a period from D1 (wallet-budget.ts). */
    private readonly budgetParts: () => WalletParts
  ) {
    this.debt = new DebtBook(store)
  }

  /**
   * Whether `floor` more may be held for this user and token now: status, expiry and what is free
   * of the balance and the token's quota (beyond every hold). Counts the request for the group RPM.
   */
  async admit(
    userId: number,
    tokenId: number,
    floor: number,
    rpm?: number,
    isRequest = true,
    spec?: Pick<LimitSpec, 'budget'> & Partial<LimitSpec>,
    debt?: DebtLimits,
    /** Which subscription covers the request (wallet-plans.ts), asked once nothing awaits any more. */
    plans?: (floor: number) => PlanCover
  ): Promise<{ refused: RefusalReason; retryAfterMs?: number } | { refused?: undefined; token: TokenState; free: number; now: number; plan?: PlanRef }> {
    const user = await this.store.ensureUser(userId)
    if (!user) return { refused: 'user_not_found' }
    const token = await this.store.ensureToken(tokenId)
    if (!token) return { refused: 'token_not_found' }
    if (user.status !== USER_STATUS.ENABLED) return { refused: 'user_disabled' }
    if (token.status !== TOKEN_STATUS.ENABLED) return { refused: 'token_disabled' }
    const now = Date.now()
    if (token.expired !== -1 && token.expired * 1000 <= now) return { refused: 'token_expired' }
    const owed = this.debt.refusal(debt, isRequest)
    if (owed) return { refused: owed }
    // Callers without limits (realtime, tasks) leave the budget settings as the relay last sent them.
    if (spec) await configureBudget(this.budgetParts(), token, spec.budget)
    const tokenFree = this.store.tokenFree(token)
    if (tokenFree <= 0 || tokenFree < floor) {
      const quotaFree = this.store.quotaFree(token)
      if (token.budget && quotaFree > 0 && quotaFree >= floor) return { refused: 'budget_exceeded', retryAfterMs: Math.max(1000, token.budget.end - clockNow()) }
      return { refused: 'insufficient_token_quota' }
    }
    // Synchronous from here on: a plan's room and the balance are read and held in one step.
    const cover = plans?.(floor)
    if (cover && 'refused' in cover) return { refused: 'plan_quota_exceeded', retryAfterMs: cover.retryAfterMs }
    const userFree = cover ? cover.room : user.quota - this.store.holdTotal()
    if (!cover && (userFree <= 0 || userFree < floor)) return { refused: 'insufficient_user_quota' }
    if (rpm && rpm > 0 && this.countRequests(0, rpm)) return { refused: 'rate_limited' }
    const limited = spec?.rules ? this.checkLimits(spec as LimitSpec) : undefined
    if (limited) return { refused: limited.code, retryAfterMs: limited.retryAfterMs }
    if (isRequest) this.countRequests(1)
    return { token, free: Math.min(userFree, tokenFree), now, ...(cover ? { plan: cover.ref } : {}) }
  }

  private checkLimits(spec: LimitSpec): LimitRefusal | undefined {
    const now = clockNow()
    if (now - this.limitsSweptAt > 60_000) {
      this.limitsSweptAt = now
      this.limits.sweep(now)
    }
    return this.limits.check(spec, now)
  }

  /** Count `n` requests this minute; true when the count has reached `rpm` (0 = no limit). */
  countRequests(n: number, rpm = 0): boolean {
    const minute = Math.floor(Date.now() / 60_000)
    if (this.rate.minute !== minute) this.rate = { minute, count: 0 }
    this.rate.count += n
    return rpm > 0 && this.rate.count >= rpm
  }
}
