/**
 * Realtime session money through the one Charge (billing/charge.ts). A session holds two slots
 * for as long as its socket is open (zero-amount holds that count in the wallet's in-flight sets:
 * the API key's concurrency_limit, and RealtimeMaxSessionsPerKey sessions per key); every response
 * and every input transcription holds its worst case before it may run, and settles to its exact
 * cost (or, when the session ends first, to what was streamed) with its own log row. After each
 * charge the wallet is asked whether the balance still covers the floor of one more response (a
 * hold of that floor, given straight back); when it does not, the session is out of money and the
 * caller ends it. The user's subscriptions cover the holds first, as on the relay (a response or a
 * transcription counts as one request; the check is given back and counts none). Wallet calls run
 * one at a time, in the order they were asked for.
 *
 * Slots live in the user's wallet, one Durable Object for every isolate, so both counts are exact
 * across isolates. A hold the wallet never sees settled is charged by its alarm after an hour
 * (wallet-expiry.ts); the bridge ends sessions before that (MAX_SESSION_MS).
 */
import type { LimitSpec } from '../../wallet/wallet-limits'
import type { DebtLimits, WalletLog } from '../../wallet/wallet-types'
import { type Charge, type Hold, isRefusal, type Refusal } from '../../billing/charge'
import { computeQuota, type ModelPrice, sanitizeUsage, type Usage, worstCaseQuota } from '../../billing/formula'
import { budgetOnly } from '../../access/token-limits'
import { LOG_TYPE } from '../../../shared/contract/enums'

/** A response.done usage object → billing usage (audio and cached tokens as extra kinds). */
export function realtimeUsage(u: Record<string, any> | undefined): Usage | undefined {
  if (!u || typeof u !== 'object') return undefined
  const extra: Usage['extra'] = {}
  const cached = Number(u.input_token_details?.cached_tokens ?? 0)
  const audioIn = Number(u.input_token_details?.audio_tokens ?? 0)
  const audioOut = Number(u.output_token_details?.audio_tokens ?? 0)
  if (cached > 0) extra.cached_tokens = cached
  if (audioIn > 0) extra.input_audio_tokens = audioIn
  if (audioOut > 0) extra.output_audio_tokens = audioOut
  return sanitizeUsage({ promptTokens: Number(u.input_tokens ?? 0), completionTokens: Number(u.output_tokens ?? 0), ...(Object.keys(extra).length ? { extra } : {}) })
}

export interface RealtimeBillingOptions {
  channelId: number
  price: ModelPrice
  groupRatio: number
  /** Log fields shared by every row of the session (beyond the charge's own). */
  log: Pick<WalletLog, 'upstreamModel'>
  metadata: Record<string, unknown>
  /** The API key's limits for this session (the budget holds at every hold and check). */
  limits?: LimitSpec
  /** The user's debt bounds (billing/debt-limits.ts), sent with each hold and settle. */
  debt?: DebtLimits
  /** The BudgetTimezone: the user's subscriptions cover each response and transcription first (one request each). */
  planTz?: string
  /** The session channel's tag (channels/tag-scope.ts): a plan limited to channel tags covers the session's holds only when it is one of them. */
  planTags?: string[]
}

const MONEY_REFUSALS = new Set<string>(['insufficient_user_quota', 'insufficient_token_quota', 'budget_exceeded', 'insufficient_quota', 'plan_quota_exceeded'])

/** The protocol's error event, naming the client event it answers. */
export function errorEvent(code: string, message: string, eventId?: string): string {
  const type = MONEY_REFUSALS.has(code) ? 'insufficient_quota' : code.endsWith('_exceeded') ? 'rate_limit_error' : 'invalid_request_error'
  return JSON.stringify({ type: 'error', error: { type, code, message, param: null, event_id: eventId ?? null } })
}

/** The error event of a hold the wallet refused (a response or transcription that will not run). */
export function refusalEvent(refusal: Refusal, eventId: string | undefined, what: string): string {
  if (MONEY_REFUSALS.has(refusal.reason)) return errorEvent('insufficient_quota', `Your balance is too low for this ${what}.`, eventId)
  return errorEvent(refusal.reason, `This ${what} was refused: ${refusal.reason}.`, eventId)
}

