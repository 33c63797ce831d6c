/**
 * UserWallet: one Durable Object per user, the single source of truth for the user's balance and
 * the remaining quota of the user's tokens. Every balance change goes through it: relay
 * reservations (reserve → settle/refund), top-ups, admin adjustments, rewards.
 *
 * Reservations live in memory only: a reservation holds part of the balance (checked atomically,
 * no storage write on the hot path), and the persisted balance always means "settled". If the
 * object restarts, outstanding reservations simply vanish (nothing was taken), and a later settle
 * still charges what was used, capped so the balance never goes below zero. Settled charges and the
 * log rows explaining them are persisted here first, then written behind to D1 in one idempotent
 * batch (wallet-flush.ts) about a second later, so D1 totals equal the sum of log rows.
 * Reservations never settled within RESERVATION_TTL_MS are charged by the alarm with a log.
 */
import { DurableObject } from 'cloudflare:workers'
import { buildFlushStatements, isAlreadyApplied, type FlushPlan } from './wallet-flush'
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
import type { Meta, PendingLog, Reservation, TokenState, UserState } from './wallet-state'

const FLUSH_DELAY_MS = 1000
/** Log rows per D1 batch (≈100 INSERT statements): D1 bounds statements and parameters per batch. */
const MAX_LOGS_PER_FLUSH = 500
const RESERVATION_TTL_MS = 60 * 60 * 1000
const LOG_TYPE_CONSUME = 2

export class UserWallet extends DurableObject<Env> {
  private user: UserState | undefined
  private readonly tokens = new Map<number, TokenState>()
  private readonly reservations = new Map<string, Reservation>()
  private reservedTotal = 0
  private readonly tokenReserved = new Map<number, number>()
  private meta: Meta | undefined
  private logSeq: number | undefined
  private dirty: number[] | undefined
  private loading: Promise<void> | undefined
  private flushing: Promise<void> | undefined
  /** When the alarm is set for (undefined: not armed by this instance, or it is running). */
  private alarmAt: number | undefined
  /** Requests admitted in the current minute (for the group's requests-per-minute limit). */
  private rate = { minute: 0, count: 0 }

  private get kv() {
    return this.ctx.storage.kv
  }

  // ---- loading ---------------------------------------------------------------------------

  private async ensureUser(userId: number): Promise<UserState | undefined> {
    if (this.user) return this.user
    this.user = this.kv.get<UserState>('user')
    if (this.user) return this.user
    this.loading ??= this.loadUserFromD1(userId).finally(() => (this.loading = undefined))
    await this.loading
    return this.user
  }

  private async loadUserFromD1(userId: number) {
    const row = await this.env.DB.prepare('SELECT id, quota, used_quota, request_count, status FROM users WHERE id = ?')
      .bind(userId)
      .first<{ id: number; quota: number; used_quota: number; request_count: number; status: number }>()
    if (!row || this.user) return
    this.user = { id: row.id, quota: row.quota, usedQuota: row.used_quota, requestCount: row.request_count, status: row.status, version: 0 }
    this.kv.put('user', this.user)
  }

  private async ensureToken(tokenId: number): Promise<TokenState | undefined> {
    const known = this.tokens.get(tokenId) ?? this.kv.get<TokenState>(`t:${tokenId}`)
    if (known) {
      this.tokens.set(tokenId, known)
      return known
    }
    const row = await this.env.DB.prepare(
      'SELECT id, user_id, remain_quota, used_quota, unlimited_quota, status, expired_time, accessed_time FROM tokens WHERE id = ?'
    )
      .bind(tokenId)
      .first<{ id: number; user_id: number; remain_quota: number; used_quota: number; unlimited_quota: number; status: number; expired_time: number; accessed_time: number }>()
    if (!row || row.user_id !== this.user?.id) return undefined
    const token = this.tokens.get(tokenId) ?? {
      id: row.id,
      remain: row.remain_quota,
      used: row.used_quota,
      unlimited: Boolean(row.unlimited_quota),
      status: row.status,
      expired: row.expired_time,
      accessed: row.accessed_time,
      version: 0,
    }
    this.tokens.set(tokenId, token)
    this.kv.put(`t:${tokenId}`, token)
    return token
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

  private addChannelUsage(channelId: number | undefined, amount: number) {
    if (!channelId || !amount) return
    const key = `c:${channelId}`
    this.kv.put(key, (this.kv.get<number>(key) ?? 0) + amount)
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

  private hold(reqId: string, r: Reservation) {
    this.reservations.set(reqId, r)
    this.reservedTotal += r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) + r.amount)
  }

