/**
 * Realtime session billing through the wallet: the session holds a credit lease (wallet-types.ts
 * LeaseInput) sized for a few responses; each upstream `response.done` is charged exactly (its
 * usage: text, audio and cached tokens at their ratios) with its own log row, and the lease is
 * topped up. When the wallet can no longer grant the floor of one more response, the session is
 * out of money and is closed by the caller. Wallet calls run one at a time.
 */
import { computeQuota, sanitizeUsage, worstCaseQuota, type ModelPrice, type Usage } from '../../billing/formula'
import type { RefusalReason, WalletLog } from '../../../durable-objects/wallet-types'

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
  sessionId: string
  channelId: number
  price: ModelPrice
  groupRatio: number
  /** Log fields shared by every response of the session. */
  log: Omit<WalletLog, 'promptTokens' | 'completionTokens' | 'metadata' | 'createdAt'>
  metadata: Record<string, unknown>
}

/** Output tokens one response is assumed to need at least, and the lease size in responses. */
const FLOOR_TOKENS = 256
const LEASE_TOKENS = 4096

export class RealtimeBilling {
  private held = 0
  private responses = 0
  private chain: Promise<unknown> = Promise.resolve()
  private readonly floor: number
  private readonly size: number
  exhausted = false

  constructor(
    private readonly wallet: WalletStub,
    private readonly opts: RealtimeBillingOptions
  ) {
    this.floor = Math.max(1, worstCaseQuota(opts.price, { promptTokens: FLOOR_TOKENS, outputTokens: FLOOR_TOKENS }, opts.groupRatio))
    this.size = Math.max(this.floor, worstCaseQuota(opts.price, { promptTokens: LEASE_TOKENS, outputTokens: LEASE_TOKENS }, opts.groupRatio))
  }

  private get leaseId() {
    return `realtime:${this.opts.sessionId}`
  }

  private run<T>(op: () => Promise<T>): Promise<T> {
    const next = this.chain.then(op)
    this.chain = next.catch(() => undefined)
    return next
  }

  /** Takes (or renews) the lease; a refusal reason when the balance cannot cover one response. */
  open(): Promise<RefusalReason | undefined> {
    return this.run(() => this.grant())
  }

  private async grant(): Promise<RefusalReason | undefined> {
    const res = await this.wallet.lease({ userId: this.opts.userId, tokenId: this.opts.tokenId, leaseId: this.leaseId, amount: this.size, floor: this.floor })
    if (!res.ok) {
      this.exhausted = true
      return res.reason
    }
    this.held = res.held
    return undefined
  }

  /** May another response start? (The lease still covers the floor of one.) */
  canStart(): boolean {
    return !this.exhausted && this.held >= this.floor
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
      const res = await this.wallet.settleLease({
        userId: this.opts.userId,
        leaseId: this.leaseId,
        items: [{ reqId, quota: breakdown.quota, channelId: this.opts.channelId, log }],
        extend: this.size,
      })
      if (!res.ok) throw new Error(`realtime settle refused: ${res.reason}`)
      this.held = res.held
      // The lease ran dry or the wallet gave it back (idle longer than its TTL): ask again.
      if (this.held < this.floor) await this.grant()
      return breakdown.quota
    })
  }

  /** Gives what is left of the lease back (the session ended). */
  close(): Promise<unknown> {
    return this.run(async () => {
      await this.wallet.settleLease({ userId: this.opts.userId, leaseId: this.leaseId, items: [], release: true })
    })
  }
}