/** Tokens in and out one response is assumed to need at least. */
const FLOOR_TOKENS = 256

export class RealtimeBilling {
  private chain: Promise<unknown> = Promise.resolve()
  private readonly floor: number
  exhausted = false

  constructor(
    private readonly money: Charge,
    readonly opts: RealtimeBillingOptions
  ) {
    this.floor = Math.max(1, worstCaseQuota(opts.price, { promptTokens: FLOOR_TOKENS, outputTokens: FLOOR_TOKENS }, opts.groupRatio))
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op)
    this.chain = next.catch(() => undefined)
    return next
  }

  private get budget(): LimitSpec | undefined {
    return this.opts.limits && budgetOnly(this.opts.limits)
  }

  /** Does the balance (and the key's budget) cover one response's floor? A refusal when not. */
  open(): Promise<Refusal | undefined> {
    return this.run(() => this.check())
  }

  private async check(): Promise<Refusal | undefined> {
    const res = await this.money.open({
      amount: this.floor,
      floor: this.floor,
      debt: this.opts.debt,
      limits: this.budget,
      part: 'check',
      planTz: this.opts.planTz,
      planTags: this.opts.planTags,
    })
    if (isRefusal(res)) {
      this.exhausted = true
      return { reason: res.reason, retryAfterMs: res.retryAfterMs }
    }
    await this.money.refund(res)
    return undefined
  }

  /** May another response start? */
  canStart(): boolean {
    return !this.exhausted
  }

  /**
   * Hold up to `amount` (at least `floor`) for one response or transcription; a refusal for want of
   * money makes the session `exhausted` unless `tentative` (the caller refuses one frame only).
   */
  hold(kind: 'response' | 'transcription', amount: number, floor: number, tentative = false): Promise<Hold | Refusal> {
    return this.run(async () => {
      const res = await this.money.open({
        amount,
        floor: Math.min(floor, amount),
        debt: this.opts.debt,
        limits: this.budget,
        part: kind,
        planTz: this.opts.planTz,
        planTags: this.opts.planTags,
      })
      if (isRefusal(res)) {
        if (!tentative && MONEY_REFUSALS.has(res.reason)) this.exhausted = true
        return { reason: res.reason, retryAfterMs: res.retryAfterMs }
      }
      return res
    })
  }

  /** Give a hold back unused (its response or transcription never ran). */
  release(hold: Hold): Promise<void> {
    return this.run(() => this.money.refund(hold))
  }

  /**
   * Charge one response or transcription in full with its log row, settling its hold when it has
   * one; afterwards `exhausted` says whether the session must end.
   */
  charge(usage: Usage, hold: Hold | undefined, note: { price?: ModelPrice; model?: string; content?: string; metadata?: Record<string, unknown> } = {}): Promise<number> {
    return this.run(async () => {
      const breakdown = computeQuota(note.price ?? this.opts.price, usage, this.opts.groupRatio)
      const fields = {
        channelId: this.opts.channelId,
        isStream: true,
        ...this.opts.log,
        ...(note.model ? { modelName: note.model, upstreamModel: note.model } : {}),
        ...(note.content ? { content: note.content } : {}),
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
      }
      const log = this.money.logRow(LOG_TYPE.CONSUME, fields, { ...breakdown, ...this.opts.metadata, ...note.metadata })
      const settle = { quota: breakdown.quota, channelId: this.opts.channelId, log, maxOverrun: this.opts.debt?.maxOverrun, part: 'unheld' as const }
      const res = await this.money.settle(hold, settle)
      if (!res) throw new Error('realtime settle unanswered')
      if (!res.ok) throw new Error(`realtime settle refused: ${res.reason}`)
      await this.check()
      return breakdown.quota
    })
  }

  /** Waits for the wallet calls still running (the session ended). */
  close(): Promise<unknown> {
    return this.run(async () => undefined)
  }
}
