/**
 * The money side of one relay request, on the one Charge (billing/charge.ts): its worst case and
 * the token's limits for the hold (from the isolate's credit lease, else an exact wallet
 * reservation), and afterwards the exact cost to settle or the error to refund — each with its log
 * row (the row's fields, the client's request id, the inbound format and what content safety
 * masked in its metadata), and the relay's refusal envelope. relay-request.ts decides when; Charge decides how money moves.
 */
import type { Context } from 'hono'
import { type CachedAnswer, replayAsStream } from './response-cache'
import { Charge, chargeContext, type Hold, isRefusal } from '../billing/charge'
import { debtLimits } from '../billing/debt-limits'
import { computeQuota, type ModelPrice, type Usage } from '../billing/formula'
import type { HonoEnv } from '../env'
import { remindLowQuota } from '../mail/quota-reminder'
import type { Settings } from '../settings/store'
import type { InboundCodec } from './inbound/types'
import type { RelayInput } from './relay-input'
import { cachedTokens } from './relay-usage'
import type { ReservationPlan } from './reservation'
import type { RoutedChannel } from '../channels/types'
import { redactSecrets } from '../lib/redact'
import type { RelayAuth } from '../access/token-auth'
import { limitSpec } from '../access/token-limits'
import { walletRefusal } from '../access/wallet-refusals'
import { LOG_TYPE } from '../../shared/contract/enums'
import { recordRelay, type RelayOutcome } from '../lib/metrics/relay-metrics'
import { flushSoon } from '../lib/metrics/recorder'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'relay-money' })

/** What an answered attempt is billed as. */
export interface Bill {
  channel: RoutedChannel
  price: ModelPrice
  billed: string
  upstream: string
}

export class RelayMoney {
  private readonly charge: Charge
  /** Output tokens per choice the balance pays for, sent upstream when the client set no limit. */
  outputCap: number | undefined
  /** The x-ratelimit-* headers of the request's limits (once admitted). */
  rateHeaders: Record<string, string> = {}
  /** The request's hold, once granted. */
  private held: Hold | undefined
  private readonly inboundFormat: string

  constructor(
    c: Context<HonoEnv>,
    private readonly auth: RelayAuth,
    private readonly input: RelayInput,
    private readonly settings: Settings,
    private readonly ratio: number,
    /** The group's per-user requests and tokens per minute. */
    private readonly rates: { rpm: number; tpm: number },
    private readonly startedAt: number,
    inbound?: InboundCodec
  ) {
    // Log metadata: the inbound format, and the client's own X-Request-Id when it sent one (kept for its log rows only, never a key).
    const client = c.req.header('x-request-id')?.slice(0, 128)
    const labels = {
      ...(inbound ? { inbound_format: inbound.format } : {}),
      ...(client ? { client_request_id: client } : {}),
      ...(input.contentSafety ? { content_safety: input.contentSafety } : {}),
      ...(input.routedFrom ? { routed_from: input.routedFrom } : {}),
    }
    this.charge = new Charge(chargeContext(c, auth, input.model, labels))
    this.inboundFormat = inbound?.format ?? 'openai'
  }

  /** The request's metrics (lib/metrics/): a few Map operations, then a background flush. */
  private record(outcome: Omit<RelayOutcome, 'model' | 'inbound' | 'group' | 'durationMs'>) {
    const { env, ctx } = this.charge.c
    recordRelay(env, { ...outcome, model: this.input.model, inbound: this.inboundFormat, group: this.auth.group, durationMs: Date.now() - this.startedAt })
    flushSoon(env, ctx)
  }

  /** The request failed with `status` and `code` as the client sees them (after its refund). */
  recordFailure(status: number, code: string, channel?: RoutedChannel) {
    this.record({ channelId: channel?.id ?? 0, channelType: channel?.type ?? 0, status, errorCode: code })
  }

  /**
   * Hold the request's worst case: from the isolate's credit lease when it covers it (no wallet
   * round trip, billing/wallet-lease.ts), else by an exact reservation in the wallet (which also refuses a
   * user over the group's requests-per-minute limit). `tags`: those of the channels able to serve
   * the request, so a subscription limited to channel tags may cover it (channels/tag-scope.ts).
   */
  async hold(plan: ReservationPlan, tags: string[]) {
    await this.holdAmount(plan.amount, plan.floor, plan.shape.promptTokens + plan.shape.outputTokens * (plan.shape.n ?? 1), tags)
    this.outputCap = plan.outputCap(this.held!.held)
  }

  /** The channel tags the subscription that covered the hold limits the request to (empty: any channel). */
  get planTags(): string[] {
    return this.held?.plan?.tags ?? []
  }

  /** Hold `amount` (down to `floor`) for a request of about `estimate` tokens, under the key's limits. */
  private async holdAmount(amount: number, floor: number | undefined, estimate: number, tags: string[]) {
    const who = { tokenId: this.auth.id, userId: this.auth.userId, limits: this.auth.limits }
    const tz = this.settings.str('BudgetTimezone') || 'UTC'
    const limits = limitSpec(who, this.input.model, this.rates.tpm, tz, estimate)
    const hold = await this.charge.open({
      planTz: tz,
      planTags: tags,
      amount,
      floor,
      limits,
      admit: true,
      rpm: this.rates.rpm,
      debt: debtLimits(this.settings),
      lease: true,
    })
    if (isRefusal(hold)) throw walletRefusal(hold.reason, hold.retryAfterMs, hold.headers)
    this.held = hold
    this.rateHeaders = this.charge.rateHeaders(hold)
  }

