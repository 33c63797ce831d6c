/**
 * The alerts' share of the frequent cron: announce log rows the wallets parked as dead letters since
 * the last look (ledger.dead_letter — the wallet object parks them inside its flush, where no alert
 * can be raised, so the cron watches the table's high-water id in KV), judge the relay's error rate
 * since the last run (error-rate.ts), retry due deliveries, and prune old dedup marks and finished deliveries.
 */
import { cacheKeys } from '../cache/keys'
import { pruneDeliveries, retryDue } from './deliver'
import { emitNotice, pruneMarks } from './emit'
import { checkErrorRate } from './error-rate'

const DEAD_LETTER_SEEN_KEY = cacheKeys.notifyDeadLetterSeen

export async function announceDeadLetters(env: Env): Promise<number> {
  const seen = Number((await env.CACHE.get(DEAD_LETTER_SEEN_KEY)) ?? -1)
  const row = await env.DB.prepare('SELECT COALESCE(MAX(id), 0) AS top, COUNT(*) AS n, SUM(CASE WHEN id > ? THEN 1 ELSE 0 END) AS fresh FROM wallet_dead_letters')
    .bind(Math.max(0, seen))
    .first<{ top: number; n: number; fresh: number | null }>()
  const top = row?.top ?? 0
  const fresh = seen < 0 ? 0 : (row?.fresh ?? 0)
  // The first look only records where the table stands: rows parked before alerts existed are not news.
  if (top !== seen) await env.CACHE.put(DEAD_LETTER_SEEN_KEY, String(top))
  if (fresh <= 0) return 0
  await emitNotice(env, {
    event: 'ledger.dead_letter',
    subject: 'wallet_dead_letters',
    text: `${fresh} log row(s) were parked as dead letters (${row?.n ?? 0} waiting); retry them under Logs → Dead letters`,
    data: { new_rows: fresh, waiting: row?.n ?? 0 },
  })
  return fresh
}

export async function notifyCron(env: Env) {
  await announceDeadLetters(env)
  await checkErrorRate(env)
  await retryDue(env)
  await pruneMarks(env)
  await pruneDeliveries(env)
}
