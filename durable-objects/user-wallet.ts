/**
 * UserWallet: one Durable Object per user, the single source of truth for the user's balance and
 * the remaining quota of the user's tokens. Every balance change goes through it — relay
 * reservations (reserve → settle/refund), top-ups, admin adjustments, rewards — and every change
 * leaves exactly one log row, so Σ log quota = balance change, always.
 *
 * - reserve holds the worst case of a request against the balance and the token; holds are
 *   persisted (`R:` keys), so a restart forgets nothing and the next request cannot spend them.
 * - settle charges the exact cost in full. A cost beyond the hold (the supplier returned more than
 *   was reserved) is still charged: the balance may go below zero by that overrun, the log row says
 *   so, and reserve refuses the user until the balance is positive again. Nothing is forgiven.
 * - A hold never settled within RESERVATION_TTL_MS is charged by the alarm; a late settle then
 *   charges only the difference (`X:` keys remember what the expiry took).
 * - credit applies a signed amount once per idempotency key (`I:` keys).
 * - Only safe integers reach money: anything else is refused with an error, and a stored state that
 *   somehow holds another number heals from the last value flushed to D1.
 * Settled changes and their log rows are written behind to D1 (wallet-flush.ts) about a second later.
 */
import { DurableObject } from 'cloudflare:workers'
import { buildDeadLetterStatements, buildFlushStatements, channelUsage, DEAD_LETTER_AFTER, isAlreadyApplied, isStatementError, toFlushPlan, type StoredPlan } from './wallet-flush'
import type {
  CreditInput,
  CreditResult,
  ReserveInput,
  ReserveResult,
  SettleInput,
  SettleResult,
  WalletBalance,
  WalletLog,
} from './wallet-types'
import { isMoney, type AppliedCredit, type Meta, type PendingLog, type Reservation, type TokenState, type UserState } from './wallet-state'

const FLUSH_DELAY_MS = 1000
/** Log rows per D1 batch (≈100 INSERT statements): D1 bounds statements and parameters per batch. */
const MAX_LOGS_PER_FLUSH = 500
const RESERVATION_TTL_MS = 60 * 60 * 1000
const LOG_TYPE_CONSUME = 2

/** Whether `n` may be used as an amount (≥ min); a refused amount is logged, never stored. */
function isAmount(name: string, n: unknown, min = 0): n is number {
  if (isMoney(n) && n >= min) return true
  console.error(`wallet: refused ${name} ${String(n)}: not a safe integer ≥ ${min}`)
  return false
}

export class UserWallet extends DurableObject<Env> {
  private user: UserState | undefined
  private readonly tokens = new Map<number, TokenState>()
  private reservations: Map<string, Reservation> | undefined
  private reservedTotal = 0
  private readonly tokenReserved = new Map<number, number>()
  private meta: Meta | undefined
  private logSeq: number | undefined
  private dirty: number[] | undefined
  private loading: Promise<void> | undefined
  private flushing: Promise<void> | undefined
  /** When the alarm is set for (undefined: not armed by this instance, or it is running). */
  private alarmAt: number | undefined
  /** Consecutive failed write-behind alarms (for the retry backoff). */
  private flushFailures = 0
  /** Requests admitted in the current minute (for the group's requests-per-minute limit). */
  private rate = { minute: 0, count: 0 }

  private get kv() {
    return this.ctx.storage.kv
  }

  // ---- loading ---------------------------------------------------------------------------

  private async ensureUser(userId: number): Promise<UserState | undefined> {
    if (this.user) return this.user
    const stored = this.kv.get<UserState>('user')
    if (stored && isMoney(stored.quota) && isMoney(stored.usedQuota) && isMoney(stored.requestCount)) this.user = stored
    else if (stored) console.error(`wallet ${userId}: stored balance is not money (${JSON.stringify(stored)}); healing from D1`)
    if (this.user) return this.user
    this.loading ??= this.loadUserFromD1(userId, stored?.version ?? 0).finally(() => (this.loading = undefined))
    await this.loading
    return this.user
  }

  private async loadUserFromD1(userId: number, version: number) {
    const row = await this.env.DB.prepare('SELECT id, quota, used_quota, request_count, status FROM users WHERE id = ?')
      .bind(userId)
      .first<{ id: number; quota: number; used_quota: number; request_count: number; status: number }>()
    if (!row || this.user) return
    // A healed state gets a new version so the next flush writes it back over anything broken.
    this.user = { id: row.id, quota: row.quota, usedQuota: row.used_quota, requestCount: row.request_count, status: row.status, version: version + 1 }
    this.kv.put('user', this.user)
  }

