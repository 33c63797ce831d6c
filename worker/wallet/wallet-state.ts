/**
 * What a UserWallet keeps in its own storage, and in memory: the settled user balance, the
 * user's tokens, in-flight reservations, the write-behind counters, the log rows waiting for D1,
 * the flush plan being written, and the idempotency keys of credits already applied.
 *
 * Storage keys: `user`, `t:<tokenId>`, `R:<reqId>` (reservation), `X:<reqId>` (charged on expiry),
 * `L:<seq>` (pending log rows, one or a group — PendingEntry), `I:<key>` (applied credit), `plan` (flush in progress), `meta`,
 * `dirtyTokens`, `S:<leaseId>` (the last lease report applied), and `c:<channelId>` (legacy channel counters, drained by the next flush).
 * Plans (wallet-plans.ts): `subs` (the user's active subscriptions, as syncUser last read them),
 * `P:<subscriptionId>` (each window's and model item's `{start, used}`), and `XP:<reqId>` (the
 * subscription an expiry charged instead of the balance, beside its `X:` key).
 */
import type { BudgetState } from './wallet-limits'
import { asPacked, type PackedLog, type PendingLog } from './wallet-log-row'
import { logger } from '../lib/logger'
import type { PlanRef } from './wallet-plans'

/** The wallet's server log (lib/logger.ts), shared by the wallet's modules. */
export const walletLog = logger({ module: 'wallet' })

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
  /** The token's budget period and what its log rows in that period add up to (wallet-limits.ts). */
  budget?: BudgetState
}

export interface Reservation {
  tokenId: number
  amount: number
  /** When it was made (a lease: its last contact). */
  at: number
  /** A credit lease (worker/billing/wallet-lease.ts): spent by many requests, released — never charged — on expiry. */
  lease?: boolean
  /** A plan hold (wallet-plans.ts): drawn from this subscription's windows, not from the balance. */
  plan?: PlanRef
  /** A plan lease (wallet-plan-lease.ts): the requests it holds in the request-counted windows (none: the plan counts quota only). */
  requests?: number
  /** A plan lease: when (ms) its first window rolls or its subscription ends; it is given back at its first call after that. */
  until?: number
}

export interface Meta {
  logSeq: number
  flushSeq: number
  flushedUserVersion: number
}

/** A log row waiting for D1: packed (wallet-log-row.ts), or a plain object stored by an earlier version. */
export type StoredLog = PackedLog | PendingLog

/** Log rows stored under one `L:` key at most (a lease report of many requests spans several keys). */
export const ROWS_PER_KEY = 64

/**
 * What one `L:` key holds: a single row, or the rows one wallet call appended (stored together, one
 * storage write per call instead of one per row).
 */
export type PendingEntry = StoredLog | StoredLog[]

/** The rows of a stored `L:` entry, packed, each with its own key (`L:<seq>` or `L:<seq>#<i>` within a group). */
export function pendingRows(key: string, entry: PendingEntry | undefined): [string, PackedLog][] {
  if (entry === undefined) return []
  return Array.isArray(entry) ? entry.map((row, i) => [`${key}#${i}`, asPacked(row)]) : [[key, asPacked(entry)]]
}

/** The last report of a credit lease the wallet applied (a report sent again is answered, not charged). */
export interface AppliedReport {
  seq: number
  /** When (ms); kept a day after its lease ended, then swept (wallet-expiry.ts). */
  at: number
}

/** A credit already applied under an idempotency key, and what it answered. */
export interface AppliedCredit {
  at: number
  amount: number
  userQuota: number
}

/** True for the only numbers money may hold: finite integers within ±2^53. */
export const isMoney = (n: unknown): n is number => Number.isSafeInteger(n)

/** Whether `n` may be used as an amount (money ≥ min); a refused amount is logged, never stored. */
export function isAmount(name: string, n: unknown, min = 0): n is number {
  if (isMoney(n) && n >= min) return true
  walletLog.error('refused an amount that is not a safe integer', { name, value: String(n), min })
  return false
}
