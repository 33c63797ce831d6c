/**
 * System log rows addressed to root (the first root account): the gateway's own notices — payment
 * alerts (payments/payment-alerts.ts), the log budget at 80 % (log-retention.ts). Never throws: a
 * notice that cannot be written is printed to the console instead.
 */
import { sql } from 'drizzle-orm'
import { createDb } from '../db/client'
import { logs, users } from '../db/schema'
import { nowSeconds } from '../lib/time'
import { LOG_TYPE } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'root-notice' })

export async function logForRoot(env: Env, content: string, metadata: Record<string, unknown>) {
  try {
    const db = createDb(env.DB)
    const [root] = await db.select({ id: users.id, username: users.username }).from(users).where(sql`${users.role} >= 100`).orderBy(users.id).limit(1)
    await db.insert(logs).values({ userId: root?.id ?? 0, username: root?.username ?? '', createdAt: nowSeconds(), type: LOG_TYPE.SYSTEM, content, metadata })
  } catch (err) {
    serverLog.error('notice for root not written', { content, error: err })
  }
}
