/**
 * The money side of one relay request: hold its worst case (from the isolate's credit lease, else
 * an exact wallet reservation), check and count the token's limits, and afterwards settle the exact
 * cost or refund the hold — each with its log row (the row's fields, the client's request id and the
 * inbound format in its metadata). relay-request.ts decides when; this decides how money moves.
 */
import type { Context } from 'hono'
import { computeQuota, type ModelPrice, type Usage } from '../billing/formula'
import { LOG_TYPE } from '../db/schema'
import { clientIp } from '../middleware/rate-limit'
import type { Settings } from '../settings/store'
import { remindLowQuota } from '../mail/quota-reminder'
import type { WalletLog } from '../../durable-objects/wallet-types'
import type { LimitSpec } from '../../durable-objects/wallet-limits'
import type { HonoEnv } from '../env'
import { clockNow } from '../lib/clock'
import { debtLimits } from '../billing/debt-limits'
import { onIsolateReset } from '../cache/isolate'
import type { RelayInput } from './relay-input'
import type { RoutedChannel } from '../channels/types'
import type { RelayAuth } from '../access/token-auth'
import { admitLocally, checkLocally, hasLimits, limitError, limitSpec, localStatus, rateLimitHeaders, settleLocally, walletSaysFull } from '../access/token-limits'
import { cachedTokens } from './relay-usage'
import type { ReservationPlan } from './reservation'
import { holdFromLease, settleToLease, type LeaseHold, type LeaseWallet } from './wallet-lease'
import { redactSecrets } from '../lib/redact'
import { walletRefusal } from '../access/wallet-refusals'
import type { InboundCodec } from './inbound/types'

/**
 * Requests this isolate serves from credit leases, per user, open now: MaxUserOpenRequests caps them
 * here (beyond it a request takes the exact path, where the wallet counts its own), so a supplier
 * that ignores limits cannot multiply an overrun without bound (durable-objects/wallet-debt.ts).
 */
const leaseServed = new Map<number, number>()
onIsolateReset(() => leaseServed.clear())

/** What an answered attempt is billed as. */
export interface Bill {
  channel: RoutedChannel
  price: ModelPrice
  billed: string
  upstream: string
}

export class RelayMoney {
  private readonly env: Env
  private readonly ctx: ExecutionContext
  private readonly reqId: string
  private walletStub: ReturnType<Env['WALLET']['getByName']> | undefined
  /**
   * The lease's view of the wallet: the stub is made on first use, as most requests served from a
   * lease never call the wallet themselves (getByName hashes the name on every call).
   */
  private readonly leaseWallet: LeaseWallet = {
    lease: (input) => this.wallet.lease(input),
    settleLease: (input) => this.wallet.settleLease(input),
  }
  /** Output tokens per choice the balance pays for, sent upstream when the client set no limit. */
  outputCap: number | undefined
  /** The x-ratelimit-* headers of the request's limits (once admitted). */
  rateHeaders: Record<string, string> = {}
  /** Set when the request holds its worst case in the isolate's credit lease. */
  private leaseHold: LeaseHold | undefined
  /** Counted in `leaseServed` (enterLease … leaveLease). */
  private leaseSlot = false
  /** The token's limits for this request, when it was admitted. */
  private limits: LimitSpec | undefined
  private admittedAt = 0

  constructor(
    private readonly c: Context<HonoEnv>,
    private readonly auth: RelayAuth,
    private readonly input: RelayInput,
    private readonly settings: Settings,
    private readonly ratio: number,
    /** The group's per-user requests and tokens per minute. */
    private readonly rates: { rpm: number; tpm: number },
    private readonly startedAt: number,
    private readonly inbound?: InboundCodec
  ) {
    this.env = c.env
    this.ctx = c.executionCtx as ExecutionContext
    this.reqId = c.get('requestId')
  }

  /** The user's wallet (made in this request's context: a stub never serves another request). */
  private get wallet() {
    this.walletStub ??= this.env.WALLET.getByName(`user:${this.auth.userId}`)
    return this.walletStub
  }