  private release(reqId: string): Reservation | undefined {
    const r = this.reservations.get(reqId)
    if (!r) return undefined
    this.reservations.delete(reqId)
    this.reservedTotal -= r.amount
    this.tokenReserved.set(r.tokenId, (this.tokenReserved.get(r.tokenId) ?? 0) - r.amount)
    return r
  }

  /** Hold an estimate against the balance and the token; memory only (no storage write). */
  async reserve(input: ReserveInput): Promise<ReserveResult> {
    const user = await this.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const token = await this.ensureToken(input.tokenId)
    if (!token) return { ok: false, reason: 'token_not_found' }
    if (user.status !== 1) return { ok: false, reason: 'user_disabled' }
    if (token.status !== 1) return { ok: false, reason: 'token_disabled' }
    const now = Date.now()
    if (token.expired !== -1 && token.expired * 1000 <= now) return { ok: false, reason: 'token_expired' }
    const amount = Math.max(0, Math.ceil(input.amount))
    const tokenFree = token.remain - (this.tokenReserved.get(token.id) ?? 0)
    if (!token.unlimited && (tokenFree <= 0 || tokenFree < amount)) return { ok: false, reason: 'insufficient_token_quota' }
    const free = user.quota - this.reservedTotal
    if (free <= 0 || free < amount) return { ok: false, reason: 'insufficient_user_quota' }
    const minute = Math.floor(now / 60_000)
    if (this.rate.minute !== minute) this.rate = { minute, count: 0 }
    if (input.rpm && input.rpm > 0 && this.rate.count >= input.rpm) return { ok: false, reason: 'rate_limited' }
    this.rate.count++
    this.hold(input.reqId, { tokenId: token.id, amount, at: now })
    if (this.alarmAt === undefined) await this.scheduleFlush()
    return { ok: true }
  }

  async settle(input: SettleInput): Promise<SettleResult> {
    const user = await this.ensureUser(input.userId)
    if (!user) return { charged: 0, userQuota: 0 }
    const reservation = this.release(input.reqId)
    const tokenId = reservation?.tokenId ?? input.log?.tokenId
    const token = tokenId ? await this.ensureToken(tokenId) : undefined
    const wanted = Math.max(0, Math.ceil(input.quota))
    // Never below zero, and never into what other requests are holding.
    let charged = Math.min(wanted, Math.max(0, user.quota - this.reservedTotal))
    if (token && !token.unlimited) charged = Math.min(charged, Math.max(0, token.remain - (this.tokenReserved.get(token.id) ?? 0)))
    user.quota -= charged
    user.usedQuota += charged
    user.requestCount++
    this.touchUser(user)
    if (token) {
      if (!token.unlimited) token.remain -= charged
      token.used += charged
      token.accessed = Math.floor(Date.now() / 1000)
      this.touchToken(token)
    }
    if (input.log) {
      const log = charged < wanted ? { ...input.log, metadata: { ...input.log.metadata, capped_from: wanted } } : input.log
      // The log row carries the channel's usage too (written with it), so no separate counter write.
      this.appendLog(log, charged, input.channelId && charged ? [input.channelId, charged] : undefined)
    } else this.addChannelUsage(input.channelId, charged)
    await this.scheduleFlush()
    return { charged, userQuota: user.quota }
  }

  async refund(input: { userId: number; reqId: string; log?: WalletLog }): Promise<void> {
    const user = await this.ensureUser(input.userId)
    if (!user) return
    this.release(input.reqId)
    if (input.log) {
      this.appendLog(input.log, 0)
      await this.scheduleFlush()
    }
  }

  async credit(input: CreditInput): Promise<CreditResult> {
    const user = await this.ensureUser(input.userId)
    if (!user) return { ok: false, reason: 'user_not_found' }
    const amount = Math.trunc(input.amount)
    if (user.quota + amount < 0) return { ok: false, reason: 'insufficient_user_quota' }
    user.quota += amount
    this.touchUser(user)
    if (input.log) this.appendLog(input.log, amount)
    await this.scheduleFlush()
    await this.flush()
    return { ok: true, userQuota: user.quota }
  }

