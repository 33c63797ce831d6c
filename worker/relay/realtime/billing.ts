/**
 * Realtime session money through the wallet. A session holds two slots for as long as its socket
 * is open (zero-amount holds that count in the wallet's in-flight sets: the API key's
 * concurrency_limit, and RealtimeMaxSessionsPerKey sessions per key); every response and every
 * input transcription holds its worst case before it may run, and settles to its exact cost (or,
 * when the session ends first, to what was streamed) with its own log row. After each charge the
 * wallet is asked whether the balance still covers the floor of one more response (a hold of that
 * floor, given straight back); when it does not, the session is out of money and the caller ends
 * it. Wallet calls run one at a time, in the order they were asked for.
 *
 * Slots live in the user's wallet, one Durable Object for every isolate, so both counts are exact
 * across isolates. A hold the wallet never sees settled is charged by its alarm after an hour
 * (wallet-expiry.ts); the bridge ends sessions before that (MAX_SESSION_MS).
 */
import { computeQuota, sanitizeUsage, worstCaseQuota, type ModelPrice, type Usage } from '../../billing/formula'
import type { DebtLimits, RefusalReason, WalletLog } from '../../../durable-objects/wallet-types'
import type { LimitSpec } from '../../../durable-objects/wallet-limits'
import { budgetOnly } from '../../access/token-limits'

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
  /** The session's server-made request id; each hold gets its own id under it. */
  sessionId: string
  channelId: number
  price: ModelPrice
  groupRatio: number
  /** Log fields shared by every row of the session. */
  log: Omit<WalletLog, 'promptTokens' | 'completionTokens' | 'metadata' | 'createdAt'>
  metadata: Record<string, unknown>
  /** The API key's limits for this session (the budget holds at every hold and check). */
  limits?: LimitSpec
  /** The user's debt bounds (billing/debt-limits.ts), sent with each hold and settle. */
  debt?: DebtLimits
}

/** A hold or check the wallet refused: why, and for a key's limit, when to try again. */
export interface Refusal {
  reason: RefusalReason
  retryAfterMs?: number
}

/** A hold the wallet granted: its id and how much it covers. */
export interface Hold {
  reqId: string
  held: number
}

export const isRefusal = (h: Hold | Refusal): h is Refusal => 'reason' in h
const MONEY_REFUSALS = new Set<string>(['insufficient_user_quota', 'insufficient_token_quota', 'budget_exceeded', 'insufficient_quota'])

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

/** The two slots a session takes: the key's in-flight request, and one of its realtime sessions. */
export async function takeSessionSlots(
  wallet: WalletStub,
  who: { userId: number; tokenId: number; sessionId: string },
  keySpec: LimitSpec,
  maxSessions: number
): Promise<{ ids: string[] } | { refused: Refusal; slot: 'key' | 'sessions' }> {
  const base = { userId: who.userId, tokenId: who.tokenId, amount: 0 }
  const key = await wallet.reserve({ ...base, reqId: `${who.sessionId}:slot`, limits: keySpec })
  if (!key.ok) return { refused: { reason: key.reason, retryAfterMs: key.retryAfterMs }, slot: 'key' }
  const sessions: LimitSpec = { ...budgetOnly(keySpec), concurrency: { key: `rt:${who.tokenId}`, limit: maxSessions } }
  const rt = await wallet.reserve({ ...base, reqId: `${who.sessionId}:session`, limits: sessions })
  if (rt.ok) return { ids: [`${who.sessionId}:slot`, `${who.sessionId}:session`] }
  await wallet.refund({ userId: who.userId, reqId: `${who.sessionId}:slot` })
  return { refused: { reason: rt.reason, retryAfterMs: rt.retryAfterMs }, slot: 'sessions' }
}

export async function releaseSessionSlots(wallet: WalletStub, userId: number, ids: string[]) {
  for (const reqId of ids) await wallet.refund({ userId, reqId })
}

export class RealtimeBilling {
  private holds = 0
  private chain: Promise<unknown> = Promise.resolve()
  private readonly floor: number
  exhausted = false

  constructor(
    private readonly wallet: WalletStub,
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
    const reqId = `${this.opts.sessionId}:check:${++this.holds}`
    const limits = this.budget
    const res = await this.wallet.reserve({
      userId: this.opts.userId,
      tokenId: this.opts.tokenId,
      reqId,
      amount: this.floor,
      floor: this.floor,
      debt: this.opts.debt,
      ...(limits ? { limits } : {}),
    })
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

  /**
   * Hold up to `amount` (at least `floor`) for one response or transcription; a refusal for want of
   * money makes the session `exhausted` unless `tentative` (the caller refuses one frame only).
   */
  hold(kind: 'response' | 'transcription', amount: number, floor: number, tentative = false): Promise<Hold | Refusal> {
    return this.run(async () => {
      const reqId = `${this.opts.sessionId}:${kind}:${++this.holds}`
      const limits = this.budget
      const res = await this.wallet.reserve({
        userId: this.opts.userId,
        tokenId: this.opts.tokenId,
        reqId,
        amount,
        floor: Math.min(floor, amount),
        debt: this.opts.debt,
        ...(limits ? { limits } : {}),
      })
      if (!res.ok) {
        if (!tentative && MONEY_REFUSALS.has(res.reason)) this.exhausted = true
        return { reason: res.reason, retryAfterMs: res.retryAfterMs }
      }
      return { reqId, held: res.held }
    })
  }

  /** Give a hold back unused (its response or transcription never ran). */
  release(hold: Hold): Promise<void> {
    return this.run(() => this.wallet.refund({ userId: this.opts.userId, reqId: hold.reqId }))
  }

  /**
   * Charge one response or transcription in full with its log row, settling its hold when it has
   * one; afterwards `exhausted` says whether the session must end.
   */
  charge(usage: Usage, hold: Hold | undefined, note: { price?: ModelPrice; model?: string; content?: string; metadata?: Record<string, unknown> } = {}): Promise<number> {
    return this.run(async () => {
      const breakdown = computeQuota(note.price ?? this.opts.price, usage, this.opts.groupRatio)
      const log: WalletLog = {
        ...this.opts.log,
        ...(note.model ? { modelName: note.model, upstreamModel: note.model } : {}),
        ...(note.content ? { content: note.content } : {}),
        createdAt: Math.floor(Date.now() / 1000),
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        metadata: { ...breakdown, ...this.opts.metadata, ...note.metadata },
      }
      const reqId = hold?.reqId ?? `${this.opts.sessionId}:unheld:${++this.holds}`
      const res = await this.wallet.settle({ userId: this.opts.userId, reqId, quota: breakdown.quota, channelId: this.opts.channelId, log, maxOverrun: this.opts.debt?.maxOverrun })
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