  /**
   * Hold the request's worst case: from the isolate's credit lease when it covers it (no wallet
   * round trip, wallet-lease.ts), else by an exact reservation in the wallet (which also refuses a
   * user over the group's requests-per-minute limit).
   */
  async hold(plan: ReservationPlan) {
    const now = clockNow()
    const estimate = plan.shape.promptTokens + plan.shape.outputTokens * (plan.shape.n ?? 1)
    const who = { tokenId: this.auth.id, userId: this.auth.userId, limits: this.auth.limits }
    const spec = limitSpec(who, this.input.model, this.rates.tpm, this.settings.str('BudgetTimezone') || 'UTC', estimate)
    const local = checkLocally(spec, now)
    if (local) throw limitError(local.code, local.retryAfterMs, rateLimitHeaders(localStatus(spec, now)))
    const debt = debtLimits(this.settings)
    if (debt.maxOpen > 0 && (leaseServed.get(this.auth.userId) ?? 0) >= debt.maxOpen) throw walletRefusal('too_many_open_requests')
    if (plan.amount > 0 && !walletSaysFull(spec, now)) {
      // The slot is taken before the lease is asked, so requests waiting for the same grant count too.
      this.enterLease()
      this.leaseHold = await holdFromLease(
        this.leaseWallet,
        this.ctx,
        { userId: this.auth.userId, tokenId: this.auth.id, rpm: this.rates.rpm, budget: spec.budget, debt },
        plan.amount
      ).catch(() => undefined)
      if (!this.leaseHold) this.leaveLease()
      else {
        this.admit(spec, now)
        this.outputCap = plan.outputCap(plan.amount)
        return
      }
    }
    const reserved = await this.wallet.reserve({
      userId: this.auth.userId,
      tokenId: this.auth.id,
      reqId: this.reqId,
      amount: plan.amount,
      floor: plan.floor,
      rpm: this.rates.rpm,
      limits: spec,
      // Requests this isolate serves from leases count against the cap too.
      debt: { ...debt, maxOpen: debt.maxOpen > 0 ? Math.max(1, debt.maxOpen - (leaseServed.get(this.auth.userId) ?? 0)) : 0 },
    })
    if (!reserved.ok) throw walletRefusal(reserved.reason, reserved.retryAfterMs, rateLimitHeaders(localStatus(spec, now)))
    this.admit(spec, now)
    this.outputCap = plan.outputCap(reserved.held)
  }

  /** The request counts among the lease-served requests open in this isolate. */
  private enterLease() {
    this.leaseSlot = true
    leaseServed.set(this.auth.userId, (leaseServed.get(this.auth.userId) ?? 0) + 1)
  }

  /** It no longer does (once): it finished, or the lease could not serve it. */
  private leaveLease() {
    if (!this.leaseSlot) return
    this.leaseSlot = false
    const n = (leaseServed.get(this.auth.userId) ?? 1) - 1
    if (n > 0) leaseServed.set(this.auth.userId, n)
    else leaseServed.delete(this.auth.userId)
  }

  /** Count the admitted request in this isolate's windows and note the headers it answers with. */
  private admit(spec: LimitSpec, now: number) {
    this.limits = spec
    this.admittedAt = now
    admitLocally(spec, this.reqId, now)
    this.rateHeaders = rateLimitHeaders(localStatus(spec, now))
  }

  /** The lease report's rate entry of this request (its windows, admission time and settled tokens). */
  private limitItem(tokens: number) {
    settleLocally(this.reqId, tokens)
    return this.limits && hasLimits(this.limits) ? { limits: { rules: this.limits.rules, at: this.admittedAt, tokens } } : {}
  }

  private baseLog(channel?: RoutedChannel): WalletLog {
    return {
      type: LOG_TYPE.CONSUME,
      createdAt: Math.floor(clockNow() / 1000),
      username: this.auth.username,
      tokenName: this.auth.name,
      tokenId: this.auth.id,
      modelName: this.input.model,
      channelId: channel?.id ?? 0,
      isStream: this.input.stream,
      sourceIp: clientIp(this.c.req, this.env),
      requestId: this.reqId,
      requestTime: Date.now() - this.startedAt,
    }
  }

