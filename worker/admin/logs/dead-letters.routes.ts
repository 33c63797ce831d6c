/**
 * /api/log/dead-letters (root only): log rows a wallet could not write to D1 after repeated
 * attempts, parked by the write-behind so they never block it or disappear. Root lists them and
 * re-inserts one into the logs (the row and its removal from the list in one D1 batch).
 */
import { Hono } from 'hono'
import { count, desc, eq } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { walletDeadLetters } from '../../db/schema'
import { rootRoute } from '../../middleware/access'
import { ApiError, notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { idParam, validate } from '../../lib/validate'
import { buildLogInsert } from '../../wallet/wallet-flush'
import type { PendingLog } from '../../wallet/wallet-log-row'
import type { HonoEnv } from '../../env'
import { listQuery, offset, page } from '../../lib/paging'

export const deadLetterRoutes = new Hono<HonoEnv>()
  .get('/log/dead-letters', rootRoute, validate('query', listQuery), async (c) => {
    const q = c.req.valid('query')
    const db = createDb(c.env.DB)
    const [rows, [total]] = await Promise.all([
      db.select().from(walletDeadLetters).orderBy(desc(walletDeadLetters.id)).limit(q.page_size).offset(offset(q)),
      db.select({ n: count() }).from(walletDeadLetters),
    ])
    const data = rows.map((r) => ({ id: r.id, user_id: r.userId, wallet_key: r.walletKey, row: JSON.parse(r.payload) as PendingLog, error: r.error, created_at: r.createdAt }))
    return ok(c, page(q, data, total?.n ?? 0))
  })
  .post('/log/dead-letters/:id{[0-9]+}/retry', rootRoute, validate('param', idParam), async (c) => {
    const { id } = c.req.valid('param')
    const [letter] = await createDb(c.env.DB).select().from(walletDeadLetters).where(eq(walletDeadLetters.id, id)).limit(1)
    if (!letter) throw notFound('Dead letter not found')
    const row = JSON.parse(letter.payload) as PendingLog
    try {
      await c.env.DB.batch([buildLogInsert(c.env.DB, row), c.env.DB.prepare('DELETE FROM wallet_dead_letters WHERE id = ?').bind(id)])
    } catch (err) {
      throw new ApiError(409, `The log row still cannot be written: ${String((err as Error)?.message ?? err).slice(0, 300)}`)
    }
    return ok(c, null, 'Log row written')
  })