  /** The token API changed a token: take its limits from D1 (or set the remaining quota explicitly). */
  async syncToken(input: { userId: number; tokenId: number; remain?: number }): Promise<void> {
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
    if (input.remain !== undefined) token.remain = Math.max(0, Math.trunc(input.remain))
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

  /** Write pending changes to D1 now (also used by tests and by admin actions that show D1). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing
    this.flushing = this.drain().finally(() => (this.flushing = undefined))
    await this.flushing
  }

  /** A backlog (e.g. after a D1 outage) goes out in bounded batches, oldest logs first. */
  private async drain(): Promise<void> {
    while (await this.flushOnce());
  }

  /** Writes one batch; true when more logs are waiting. */
  private async flushOnce(): Promise<boolean> {
    const user = this.user ?? this.kv.get<UserState>('user')
    if (!user) return false
    const meta = this.getMeta()
    const plan: FlushPlan = {
      userId: user.id,
      seq: meta.flushSeq + 1,
      user: meta.flushedUserVersion !== user.version ? { ...user } : undefined,
      tokens: this.dirtyTokens()
        .map((id) => this.tokens.get(id) ?? this.kv.get<TokenState>(`t:${id}`))
        .filter((t): t is TokenState => t !== undefined)
        .map((t) => ({ ...t })),
      channels: [],
      logs: [...this.kv.list<PendingLog>({ prefix: 'L:', limit: MAX_LOGS_PER_FLUSH })],
    }
    // Channel usage: counters kept apart (requests settled without a log) plus what the logs carry.
    const counted = [...this.kv.list<number>({ prefix: 'c:' })].map(([k, v]) => ({ id: Number(k.slice(2)), amount: v }))
    const usage = new Map(counted.map((c) => [c.id, c.amount]))
    for (const [, l] of plan.logs) if (l.channelCharge) usage.set(l.channelCharge[0], (usage.get(l.channelCharge[0]) ?? 0) + l.channelCharge[1])
    plan.channels = [...usage].map(([id, amount]) => ({ id, amount }))
    if (!plan.user && plan.tokens.length === 0 && plan.channels.length === 0 && plan.logs.length === 0) return false
    try {
      await this.env.DB.batch(buildFlushStatements(this.env.DB, plan))
    } catch (err) {
      if (!isAlreadyApplied(err)) throw err
    }
    // Forget exactly what was written; changes made while the batch ran stay pending.
    meta.flushSeq = plan.seq
    if (plan.user) meta.flushedUserVersion = plan.user.version
    meta.logSeq = this.logSeq ?? meta.logSeq
    this.kv.put('meta', meta)
    const stillDirty = plan.tokens.filter((t) => (this.tokens.get(t.id)?.version ?? t.version) !== t.version).map((t) => t.id)
    const newlyDirty = this.dirtyTokens().filter((id) => !plan.tokens.some((t) => t.id === id))
    this.setDirtyTokens([...stillDirty, ...newlyDirty])
    for (const c of counted) {
      const left = (this.kv.get<number>(`c:${c.id}`) ?? 0) - c.amount
      if (left === 0) this.kv.delete(`c:${c.id}`)
      else this.kv.put(`c:${c.id}`, left)
    }
    for (const [key] of plan.logs) this.kv.delete(key)
    return plan.logs.length === MAX_LOGS_PER_FLUSH
  }

  async alarm(): Promise<void> {
    this.alarmAt = undefined
    this.expireReservations()
    await this.flush()
    // Mutations during the flush armed the next batch window; outstanding reservations only need
    // the alarm again at their expiry, which must never push that window back.
    if (this.reservations.size > 0) {
      const next = Math.min(...[...this.reservations.values()].map((r) => r.at + RESERVATION_TTL_MS))
      await this.armAlarm(Math.max(next, Date.now() + FLUSH_DELAY_MS))
    }
  }

  /** Reservations older than the TTL: the request never reported back, so the reservation is charged. */
  private expireReservations() {
    const user = this.user
    if (!user) return
    const now = Date.now()
    for (const [reqId, r] of [...this.reservations]) {
      if (now - r.at < RESERVATION_TTL_MS) continue
      this.release(reqId)
      const charged = Math.min(r.amount, Math.max(0, user.quota - this.reservedTotal))
      user.quota -= charged
      user.usedQuota += charged
      user.requestCount++
      this.touchUser(user)
      const token = this.tokens.get(r.tokenId)
      if (token) {
        if (!token.unlimited) token.remain -= charged
        token.used += charged
        this.touchToken(token)
      }
      this.appendLog(
        {
          type: LOG_TYPE_CONSUME,
          createdAt: Math.floor(now / 1000),
          tokenId: r.tokenId,
          requestId: reqId,
          content: 'Reservation settled on expiry: the request did not report its usage within an hour, so the reserved amount was charged',
          metadata: { reserved: r.amount, reserved_at: Math.floor(r.at / 1000) },
        },
        charged
      )
    }
  }
}