  /**
   * The request goes on with a fallback model (model-fallbacks.ts): its rows name `model` and carry
   * `fallback_from`, and the hold fits the model's worst case — kept when it covers it, else regrown
   * in the wallet (Charge.regrow), else, when the client set no output limit, the answer is capped at
   * what is held. False when the wallet cannot hold it: the model is skipped. `tags`: those of the
   * model's channels (a regrown hold may be covered by another subscription: `planTags` follows it).
   */
  async refit(plan: ReservationPlan, model: string, from: string, tags: string[]): Promise<boolean> {
    const held = this.held
    if (!held) return false
    if (plan.amount > held.held) {
      const tz = this.settings.str('BudgetTimezone') || 'UTC'
      const grown = await this.charge.regrow(held, { amount: plan.amount, floor: plan.floor, debt: debtLimits(this.settings), plan: { model, tz, tags } })
      if (!isRefusal(grown)) this.held = grown
      else if (plan.floor === undefined || plan.floor > held.held) return false
    }
    this.outputCap = plan.outputCap(this.held!.held)
    this.answerAs(model, from)
    return true
  }

  /** Rows from now on are of `model`, answering for the requested `from`. */
  answerAs(model: string, from: string) {
    if (model === from) return
    this.charge.c.model = model
    this.charge.c.labels = { ...this.charge.c.labels, fallback_from: from }
  }

  private baseLog(channel?: RoutedChannel) {
    return { channelId: channel?.id ?? 0, isStream: this.input.stream, requestTime: Date.now() - this.startedAt }
  }

  /** Charge the exact cost with its log row (in the background, after the answer went out). */
  async settle(bill: Bill, usage: Usage, firstByteMs: number, note: string, attempts: number) {
    const breakdown = computeQuota(bill.price, usage, this.ratio)
    const log = this.charge.logRow(
      LOG_TYPE.CONSUME,
      {
        ...this.baseLog(bill.channel),
        upstreamModel: bill.upstream,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        firstResponseTime: firstByteMs,
        content: note,
      },
      { ...breakdown, billed_model: bill.billed, group: this.auth.group, attempts, cached_tokens: cachedTokens(usage) }
    )
    this.record({
      channelId: bill.channel.id,
      channelType: bill.channel.type,
      status: 200,
      errorCode: '',
      ...(this.input.stream ? { firstByteMs } : {}),
      inputTokens: usage.promptTokens,
      outputTokens: usage.completionTokens,
      cachedTokens: cachedTokens(usage),
      quota: breakdown.quota,
    })
    const settled = await this.charge.settle(this.held, {
      quota: breakdown.quota,
      channelId: bill.channel.id,
      log,
      keepLog: this.settings.bool('LogConsumeEnabled'),
      tokens: usage.promptTokens + usage.completionTokens,
      maxOverrun: this.settings.int('MaxUserOverrun'),
    })
    if (!settled) return
    if (!settled.ok) {
      serverLog.error('settle refused', { request_id: this.charge.c.reqId, reason: settled.reason, quota: breakdown.quota })
      return
    }
    await remindLowQuota(this.charge.c.env, { userId: this.auth.userId, before: settled.userQuota + settled.charged, after: settled.userQuota })
  }

  /** The request failed: give its hold back, with the error's log row. */
  async refund(message: string, tries: { attempts: number; tried: Set<number> }, channel?: RoutedChannel, status?: number, upstreamText?: string) {
    const upstream = upstreamText && upstreamText !== message ? { upstream_error: redactSecrets(upstreamText).slice(0, 1000) } : {}
    const log = this.charge.logRow(
      LOG_TYPE.ERROR,
      { ...this.baseLog(channel), content: message.slice(0, 1000) },
      { status: status ?? null, attempts: tries.attempts, tried: [...tries.tried], ...upstream }
    )
    await this.charge.refund(this.held, log)
  }

  /**
   * An answer from the response cache (as a stream when the request streams), billed at
   * ChatCacheHitRatio of what it cost at `price` (0, the default: free). That exact amount is held
   * first like any request (from the credit lease when it covers it), then settled; the row carries
   * `cache_hit` and the quota the cache saved.
   */
  async answerFromCache(cached: CachedAnswer, price: ModelPrice | undefined): Promise<Response> {
    const full = price ? computeQuota(price, cached.usage, this.ratio).quota : 0
    const quota = Math.round(full * this.settings.num('ChatCacheHitRatio'))
    const tokens = cached.usage.promptTokens + cached.usage.completionTokens
    // No channel answers a cached answer: a subscription limited to channel tags does not cover it.
    if (quota > 0) await this.holdAmount(quota, undefined, tokens, [])
    const log = this.charge.logRow(
      LOG_TYPE.CONSUME,
      {
        ...this.baseLog(),
        promptTokens: cached.usage.promptTokens,
        completionTokens: cached.usage.completionTokens,
        content: quota > 0 ? 'Answered from the response cache (billed at the cache ratio)' : 'Answered from the response cache (not charged)',
      },
      { cache_hit: true, saved_quota: full - quota }
    )
    const keepLog = this.settings.bool('LogConsumeEnabled')
    this.charge.c.ctx.waitUntil(this.charge.settle(quota > 0 ? this.held : undefined, { quota, log, keepLog, tokens }))
    if (!this.input.stream) return Response.json(cached.body, { headers: { 'x-cache': 'HIT' } })
    return new Response(replayAsStream(cached, this.input.includeUsage), {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-cache': 'HIT' },
    })
  }
}
