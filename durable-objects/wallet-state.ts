/**
 * What a UserWallet keeps in its own storage, and in memory: the settled user balance, the
 * user's tokens, in-flight reservations (memory only), the write-behind counters and the log
 * rows waiting for D1.
 */
import type { WalletLog } from './wallet-types'

export interface UserState {
  id: number
  quota: number
  usedQuota: number
  requestCount: number
  status: number
  version: number
}

export interface TokenState {
  id: number
  remain: number
  used: number
  unlimited: boolean
  status: number
  expired: number
  accessed: number
  version: number
}

export interface Reservation {
  tokenId: number
  amount: number
  at: number
}

export interface Meta {
  logSeq: number
  flushSeq: number
  flushedUserVersion: number
}

/** A log row waiting for D1; `channelCharge` = [channel id, quota] when the row also carries the channel's usage. */
export type PendingLog = WalletLog & { quota: number; userId: number; channelCharge?: [number, number] }