  private async ensureToken(tokenId: number): Promise<TokenState | undefined> {
    const known = this.tokens.get(tokenId) ?? this.kv.get<TokenState>(`t:${tokenId}`)
    if (known && isMoney(known.remain) && isMoney(known.used)) {
      this.tokens.set(tokenId, known)
      return known
    }
    if (known) console.error(`wallet: token ${tokenId} state is not money (${JSON.stringify(known)}); healing from D1`)
    const row = await this.env.DB.prepare(
      'SELECT id, user_id, remain_quota, used_quota, unlimited_quota, status, expired_time, accessed_time FROM tokens WHERE id = ?'
    )
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
  private holds(): Map<string, Reservation> {
    if (this.reservations) return this.reservations
    this.reservations = new Map()
    for (const [key, r] of this.kv.list<Reservation>({ prefix: 'R:' })) this.track(key.slice(2), r)
    return this.reservations
  }

  private getMeta(): Meta {
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

  private dirtyTokens(): number[] {
    this.dirty ??= this.kv.get<number[]>('dirtyTokens') ?? []
    return this.dirty
  }

  private setDirtyTokens(ids: number[]) {
    this.dirty = ids
    this.kv.put('dirtyTokens', ids)
  }

  // ---- mutations (synchronous once loaded: no interleaving inside them) ------------------

  private touchUser(user: UserState) {
    user.version++
    this.kv.put('user', user)
  }

  private touchToken(token: TokenState) {
    token.version++
    this.kv.put(`t:${token.id}`, token)
    const dirty = this.dirtyTokens()
    if (!dirty.includes(token.id)) this.setDirtyTokens([...dirty, token.id])
  }

  private appendLog(log: WalletLog, quota: number, channelCharge?: [number, number]) {
    this.kv.put(this.nextLogKey(), { ...log, quota, userId: this.user!.id, ...(channelCharge ? { channelCharge } : {}) } satisfies PendingLog)
  }

  /** Move `amount` (signed) out of the balance and the token, and count it as use. */
  private charge(user: UserState, token: TokenState | undefined, amount: number, countRequest: boolean) {
    user.quota -= amount
    user.usedQuota += amount
    if (countRequest) user.requestCount++
    this.touchUser(user)
    if (token) {
      if (!token.unlimited) token.remain -= amount
      token.used += amount
      token.accessed = Math.floor(Date.now() / 1000)
      this.touchToken(token)
    }
  }

  /** Arm the write-behind alarm once per batch window (called after a mutation completed). */
  private scheduleFlush() {
    return this.armAlarm(Date.now() + FLUSH_DELAY_MS)
  }

  /** Set the alarm for `at` unless it is already set sooner: a pending flush is never postponed. */
  private async armAlarm(at: number) {
    if (this.alarmAt !== undefined && this.alarmAt <= at) return
    this.alarmAt = at
    await this.ctx.storage.setAlarm(at)
  }

  private holdTotal(): number {
    this.holds()
    return this.reservedTotal
  }

  private track(reqId: string, r: Reservation) {
    this.reservations!.set(reqId, r)
    this.reservedTotal += r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) + r.amount)
  }

