/**
 * How a wallet's log row waits for D1: packed once, when the wallet appends it, into the JSON
 * array of its `logs` column values (the form the write-behind's INSERT unpacks with json_each),
 * beside the few numbers the flush itself reads (statistics, channel usage). Storage then writes
 * one string instead of an object of twenty fields, and a flush joins the strings instead of
 * reading every row back as an object and serialising it again. Rows stored before packing
 * existed (plain objects) are packed when they are read.
 */
import type { WalletLog } from './wallet-types'

/** A log row as the wallet charged it (the unpacked form: dead letters, a root's retry). */
export type PendingLog = WalletLog & { quota: number; userId: number; channelCharge?: [number, number] }

export interface PackedLog {
  /** The row's values in LOG_COLUMNS order, as a JSON array. */
  cols: string
  type: number
  createdAt: number
  channelId: number
  modelName: string
  quota: number
  promptTokens: number
  completionTokens: number
  requestTime: number
  /** [channel id, quota] when the row also carries the channel's usage. */
  channelCharge?: [number, number]
  /** Quota a response-cache hit saved (its metadata's `saved_quota`), summed into the statistics. */
  savedQuota?: number
}

/** The `logs` columns a packed row holds, in order, and the WalletLog field each comes from. */
const COLUMNS = [
  ['user_id', 'userId'],
  ['created_at', 'createdAt'],
  ['type', 'type'],
  ['content', 'content'],
  ['username', 'username'],
  ['token_name', 'tokenName'],
  ['token_id', 'tokenId'],
  ['model_name', 'modelName'],
  ['upstream_model', 'upstreamModel'],
  ['quota', 'quota'],
  ['prompt_tokens', 'promptTokens'],
  ['completion_tokens', 'completionTokens'],
  ['channel_id', 'channelId'],
  ['request_time', 'requestTime'],
  ['first_response_time', 'firstResponseTime'],
  ['is_stream', 'isStream'],
  ['source_ip', 'sourceIp'],
  ['request_id', 'requestId'],
  ['metadata', 'metadata'],
  ['subscription_id', 'subscriptionId'],
] as const satisfies readonly (readonly [string, keyof PendingLog])[]

export const LOG_COLUMNS = COLUMNS.map(([column]) => column)

/**
 * The INSERT of a JSON array of packed rows (one bound parameter for many rows). Rows packed before
 * a column existed (subscription_id) lack its value: it is written as 0.
 */
export const LOG_INSERT_SQL = `INSERT INTO logs (${LOG_COLUMNS.join(', ')}) SELECT ${LOG_COLUMNS.map((c, i) => (c === 'subscription_id' ? `COALESCE(json_extract(value, '$[${i}]'), 0)` : `json_extract(value, '$[${i}]')`)).join(', ')} FROM json_each(?)`

/** The row's values in LOG_COLUMNS order (absent text as '', absent numbers as 0, metadata as JSON). */
export function logValues(l: WalletLog, quota: number, userId: number): (string | number | null)[] {
  return [
    userId,
    l.createdAt,
    l.type,
    l.content ?? '',
    l.username ?? '',
    l.tokenName ?? '',
    l.tokenId ?? 0,
    l.modelName ?? '',
    l.upstreamModel ?? '',
    quota,
    l.promptTokens ?? 0,
    l.completionTokens ?? 0,
    l.channelId ?? 0,
    l.requestTime ?? 0,
    l.firstResponseTime ?? 0,
    l.isStream ? 1 : 0,
    l.sourceIp ?? '',
    l.requestId ?? '',
    l.metadata ? JSON.stringify(l.metadata) : null,
    l.subscriptionId ?? 0,
  ]
}

const savedQuota = (log: WalletLog) => {
  const saved = log.metadata?.saved_quota
  return typeof saved === 'number' && Number.isSafeInteger(saved) && saved > 0 ? saved : 0
}

export function packLog(log: WalletLog, quota: number, userId: number, channelCharge?: [number, number]): PackedLog {
  return {
    cols: JSON.stringify(logValues(log, quota, userId)),
    type: log.type,
    createdAt: log.createdAt,
    channelId: log.channelId ?? 0,
    modelName: log.modelName ?? '',
    quota,
    promptTokens: log.promptTokens ?? 0,
    completionTokens: log.completionTokens ?? 0,
    requestTime: log.requestTime ?? 0,
    ...(channelCharge ? { channelCharge } : {}),
    ...(savedQuota(log) ? { savedQuota: savedQuota(log) } : {}),
  }
}

/** A stored row in packed form (rows stored unpacked by an earlier version are packed here). */
export function asPacked(row: PackedLog | PendingLog): PackedLog {
  if (typeof (row as PackedLog).cols === 'string') return row as PackedLog
  const old = row as PendingLog
  return packLog(old, old.quota, old.userId, old.channelCharge)
}

/** The row as an object again (dead letters keep this form, which a root's retry inserts). */
export function unpackLog(packed: PackedLog): PendingLog {
  const values = JSON.parse(packed.cols) as (string | number | null)[]
  const row: Record<string, unknown> = {}
  COLUMNS.forEach(([, field], i) => {
    row[field] = values[i]
  })
  row.isStream = row.isStream === 1
  if (!row.subscriptionId) delete row.subscriptionId
  row.metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : undefined
  if (packed.channelCharge) row.channelCharge = packed.channelCharge
  return row as unknown as PendingLog
}
