/**
 * The typed surface of the UserWallet Durable Object as the Worker uses it: inputs and results of
 * its RPC methods. Results are plain objects (never thrown errors) so refusals cross RPC cleanly.
 */

/** A log row as the wallet writes it; `quota` is filled in by the wallet with what it charged. */
export interface WalletLog {
  type: number
  createdAt: number
  content?: string
  username?: string
  tokenName?: string
  tokenId?: number
  modelName?: string
  upstreamModel?: string
  promptTokens?: number
  completionTokens?: number
  channelId?: number
  requestTime?: number
  firstResponseTime?: number
  isStream?: boolean
  sourceIp?: string
  requestId?: string
  metadata?: Record<string, unknown>
}

export type RefusalReason =
  | 'user_not_found'
  | 'user_disabled'
  | 'token_not_found'
  | 'token_disabled'
  | 'token_expired'
  | 'insufficient_user_quota'
  | 'insufficient_token_quota'
  | 'rate_limited'

export type ReserveResult = { ok: true } | { ok: false; reason: RefusalReason }

export interface ReserveInput {
  userId: number
  tokenId: number
  reqId: string
  amount: number
  /** Requests per minute allowed to this user (their group's api_rate); 0 = unlimited. */
  rpm?: number
}

export interface SettleInput {
  userId: number
  reqId: string
  /** Exact cost computed by the billing formula. */
  quota: number
  channelId?: number
  /** The consume log (omitted when consume logging is off). */
  log?: WalletLog
}

export interface SettleResult {
  /** What was actually charged (≤ quota when the balance ran out mid-request). */
  charged: number
  userQuota: number
}

export interface CreditInput {
  userId: number
  /** Positive adds, negative subtracts (never below zero). */
  amount: number
  log?: WalletLog
}

export type CreditResult = { ok: true; userQuota: number } | { ok: false; reason: 'insufficient_user_quota' | 'user_not_found' }

export interface WalletBalance {
  quota: number
  usedQuota: number
  requestCount: number
  reserved: number
  pendingLogs: number
  token?: { remain: number; used: number; unlimited: boolean }
}
