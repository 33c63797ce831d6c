/**
 * The state a UserWallet keeps, loaded lazily and persisted synchronously in the object's own
 * storage: the user's settled balance and tokens (read from D1 on first use, healed from D1 when a
 * stored number is not money), in-flight holds (`R:` keys, restored after a restart), the pending
 * log rows (`L:` keys), dirty tokens and the write-behind counters. Mutations here are synchronous
 * once loaded, so the Durable Object's RPC methods never interleave inside them.
 * Storage keys are listed in wallet-state.ts.
 */
import type { BudgetCrossing, WalletLog } from './wallet-types'
import { budgetCrossing } from './wallet-budget'
import { budgetLeft, rollBudget } from './wallet-limits'
import { clockNow } from '../lib/clock'
import { isMoney, ROWS_PER_KEY, walletLog, type Meta, type Reservation, type TokenState, type UserState } from './wallet-state'
import { packLog, type PackedLog } from './wallet-log-row'

/** Crossings kept for the next settle answer at most (each token crosses at most twice a period). */
const MAX_CROSSINGS = 50

export class WalletStore {
  user: UserState | undefined
  readonly tokens = new Map<number, TokenState>()
  private reservations: Map<string, Reservation> | undefined
  private reservedTotal = 0
  private readonly tokenReserved = new Map<number, number>()
  private meta: Meta | undefined
  /** The last pending-log number handed out (saved with each flush). */
  logSeq: number | undefined
  private dirty: number[] | undefined
  private loading: Promise<void> | undefined
  /** State changed in memory and not yet written (commit() writes it once per RPC, not per item). */
  private unsaved: { user: boolean; tokens: Set<TokenState>; dirtyList: boolean } = { user: false, tokens: new Set(), dirtyList: false }
  /** When this instance last swept old lease report markers (wallet-expiry.ts). */
  markersSweptAt = 0
  /** Log rows appended since the last commit (written together under one `L:` key). */
  private rows: PackedLog[] = []
  /** Log rows appended since the last write-behind batch began (the wallet flushes early when many wait). */
  rowsSinceFlush = 0
  /** Budget crossings not yet answered to the worker (in memory: a lost one only misses a notice). */
  private crossings: BudgetCrossing[] = []

  constructor(
    readonly kv: SyncKvStorage,
    /** D1, read at each use (tests swap it). */
    private readonly db: () => D1Database
  ) {}

  /** Units a token may still spend beyond its holds (unlimited tokens: the safe maximum), within its budget. */
  tokenFree(token: TokenState): number {
    const quota = this.quotaFree(token)
    return token.budget ? Math.min(quota, budgetLeft(token.budget, clockNow()) - (this.tokenReserved.get(token.id) ?? 0)) : quota
  }

  /** Units the token's quota alone allows beyond its holds (the budget aside). */
  quotaFree(token: TokenState): number {
    return token.unlimited ? Number.MAX_SAFE_INTEGER : token.remain - (this.tokenReserved.get(token.id) ?? 0)
  }

  // ---- loading ---------------------------------------------------------------------------

  async ensureUser(userId: number): Promise<UserState | undefined> {
    if (this.user) return this.user
    const stored = this.kv.get<UserState>('user')
    if (stored && isMoney(stored.quota) && isMoney(stored.usedQuota) && isMoney(stored.requestCount)) this.user = stored
    else if (stored) walletLog.error('stored balance is not money; healing from D1', { user_id: userId, stored })
    if (this.user) return this.user
    this.commit()
    this.loading ??= this.loadUserFromD1(userId, stored?.version ?? 0).finally(() => (this.loading = undefined))
    await this.loading
    return this.user
  }

  private async loadUserFromD1(userId: number, version: number) {
    const row = await this.db()
      .prepare('SELECT id, quota, used_quota, request_count, status FROM users WHERE id = ?')
      .bind(userId)
      .first<{ id: number; quota: number; used_quota: number; request_count: number; status: number }>()
    if (!row || this.user) return
    // A healed state gets a new version so the next flush writes it back over anything broken.
    this.user = { id: row.id, quota: row.quota, usedQuota: row.used_quota, requestCount: row.request_count, status: row.status, version: version + 1 }
    this.kv.put('user', this.user)
  }

