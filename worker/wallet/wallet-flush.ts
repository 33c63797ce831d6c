/**
 * The D1 statements that write a wallet's pending changes behind. Balances (absolute quota, used
 * quota and request count of the user and its dirty tokens) are their own batch, written before
 * and independently of the log rows, so a log insert D1 refuses never holds them back. The log
 * batch is an idempotency marker, channel usage increments, the statistics rows of the consume
 * logs and the pending log rows — one D1 transaction. If the marker already exists the batch was
 * applied before and fails as a whole, which the wallet treats as success.
 *
 * Exactly once: the plan (which log keys, which balances, under which sequence number) is saved in
 * the wallet's storage before D1 is called, and a retry replays that same plan — never a larger
 * one under the same number, which would mark unwritten rows as written.
 */
import { pendingRows, type PendingEntry } from './wallet-state'
import { LOG_COLUMNS, LOG_INSERT_SQL, logValues, unpackLog, type PackedLog, type PendingLog } from './wallet-log-row'
import { LOG_TYPE } from '../../shared/contract/enums'

/** A flush as saved before D1 is called; replayed as it is until D1 confirms it. */
export interface StoredPlan {
  seq: number
  /** Balances an earlier version saved in its plans; ignored (balances are written by buildBalanceStatements). */
  user?: unknown
  tokens?: unknown
  channels: FlushPlan['channels']
  logKeys: string[]
  /** Legacy per-channel counters (`c:` keys) this plan drains. */
  counters: { id: number; amount: number }[]
  /** Failed attempts so far (D1 answered with an error other than "already applied"). */
  attempts?: number
}

/** Failed attempts after which a plan's log rows are parked as dead letters (when D1 itself answers). */
export const DEAD_LETTER_AFTER = 5

/**
 * Whether D1 refused the statements themselves (a row too big, a constraint, a type mismatch) —
 * only then can parking the rows help; an outage, a timeout or an overload just waits.
 */
export function isStatementError(err: unknown): boolean {
  const text = String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? '')
  return /SQLITE_(TOOBIG|CONSTRAINT|MISMATCH|RANGE|ERROR)|constraint failed|too big|datatype mismatch/i.test(text) && !isAlreadyApplied(err)
}

/**
 * The plan without its log rows, which are parked in wallet_dead_letters instead: channel usage
 * still lands (balances have landed before, on their own), and the rows wait for root (admin/logs/dead-letters.routes.ts).
 */
export function buildDeadLetterStatements(db: D1Database, plan: FlushPlan, error: string): D1PreparedStatement[] {
  const now = Math.floor(Date.now() / 1000)
  const parked = plan.logs.map(([key, row]) =>
    db
      .prepare('INSERT OR IGNORE INTO wallet_dead_letters (user_id, wallet_key, payload, error, created_at) VALUES (?, ?, ?, ?, ?)')
      .bind(plan.userId, key, JSON.stringify(unpackLog(row)), error.slice(0, 1000), now)
  )
  return [...buildFlushStatements(db, { ...plan, logs: [] }), ...parked]
}

/** The INSERT of one log row (root's retry of a dead letter). */
export function buildLogInsert(db: D1Database, row: PendingLog): D1PreparedStatement {
  return db.prepare(`INSERT INTO logs (${LOG_COLUMNS.join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`).bind(...logValues(row, row.quota, row.userId))
}

/** The D1 plan of a stored plan, with its log rows read back from storage. */
export function toFlushPlan(userId: number, stored: StoredPlan, readLog: (key: string) => PendingEntry | undefined): FlushPlan {
  const logs: FlushPlan['logs'] = []
  for (const key of stored.logKeys) logs.push(...pendingRows(key, readLog(key)))
  return { userId, seq: stored.seq, channels: stored.channels, logs }
}

/** Channel usage of a batch: the legacy counters plus what the log rows carry. */
export function channelUsage(counters: { id: number; amount: number }[], logs: PackedLog[]): { id: number; amount: number }[] {
  const usage = new Map(counters.map((c) => [c.id, c.amount]))
  for (const l of logs) if (l.channelCharge) usage.set(l.channelCharge[0], (usage.get(l.channelCharge[0]) ?? 0) + l.channelCharge[1])
  return [...usage].filter(([, amount]) => amount !== 0).map(([id, amount]) => ({ id, amount }))
}

/** The absolute balances of a user and its dirty tokens, as the wallet holds them. */
export interface Balances {
  user?: { id: number; quota: number; usedQuota: number; requestCount: number }
  tokens: { id: number; remain: number; used: number; accessed: number }[]
}