  private release(reqId: string): Reservation | undefined {
    const holds = this.holds()
    const r = holds.get(reqId)
    if (!r) return undefined
    holds.delete(reqId)
    this.kv.delete(`R:${reqId}`)
    this.reservedTotal -= r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) - r.amount)
    return r
  }

  /** Hold the request's worst case (or, with a floor, whatever is free above it) against balance and token. */
  async reserve(input: ReserveInput): Promise<ReserveResult> {
    if (!isAmount('amount', input.amount) || (input.floor !== undefined && !isAmount('floor', input.floor))) return { ok: false, reason: 'invalid_amount' }
    const amount = input.amount
    const floor = Math.min(input.floor ?? amount, amount)
    const user = await this.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const token = await this.ensureToken(input.tokenId)
    if (!token) return { ok: false, reason: 'token_not_found' }
    if (user.status !== 1) return { ok: false, reason: 'user_disabled' }
    if (token.status !== 1) return { ok: false, reason: 'token_disabled' }
    const now = Date.now()
    if (token.expired !== -1 && token.expired * 1000 <= now) return { ok: false, reason: 'token_expired' }
    const holds = this.holds()
    if (holds.has(input.reqId)) return { ok: false, reason: 'duplicate_request' }
    const tokenFree = token.unlimited ? Number.MAX_SAFE_INTEGER : token.remain - (this.tokenReserved.get(token.id) ?? 0)
    if (tokenFree <= 0 || tokenFree < floor) return { ok: false, reason: 'insufficient_token_quota' }
    const userFree = user.quota - this.reservedTotal
    if (userFree <= 0 || userFree < floor) return { ok: false, reason: 'insufficient_user_quota' }
    const minute = Math.floor(now / 60_000)
    if (this.rate.minute !== minute) this.rate = { minute, count: 0 }
    if (input.rpm && input.rpm > 0 && this.rate.count >= input.rpm) return { ok: false, reason: 'rate_limited' }
    this.rate.count++
    const held = Math.min(amount, userFree, tokenFree)
    const r: Reservation = { tokenId: token.id, amount: held, at: now }
    this.track(input.reqId, r)
    this.kv.put(`R:${input.reqId}`, r)
    if (this.alarmAt === undefined) await this.scheduleFlush()
    return { ok: true, held }
  }

  /** Charge the exact cost in full and write its log row. */
  async settle(input: SettleInput): Promise<SettleResult> {
    if (!isAmount('quota', input.quota)) return { ok: false, reason: 'invalid_amount' }
    const cost = input.quota
    const user = await this.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const reservation = this.release(input.reqId)
    const expired = this.kv.get<number>(`X:${input.reqId}`)
    if (expired !== undefined) this.kv.delete(`X:${input.reqId}`)
    const tokenId = reservation?.tokenId ?? input.log?.tokenId
    const token = tokenId ? await this.ensureToken(tokenId) : undefined
    const charged = cost - (expired ?? 0)
    const overrun = reservation ? Math.max(0, cost - reservation.amount) : 0
    this.charge(user, token, charged, expired === undefined)
    const log: WalletLog = input.log ?? { type: LOG_TYPE_CONSUME, createdAt: Math.floor(Date.now() / 1000), tokenId, requestId: input.reqId }
    const notes: Record<string, unknown> = {}
    if (reservation) notes.reserved = reservation.amount
    if (overrun > 0) notes.overrun = overrun
    if (expired !== undefined) notes.charged_on_expiry = expired
    if (user.quota < 0) notes.balance_after = user.quota
    this.appendLog({ ...log, metadata: { ...log.metadata, ...notes } }, charged, input.channelId && charged ? [input.channelId, charged] : undefined)
    await this.scheduleFlush()
    return { ok: true, charged, userQuota: user.quota, overrun }
  }

  /** The request failed: release its hold (and give back what an expiry took) with its error log. */
  async refund(input: { userId: number; reqId: string; log?: WalletLog }): Promise<void> {
    const user = await this.ensureUser(input.userId)
    if (!user) return
    const reservation = this.release(input.reqId)
    const expired = this.kv.get<number>(`X:${input.reqId}`)
    if (expired !== undefined) {
      this.kv.delete(`X:${input.reqId}`)
      const tokenId = reservation?.tokenId ?? input.log?.tokenId
      this.charge(user, tokenId ? await this.ensureToken(tokenId) : undefined, -expired, false)
    }
    if (input.log || expired !== undefined) {
      const log = input.log ?? { type: LOG_TYPE_CONSUME, createdAt: Math.floor(Date.now() / 1000), requestId: input.reqId }
      this.appendLog(expired !== undefined ? { ...log, metadata: { ...log.metadata, refunded_expiry_charge: expired } } : log, -(expired ?? 0))
      await this.scheduleFlush()
    }
  }

  /** Add (or, negative, subtract) an amount once per idempotency key, with its log row. */
  async credit(input: CreditInput): Promise<CreditResult> {
    if (!isAmount('amount', input.amount, -Number.MAX_SAFE_INTEGER) || typeof input.key !== 'string' || !input.key) return { ok: false, reason: 'invalid_amount' }
    const amount = input.amount
    const user = await this.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const applied = this.kv.get<AppliedCredit>(`I:${input.key}`)
    if (applied) return { ok: true, userQuota: applied.userQuota, duplicate: true }
    if (!isAmount('balance', user.quota + amount, -Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'invalid_amount' }
    // A deduction may take only what no in-flight request holds.
    if (amount < 0 && user.quota - this.holdTotal() + amount < 0) return { ok: false, reason: 'insufficient_user_quota' }
    user.quota += amount
    this.touchUser(user)
    this.appendLog({ ...input.log, metadata: { ...input.log.metadata, idempotency_key: input.key } }, amount)
    this.kv.put(`I:${input.key}`, { at: Date.now(), amount, userQuota: user.quota } satisfies AppliedCredit)
    await this.scheduleFlush()
    await this.flush()
    return { ok: true, userQuota: user.quota }
  }

  /** The token API changed a token: take its limits from D1 (or set the remaining quota explicitly). */
  async syncToken(input: { userId: number; tokenId: number; remain?: number }): Promise<void> {
    if (input.remain !== undefined && !isAmount('remain', input.remain)) return
    await this.ensureUser(input.userId)
    const row = await this.env.DB.prepare('SELECT unlimited_quota, status, expired_time FROM tokens WHERE id = ?')
      .bind(input.tokenId)
      .first<{ unlimited_quota: number; status: number; expired_time: number }>()
    if (!row) {
      this.tokens.delete(input.tokenId)
      this.kv.delete(`t:${input.tokenId}`)
      return
    }
    const token = await this.ensureToken(input.tokenId)
    if (!token) return
    token.unlimited = Boolean(row.unlimited_quota)
    token.status = row.status
    token.expired = row.expired_time
    if (input.remain !== undefined) token.remain = input.remain
    this.touchToken(token)
    await this.scheduleFlush()
    await this.flush()
  }

  /** The user API changed the user's status. */
  async syncUser(input: { userId: number }): Promise<void> {
    const user = await this.ensureUser(input.userId)
    if (!user) return
    const row = await this.env.DB.prepare('SELECT status FROM users WHERE id = ?').bind(input.userId).first<{ status: number }>()
    if (row) user.status = row.status
    this.kv.put('user', user)
  }

  async balance(input: { userId: number; tokenId?: number }): Promise<WalletBalance | undefined> {
    const user = await this.ensureUser(input.userId)
    if (!user) return undefined
    this.holds()
    const token = input.tokenId !== undefined ? await this.ensureToken(input.tokenId) : undefined
    return {
      quota: user.quota,
      usedQuota: user.usedQuota,
      requestCount: user.requestCount,
      reserved: this.reservedTotal,
      pendingLogs: [...this.kv.list({ prefix: 'L:' })].length,
      token: token && { remain: token.remain, used: token.used, unlimited: token.unlimited },
    }
  }

  // ---- write-behind ------------------------------------------------------------------------

  /** Write pending changes to D1 now (tests and admin actions that show D1); a failure leaves them pending. */
  async flush(): Promise<{ ok: true } | { ok: false; error: string }> {
    try {
      await this.flushNow()
      return { ok: true }
    } catch (err) {
      console.error('wallet: flush failed; changes stay pending', err)
      return { ok: false, error: String((err as Error)?.message ?? err) }
    }
  }

  private async flushNow(): Promise<void> {
    while (this.flushing) await this.flushing
    this.flushing = this.drain().finally(() => (this.flushing = undefined))
    await this.flushing
  }


  /** A backlog (e.g. after a D1 outage) goes out in bounded batches, oldest logs first. */
  private async drain(): Promise<void> {
    while (await this.flushOnce());
  }

  /** The plan in progress, or a new one saved before D1 sees it (so a retry replays it exactly). */
  private currentPlan(user: UserState): StoredPlan | undefined {
    const saved = this.kv.get<StoredPlan>('plan')
    if (saved) return saved
    const meta = this.getMeta()
    const logs = [...this.kv.list<PendingLog>({ prefix: 'L:', limit: MAX_LOGS_PER_FLUSH })]
    const counters = [...this.kv.list<number>({ prefix: 'c:' })].map(([k, v]) => ({ id: Number(k.slice(2)), amount: v }))
    const plan: StoredPlan = {
      seq: meta.flushSeq + 1,
      user: meta.flushedUserVersion !== user.version ? { ...user } : undefined,
      tokens: this.dirtyTokens()
        .map((id) => this.tokens.get(id) ?? this.kv.get<TokenState>(`t:${id}`))
        .filter((t): t is TokenState => t !== undefined)
        .map((t) => ({ ...t })),
      channels: channelUsage(counters, logs.map(([, l]) => l)),
      logKeys: logs.map(([k]) => k),
      counters,
    }
    if (!plan.user && plan.tokens.length === 0 && plan.channels.length === 0 && plan.logKeys.length === 0) return undefined
    this.kv.put('plan', plan)
    return plan
  }

  /** Writes one batch; true when more may be waiting (a replayed plan, or a full batch). */
  private async flushOnce(): Promise<boolean> {
    const user = this.user ?? this.kv.get<UserState>('user')
    if (!user) return false
    const replay = this.kv.get<StoredPlan>('plan') !== undefined
    const stored = this.currentPlan(user)
    if (!stored) return false
    const plan = toFlushPlan(user.id, stored, (key) => this.kv.get<PendingLog>(key))
    try {
      await this.env.DB.batch(buildFlushStatements(this.env.DB, plan))
    } catch (err) {
      if (!isAlreadyApplied(err)) await this.afterFailedFlush(stored, plan, err)
    }
    // Forget exactly what the plan wrote; changes made while the batch ran stay pending.
    const meta = this.getMeta()
    meta.flushSeq = stored.seq
    if (stored.user) meta.flushedUserVersion = stored.user.version
    meta.logSeq = this.logSeq ?? meta.logSeq
    this.kv.put('meta', meta)
    const stillDirty = stored.tokens.filter((t) => (this.tokens.get(t.id)?.version ?? t.version) !== t.version).map((t) => t.id)
    const newlyDirty = this.dirtyTokens().filter((id) => !stored.tokens.some((t) => t.id === id))
    this.setDirtyTokens([...stillDirty, ...newlyDirty])
    for (const c of stored.counters) {
      const left = (this.kv.get<number>(`c:${c.id}`) ?? 0) - c.amount
      if (left === 0) this.kv.delete(`c:${c.id}`)
      else this.kv.put(`c:${c.id}`, left)
    }
    for (const key of stored.logKeys) this.kv.delete(key)
    this.kv.delete('plan')
    return replay || stored.logKeys.length === MAX_LOGS_PER_FLUSH
  }

  /**
   * A plan D1 refused: count the attempt and rethrow — unless D1 keeps refusing the statements
   * themselves (not an outage) and the parked batch succeeds: then its log rows become dead letters
   * for root, and balances, tokens and channel usage land without them.
   */
  private async afterFailedFlush(stored: StoredPlan, plan: ReturnType<typeof toFlushPlan>, err: unknown): Promise<void> {
    stored.attempts = (stored.attempts ?? 0) + 1
    this.kv.put('plan', stored)
    if (stored.attempts < DEAD_LETTER_AFTER || plan.logs.length === 0 || !isStatementError(err)) throw err
    try {
      await this.env.DB.batch(buildDeadLetterStatements(this.env.DB, plan, String((err as Error)?.message ?? err)))
    } catch (parkErr) {
      if (!isAlreadyApplied(parkErr)) throw err
    }
    console.error(`wallet ${plan.userId}: ${plan.logs.length} log row(s) parked as dead letters after ${stored.attempts} failed flushes`, err)
  }

  async alarm(): Promise<void> {
    this.alarmAt = undefined
    await this.expireReservations()
    try {
      await this.flushNow()
      this.flushFailures = 0
    } catch (err) {
      // D1 unreachable: everything stays pending (the saved plan is replayed); try again with backoff.
      this.flushFailures++
      console.error(`wallet: write-behind failed ${this.flushFailures} time(s); retrying`, err)
      await this.armAlarm(Date.now() + Math.min(60_000, FLUSH_DELAY_MS * 2 ** this.flushFailures))
      return
    }
    // Mutations during the flush armed the next batch window; outstanding reservations only need
    // the alarm again at their expiry, which must never push that window back.
    const holds = this.holds()
    if (holds.size > 0) {
      const next = Math.min(...[...holds.values()].map((r) => r.at + RESERVATION_TTL_MS))
      await this.armAlarm(Math.max(next, Date.now() + FLUSH_DELAY_MS))
    }
  }

  /** Holds older than the TTL: the request never reported back, so the held amount is charged. */
  private async expireReservations() {
    const known = this.user ?? this.kv.get<UserState>('user')
    const user = known && (await this.ensureUser(known.id))
    if (!user) return
    const now = Date.now()
    for (const [reqId, r] of [...this.holds()]) {
      if (now - r.at < RESERVATION_TTL_MS) continue
      this.release(reqId)
      this.charge(user, await this.ensureToken(r.tokenId), r.amount, true)
      this.kv.put(`X:${reqId}`, r.amount)
      this.appendLog(
        {
          type: LOG_TYPE_CONSUME,
          createdAt: Math.floor(now / 1000),
          tokenId: r.tokenId,
          requestId: reqId,
          content: 'Reservation settled on expiry: the request did not report its usage within an hour, so the reserved amount was charged',
          metadata: { reserved: r.amount, reserved_at: Math.floor(r.at / 1000) },
        },
        r.amount
      )
    }
  }
}
