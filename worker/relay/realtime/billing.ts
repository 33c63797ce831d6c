/**
 * Realtime session billing through the wallet: each upstream `response.done` is charged exactly
 * (its usage: text, audio and cached tokens at their ratios) with its own log row — responses the
 * server starts itself (voice activity) included — and after each charge the wallet is asked,
 * atomically, whether the balance still covers the floor of one more response (a reservation of
 * that floor, given straight back). When it does not, the session is out of money and the caller
 * ends it. Nothing is held between responses; wallet calls run one at a time.
 *
 * The API key's limits (token-limits.ts) apply when the session opens: it counts as one request of
 * no tokens against the key's requests per minute and per-model limits, and every check keeps the
 * key's budget, which each charge spends like any other.
 */
import { computeQuota, sanitizeUsage, worstCaseQuota, type ModelPrice, type Usage } from '../../billing/formula'
import type { RefusalReason, WalletLog } from '../../../durable-objects/wallet-types'
import type { LimitSpec } from '../../../durable-objects/wallet-limits'
import { budgetOnly } from '../token-limits'

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

type WalletStub = ReturnType<Env['WALLET']['getByName']>

export interface RealtimeBillingOptions {
  userId: number
  tokenId: number
  /** The session's server-made request id; each response and check gets its own id under it. */
  sessionId: string
  channelId: number
  price: ModelPrice
  groupRatio: number
  /** Log fields shared by every response of the session. */
  log: Omit<WalletLog, 'promptTokens' | 'completionTokens' | 'metadata' | 'createdAt'>
  metadata: Record<string, unknown>
  /** The API key's limits for this session (counted at the opening check; the budget at every check). */
  limits?: LimitSpec
}

/** A check the wallet refused: why, and for a key's limit, when to try again. */
export interface Refusal {
  reason: RefusalReason
  retryAfterMs?: number
}

/** Tokens in and out one response is assumed to need at least. */
const FLOOR_TOKENS = 256

export class RealtimeBilling {
  private responses = 0
  private checks = 0
  private chain: Promise<unknown> = Promise.resolve()
  private readonly floor: number
  exhausted = false

  constructor(
    private readonly wallet: WalletStub,
    private readonly opts: RealtimeBillingOptions
  ) {
    this.floor = Math.max(1, worstCaseQuota(opts.price, { promptTokens: FLOOR_TOKENS, outputTokens: FLOOR_TOKENS }, opts.groupRatio))
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op)
    this.chain = next.catch(() => undefined)
    return next
  }

  /**
   * May the session start: does the balance cover one response, and do the key's limits admit it?
   * A refusal when not (the session must not start).
   */
  open(): Promise<Refusal | undefined> {
    return this.run(() => this.check(true))
  }

  /** Does the balance (and the key's budget) cover one more response? Counted as a request only when opening. */
  private async check(opening = false): Promise<Refusal | undefined> {
    const reqId = `${this.opts.sessionId}:check:${++this.checks}`
    const spec = this.opts.limits
    const limits = spec && (opening ? spec : budgetOnly(spec))
    const res = await this.wallet.reserve({ userId: this.opts.userId, tokenId: this.opts.tokenId, reqId, amount: this.floor, floor: this.floor, ...(limits ? { limits } : {}) })
    if (!res.ok) {
      this.exhausted = true
      return { reason: res.reason, retryAfterMs: res.retryAfterMs }
    }
    await this.wallet.refund({ userId: this.opts.userId, reqId })
    return undefined
  }

  /** May another response start? */
  canStart(): boolean {
    return !this.exhausted
  }

  /** Charges one finished response; afterwards `exhausted` says whether the session must end. */
  charge(usage: Usage, responseId: string): Promise<number> {
    return this.run(async () => {
      const breakdown = computeQuota(this.opts.price, usage, this.opts.groupRatio)
      const log: WalletLog = {
        ...this.opts.log,
        createdAt: Math.floor(Date.now() / 1000),
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        metadata: { ...breakdown, ...this.opts.metadata, response_id: responseId },
      }
      const reqId = `${this.opts.sessionId}:${++this.responses}`
      const res = await this.wallet.settle({ userId: this.opts.userId, reqId, quota: breakdown.quota, channelId: this.opts.channelId, log })
      if (!res.ok) throw new Error(`realtime settle refused: ${res.reason}`)
      await this.check()
      return breakdown.quota
    })
  }

  /** Waits for the charges still running (the session ended). */
  close(): Promise<unknown> {
    return this.run(async () => undefined)
  }
}