/**
 * The balance statements: absolute values, so writing them twice or out of a failed batch is
 * harmless, and the wallet (one flush at a time) always writes its latest state last.
 */
export function buildBalanceStatements(db: D1Database, balances: Balances): D1PreparedStatement[] {
  const stmts: D1PreparedStatement[] = []
  const u = balances.user
  if (u) stmts.push(db.prepare('UPDATE users SET quota = ?, used_quota = ?, request_count = ? WHERE id = ?').bind(u.quota, u.usedQuota, u.requestCount, u.id))
  for (const t of balances.tokens) {
    stmts.push(db.prepare('UPDATE tokens SET remain_quota = ?, used_quota = ?, accessed_time = MAX(accessed_time, ?) WHERE id = ?').bind(t.remain, t.used, t.accessed, t.id))
  }
  return stmts
}

export interface FlushPlan {
  userId: number
  seq: number
  channels: { id: number; amount: number }[]
  logs: [string, PackedLog][]
}

/**
 * Log rows go to D1 as one JSON array per statement, unpacked by SQLite (json_each): one bound
 * parameter instead of 19 per row (D1 allows 100 per statement, so 5 rows each before), which cut
 * the statements of a 500-row flush from 100 to one or two. A statement's JSON stays well under
 * D1's 2 MB value limit.
 */
const LOG_JSON_BYTES = 512 * 1024

/** The packed rows (JSON arrays of column values), in statements of at most LOG_JSON_BYTES. */
function logInserts(db: D1Database, logs: FlushPlan['logs']): D1PreparedStatement[] {
  const stmts: D1PreparedStatement[] = []
  let chunk: string[] = []
  let bytes = 0
  const send = () => {
    if (chunk.length > 0) stmts.push(db.prepare(LOG_INSERT_SQL).bind(`[${chunk.join(',')}]`))
    chunk = []
    bytes = 0
  }
  for (const [, l] of logs) {
    const row = l.cols
    if (bytes + row.length > LOG_JSON_BYTES) send()
    chunk.push(row)
    bytes += row.length + 1
  }
  send()
  return stmts
}

export function buildFlushStatements(db: D1Database, plan: FlushPlan): D1PreparedStatement[] {
  const now = Math.floor(Date.now() / 1000)
  const stmts: D1PreparedStatement[] = [
    db.prepare('INSERT INTO wallet_flushes (user_id, seq, created_at) VALUES (?, ?, ?)').bind(plan.userId, plan.seq, now),
    db.prepare('DELETE FROM wallet_flushes WHERE user_id = ? AND seq < ?').bind(plan.userId, plan.seq),
  ]
  for (const c of plan.channels) {
    stmts.push(db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?').bind(c.amount, c.id))
  }
  // Statistics stay current in the same transaction as the consume logs they summarise.
  const stats = new Map<string, { date: string; channelId: number; model: string; n: number; quota: number; prompt: number; completion: number; time: number; saved: number }>()
  for (const [, l] of plan.logs) {
    if (l.type !== LOG_TYPE.CONSUME) continue
    const date = new Date(l.createdAt * 1000).toISOString().slice(0, 10)
    const key = `${date}|${l.channelId}|${l.modelName}`
    const s = stats.get(key) ?? { date, channelId: l.channelId, model: l.modelName, n: 0, quota: 0, prompt: 0, completion: 0, time: 0, saved: 0 }
    s.n++
    s.quota += l.quota
    s.prompt += l.promptTokens
    s.completion += l.completionTokens
    s.time += l.requestTime
    // A response-cache hit's saved quota (relay-money.ts answerFromCache), for the dashboards.
    s.saved += l.savedQuota ?? 0
    stats.set(key, s)
  }
  for (const s of stats.values()) {
    stmts.push(
      db
        .prepare(
          `INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time, saved_quota)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (date, user_id, channel_id, model_name) DO UPDATE SET
             request_count = request_count + excluded.request_count, quota = quota + excluded.quota,
             prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
             request_time = request_time + excluded.request_time, saved_quota = saved_quota + excluded.saved_quota`
        )
        .bind(s.date, plan.userId, s.channelId, s.model, s.n, s.quota, s.prompt, s.completion, s.time, s.saved)
    )
  }
  stmts.push(...logInserts(db, plan.logs))
  return stmts
}

export function isAlreadyApplied(err: unknown): boolean {
  return /UNIQUE constraint failed: wallet_flushes/i.test(String((err as Error)?.message ?? err) + String((err as { cause?: unknown })?.cause ?? ''))
}