  async ensureToken(tokenId: number): Promise<TokenState | undefined> {
    const known = this.tokens.get(tokenId) ?? this.kv.get<TokenState>(`t:${tokenId}`)
    if (known && isMoney(known.remain) && isMoney(known.used)) {
      this.tokens.set(tokenId, known)
      return known
    }
    if (known) walletLog.error('token state is not money; healing from D1', { token_id: tokenId, state: known })
    this.commit()
    const row = await this.db()
      .prepare('SELECT id, user_id, remain_quota, used_quota, unlimited_quota, status, expired_time, accessed_time FROM tokens WHERE id = ?')
      .bind(tokenId)
      .first<{ id: number; user_id: number; remain_quota: number; used_quota: number; unlimited_quota: number; status: number; expired_time: number; accessed_time: number }>()
    if (!row || row.user_id !== this.user?.id) return undefined
    const current = this.tokens.get(tokenId)
    if (current && isMoney(current.remain)) return current
    const token: TokenState = {
      id: row.id,
      remain: row.remain_quota,
      used: row.used_quota,
      unlimited: Boolean(row.unlimited_quota),
      status: row.status,
      expired: row.expired_time,
      accessed: row.accessed_time,
      version: (known?.version ?? 0) + (known ? 1 : 0),
    }
    this.tokens.set(tokenId, token)
    this.kv.put(`t:${tokenId}`, token)
    return token
  }

  /** Holds survive restarts: the first call of an instance reads them back from storage. */
  holds(): Map<string, Reservation> {
    if (this.reservations) return this.reservations
    this.reservations = new Map()
    for (const [key, r] of this.kv.list<Reservation>({ prefix: 'R:' })) this.track(key.slice(2), r)
    return this.reservations
  }

  getMeta(): Meta {
    this.meta ??= this.kv.get<Meta>('meta') ?? { logSeq: 0, flushSeq: 0, flushedUserVersion: 0 }
    return this.meta
  }

  /**
   * The next pending-log key. The counter lives in memory and is saved with the flush (one write
   * fewer per request); after a restart it resumes after the last pending key or the saved value.
   */
  private nextLogKey(): string {
    if (this.logSeq === undefined) {
      const [last] = [...this.kv.list({ prefix: 'L:', reverse: true, limit: 1 })]
      this.logSeq = Math.max(this.getMeta().logSeq, last ? Number(last[0].slice(2)) : 0)
    }
    this.logSeq++
    return `L:${String(this.logSeq).padStart(12, '0')}`
  }

  dirtyTokens(): number[] {
    this.dirty ??= this.kv.get<number[]>('dirtyTokens') ?? []
    return this.dirty
  }

  setDirtyTokens(ids: number[]) {
    this.dirty = ids
    this.unsaved.dirtyList = false
    this.kv.put('dirtyTokens', ids)
  }

  // ---- mutations (synchronous once loaded: no interleaving inside them) ------------------

  /**
   * The user's and tokens' changed state is written by commit(), once per wallet call instead of
   * once per charged item (a lease report charges many). Every wallet call commits before it
   * returns and before any await on I/O (the loaders and the write-behind commit first), so the
   * state, the holds and the log rows of one call always land in the same storage write batch.
   */
  touchUser(user: UserState) {
    user.version++
    this.unsaved.user = true
  }

  touchToken(token: TokenState) {
    token.version++
    this.unsaved.tokens.add(token)
    const dirty = this.dirtyTokens()
    if (!dirty.includes(token.id)) {
      dirty.push(token.id)
      this.unsaved.dirtyList = true
    }
  }

  /** Write the state and log rows changed since the last commit (see touchUser). */
  commit() {
    const { unsaved, rows } = this
    if (rows.length > 0) {
      this.rows = []
      for (let i = 0; i < rows.length; i += ROWS_PER_KEY) this.kv.put(this.nextLogKey(), rows.length === 1 ? rows[0] : rows.slice(i, i + ROWS_PER_KEY))
    }
    if (unsaved.user && this.user) this.kv.put('user', this.user)
    unsaved.user = false
    for (const token of unsaved.tokens) if (this.tokens.get(token.id) === token) this.kv.put(`t:${token.id}`, token)
    unsaved.tokens.clear()
    if (unsaved.dirtyList && this.dirty) this.setDirtyTokens(this.dirty)
  }