  /** Log metadata, with the client's own X-Request-Id when it sent one (kept for its log rows only, never a key). */
  private meta(fields: Record<string, unknown>): Record<string, unknown> {
    const client = this.c.req.header('x-request-id')?.slice(0, 128)
    const withFormat = this.inbound ? { ...fields, inbound_format: this.inbound.format } : fields
    return client ? { ...withFormat, client_request_id: client } : withFormat
  }

  /** Charge the exact cost with its log row (in the background, after the answer went out). */
  async settle(bill: Bill, usage: Usage, firstByteMs: number, note: string, attempts: number) {
    const breakdown = computeQuota(bill.price, usage, this.ratio)
    const log: WalletLog = {
      ...this.baseLog(bill.channel),
      upstreamModel: bill.upstream,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      firstResponseTime: firstByteMs,
      content: note,
      metadata: this.meta({ ...breakdown, billed_model: bill.billed, group: this.auth.group, attempts, cached_tokens: cachedTokens(usage) }),
    }
    const logged = this.settings.bool('LogConsumeEnabled') ? log : undefined
    const tokens = usage.promptTokens + usage.completionTokens
    this.leaveLease()
    const settled = this.leaseHold
      ? await settleToLease(this.leaseWallet, this.ctx, this.leaseHold, {
          reqId: this.reqId,
          quota: breakdown.quota,
          held: this.leaseHold.amount,
          maxOverrun: this.settings.int('MaxUserOverrun'),
          channelId: bill.channel.id,
          log: logged ?? { type: LOG_TYPE.CONSUME, createdAt: log.createdAt, tokenId: this.auth.id, requestId: this.reqId },
          ...this.limitItem(tokens),
        })
      : (settleLocally(this.reqId, tokens),
        await this.wallet.settle({
          userId: this.auth.userId,
          reqId: this.reqId,
          quota: breakdown.quota,
          channelId: bill.channel.id,
          log: logged,
          tokens,
          maxOverrun: this.settings.int('MaxUserOverrun'),
        }))
    if (!settled) return
    if (!settled.ok) {
      console.error(`[${this.reqId}] settle refused (${settled.reason}): quota ${breakdown.quota}`)
      return
    }
    await remindLowQuota(this.env, { userId: this.auth.userId, before: settled.userQuota + settled.charged, after: settled.userQuota })
  }

  /** The request failed: give its hold back, with the error's log row. */
  async refund(message: string, tries: { attempts: number; tried: Set<number> }, channel?: RoutedChannel, status?: number, upstreamText?: string) {
    const upstream = upstreamText && upstreamText !== message ? { upstream_error: redactSecrets(upstreamText).slice(0, 1000) } : {}
    const log: WalletLog = {
      ...this.baseLog(channel),
      type: LOG_TYPE.ERROR,
      content: message.slice(0, 1000),
      metadata: this.meta({ status: status ?? null, attempts: tries.attempts, tried: [...tries.tried], ...upstream }),
    }
    this.leaveLease()
    if (this.leaseHold) await settleToLease(this.leaseWallet, this.ctx, this.leaseHold, { reqId: this.reqId, quota: 0, log, ...this.limitItem(0) })
    else {
      settleLocally(this.reqId, 0)
      await this.wallet.refund({ userId: this.auth.userId, reqId: this.reqId, log })
    }
  }

  /** An answer from the response cache: not charged, logged with quota 0. */
  answerFromCache(cached: { body: unknown; usage: Usage }): Response {
    const log: WalletLog = {
      ...this.baseLog(),
      promptTokens: cached.usage.promptTokens,
      completionTokens: cached.usage.completionTokens,
      content: 'Answered from the response cache (not charged)',
      metadata: this.meta({ cache_hit: true }),
    }
    this.ctx.waitUntil(this.wallet.settle({ userId: this.auth.userId, reqId: this.reqId, quota: 0, log: this.settings.bool('LogConsumeEnabled') ? log : undefined }))
    return Response.json(cached.body, { headers: { 'x-cache': 'HIT' } })
  }
}
