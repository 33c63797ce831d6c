/**
 * The write-behind of a UserWallet: its pending changes go to D1 (wallet-flush.ts builds the
 * statements). Balances (user and dirty tokens) go first, in their own batch, so they never wait on
 * log rows; then log rows and channel usage in bounded, idempotent batches, each saved as a plan
 * before D1 sees it and replayed exactly on retry; rows D1 keeps refusing are parked as dead letters.
 */
import {
  buildBalanceStatements,
  buildDeadLetterStatements,
  buildFlushStatements,
  channelUsage,
  DEAD_LETTER_AFTER,
  isAlreadyApplied,
  isStatementError,
  toFlushPlan,
  type FlushPlan,
  type StoredPlan,
} from './wallet-flush'
import { pendingRows, ROWS_PER_KEY, walletLog, type PendingEntry, type TokenState, type UserState } from './wallet-state'
import type { WalletStore } from './wallet-store'

/**
 * Log rows per D1 batch (packed as JSON, wallet-flush.ts: one INSERT per 512 KB). A busy wallet
 * flushes every FLUSH_ROWS (user-wallet.ts), so this bounds only a backlog (after a D1 outage),
 * which drains back to back: there fewer, larger batches cost less — each batch has a fixed cost
 * (plan, statistics, balances, markers); draining in 500-row batches measured p99 83 ms at c = 32,
 * 100 rows 115–121 ms, 2,000 rows 59–67 ms.
 */
const MAX_LOGS_PER_FLUSH = 2000

/**
 * Write everything pending: balances first, then the log rows; a backlog (e.g. after a D1 outage)
 * goes out in bounded batches, oldest logs first. A log batch D1 refuses (a full database, a bad
 * row) has left the balances written.
 */
export async function drainToD1(store: WalletStore, db: D1Database): Promise<void> {
  while (await flushOnce(store, db));
}

/**
 * The user's and dirty tokens' absolute balances, when they changed since D1 last took them; they
 * are forgotten as written only if they did not change again while D1 was writing.
 */
async function writeBalances(store: WalletStore, db: D1Database, user: UserState): Promise<void> {
  const sentUser = store.getMeta().flushedUserVersion !== user.version ? { ...user } : undefined
  const sentTokens = store
    .dirtyTokens()
    .map((id) => store.tokens.get(id) ?? store.kv.get<TokenState>(`t:${id}`))
    .filter((t): t is TokenState => t !== undefined)
    .map((t) => ({ ...t }))
  if (!sentUser && sentTokens.length === 0) return
  await db.batch(buildBalanceStatements(db, { user: sentUser, tokens: sentTokens }))
  const meta = store.getMeta()
  if (sentUser) meta.flushedUserVersion = sentUser.version
  store.kv.put('meta', meta)
  const stillDirty = sentTokens.filter((t) => (store.tokens.get(t.id)?.version ?? t.version) !== t.version).map((t) => t.id)
  const newlyDirty = store.dirtyTokens().filter((id) => !sentTokens.some((t) => t.id === id))
  store.setDirtyTokens([...stillDirty, ...newlyDirty])
}

/**
 * The plan in progress, or a new one saved before D1 sees it (so a retry replays it exactly).
 * `read` receives the `L:` entries a new plan listed, so the flush does not read them twice.
 */
function currentPlan(store: WalletStore, read: Map<string, PendingEntry>): StoredPlan | undefined {
  const saved = store.kv.get<StoredPlan>('plan')
  if (saved) return saved
  const meta = store.getMeta()
  // Whole `L:` entries, oldest first, up to about MAX_LOGS_PER_FLUSH rows (always at least one entry).
  const entries: [string, PendingEntry][] = []
  let rows = 0
  for (const entry of store.kv.list<PendingEntry>({ prefix: 'L:', limit: MAX_LOGS_PER_FLUSH })) {
    const n = Array.isArray(entry[1]) ? entry[1].length : 1
    if (entries.length > 0 && rows + n > MAX_LOGS_PER_FLUSH) break
    entries.push(entry)
    read.set(entry[0], entry[1])
    rows += n
  }
  const counters = [...store.kv.list<number>({ prefix: 'c:' })].map(([k, v]) => ({ id: Number(k.slice(2)), amount: v }))
  const plan: StoredPlan = {
    seq: meta.flushSeq + 1,
    channels: channelUsage(
      counters,
      entries.flatMap(([k, e]) => pendingRows(k, e).map(([, l]) => l))
    ),
    logKeys: entries.map(([k]) => k),
    counters,
  }
  if (plan.channels.length === 0 && plan.logKeys.length === 0) return undefined
  store.kv.put('plan', plan)
  return plan
}

/** Writes the balances, then one log batch; true when more may be waiting (a replayed plan, or a full batch). */
async function flushOnce(store: WalletStore, db: D1Database): Promise<boolean> {
  store.commit()
  const user = store.user ?? store.kv.get<UserState>('user')
  if (!user) return false
  await writeBalances(store, db, user)
  const replay = store.kv.get<StoredPlan>('plan') !== undefined
  const read = new Map<string, PendingEntry>()
  const stored = currentPlan(store, read)
  if (!stored) return false
  const plan = toFlushPlan(user.id, stored, (key) => read.get(key) ?? store.kv.get<PendingEntry>(key))
  try {
    await db.batch(buildFlushStatements(db, plan))
  } catch (err) {
    if (!isAlreadyApplied(err)) await afterFailedFlush(store, db, stored, plan, err)
  }
  // Forget exactly what the plan wrote; changes made while the batch ran stay pending.
  const meta = store.getMeta()
  meta.flushSeq = stored.seq
  meta.logSeq = store.logSeq ?? meta.logSeq
  store.kv.put('meta', meta)
  for (const c of stored.counters) {
    const left = (store.kv.get<number>(`c:${c.id}`) ?? 0) - c.amount
    if (left === 0) store.kv.delete(`c:${c.id}`)
    else store.kv.put(`c:${c.id}`, left)
  }
  for (const key of stored.logKeys) store.kv.delete(key)
  store.kv.delete('plan')
  // A batch that stopped short of the limit only because the next entry did not fit is full too.
  return replay || plan.logs.length > MAX_LOGS_PER_FLUSH - ROWS_PER_KEY
}

/**
 * A plan D1 refused: count the attempt and rethrow — unless D1 keeps refusing the statements
 * themselves (not an outage) and the parked batch succeeds: then its log rows become dead letters
 * for root, and channel usage lands without them (balances landed before, on their own).
 */
async function afterFailedFlush(store: WalletStore, db: D1Database, stored: StoredPlan, plan: FlushPlan, err: unknown): Promise<void> {
  stored.attempts = (stored.attempts ?? 0) + 1
  store.kv.put('plan', stored)
  if (stored.attempts < DEAD_LETTER_AFTER || plan.logs.length === 0 || !isStatementError(err)) throw err
  try {
    await db.batch(buildDeadLetterStatements(db, plan, String((err as Error)?.message ?? err)))
  } catch (parkErr) {
    if (!isAlreadyApplied(parkErr)) throw err
  }
  walletLog.error('log rows parked as dead letters', { user_id: plan.userId, rows: plan.logs.length, attempts: stored.attempts, error: err })
}