  /** Queue a log row, packed for D1 (wallet-log-row.ts); commit() stores it (a call's rows together, see pendingRows). */
  appendLog(log: WalletLog, quota: number, channelCharge?: [number, number]) {
    this.rows.push(packLog(log, quota, this.user!.id, channelCharge))
    this.rowsSinceFlush++
  }

  /**
   * Move `amount` (signed) out of the balance and the token, and count it as use. `at` (ms) is the
   * time of the log row that records it: the token's budget counts it when that is in the current
   * period, so the budget used is always the sum of the token's log rows in the period. A plan
   * charge (`fromBalance` false) leaves the balance alone; the used quotas and the token count it
   * (a key's quota and budget cap all its spending, plan or balance).
   */
  charge(user: UserState, token: TokenState | undefined, amount: number, countRequest: boolean, at = clockNow(), fromBalance = true) {
    if (fromBalance) user.quota -= amount
    user.usedQuota += amount
    if (countRequest) user.requestCount++
    this.touchUser(user)
    if (token) {
      if (!token.unlimited) token.remain -= amount
      token.used += amount
      if (token.budget) {
        rollBudget(token.budget, clockNow())
        const b = token.budget
        if (at >= b.start && at < b.end) {
          const kind = budgetCrossing(b.used, b.used + amount, b.quota)
          b.used += amount
          if (kind && this.crossings.length < MAX_CROSSINGS)
            this.crossings.push({ tokenId: token.id, kind, used: b.used, quota: b.quota, period: b.period, start: b.start, end: b.end })
        }
      }
      token.accessed = Math.floor(Date.now() / 1000)
      this.touchToken(token)
    }
  }

  /** A refunded charge (a failed task's) leaves the used quotas and returns to the token's remaining quota (not its budget). */
  restoreUse(user: UserState, token: TokenState | undefined, amount: number) {
    user.usedQuota = Math.max(0, user.usedQuota - amount)
    this.touchUser(user)
    if (!token) return
    if (!token.unlimited) token.remain += amount
    token.used = Math.max(0, token.used - amount)
    this.touchToken(token)
  }

  /** The crossings since the last call, as a settle answer's `budgets` field (nothing when none). */
  takeCrossings(): { budgets?: BudgetCrossing[] } {
    if (this.crossings.length === 0) return {}
    const budgets = this.crossings
    this.crossings = []
    return { budgets }
  }

  holdTotal(): number {
    this.holds()
    return this.reservedTotal
  }

  /** Hold `r` for a request, persisted so a restart keeps it. */
  hold(reqId: string, r: Reservation) {
    this.holds()
    this.track(reqId, r)
    this.kv.put(`R:${reqId}`, r)
  }

  private track(reqId: string, r: Reservation) {
    this.reservations!.set(reqId, r)
    // A plan hold holds the subscription's windows and the token, never the balance.
    if (!r.plan) this.reservedTotal += r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) + r.amount)
  }

  /**
   * Change a hold's amount by `delta` (a lease spent or extended), and a plan lease's requests by
   * `requests`, and renew its contact time: one storage write, or none with `write = false` when
   * the caller resizes it again in the same call.
   */
  resize(reqId: string, delta: number, at: number, write = true, requests = 0): Reservation | undefined {
    const r = this.holds().get(reqId)
    if (!r) return undefined
    const next: Reservation = { ...r, amount: Math.max(0, r.amount + delta), at }
    if (r.requests !== undefined) next.requests = Math.max(0, r.requests + requests)
    const change = next.amount - r.amount
    this.reservations!.set(reqId, next)
    // A plan lease holds its subscription's windows, never the balance.
    if (!r.plan) this.reservedTotal += change
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) + change)
    if (write) this.kv.put(`R:${reqId}`, next)
    return next
  }

  /** A plan lease that goes back at its next call (wallet-plan-lease.ts); until then it stays held, so its isolate still spends within it. */
  endPlanLease(reqId: string) {
    const r = this.holds().get(reqId)
    if (!r?.plan || r.until === 0) return
    const next: Reservation = { ...r, until: 0 }
    this.reservations!.set(reqId, next)
    this.kv.put(`R:${reqId}`, next)
  }

  release(reqId: string): Reservation | undefined {
    const holds = this.holds()
    const r = holds.get(reqId)
    if (!r) return undefined
    holds.delete(reqId)
    this.kv.delete(`R:${reqId}`)
    if (!r.plan) this.reservedTotal -= r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) - r.amount)
    return r
  }
}
