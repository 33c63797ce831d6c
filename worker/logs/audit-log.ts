/**
 * Manage-log rows for administrative actions that move no money themselves (key reveals, channel
 * key and base URL changes, payment gateway changes, option saves, price and group ratio writes,
 * redemption codes created, edited or deleted): written straight to D1, shown in the owner's
 * log and in the admin log with the actor's id and name and, when the caller passes it, the
 * client address. Secrets never go in: callers record only whether a secret changed.
 */
import { createDb } from '../db/client'
import { logs } from '../db/schema'
import { nowSeconds } from '../lib/time'
import type { SessionUser } from '../env'
import { LOG_TYPE } from '../../shared/contract/enums'

export async function auditLog(env: Env, actor: SessionUser, owner: { id: number; username: string }, content: string, extra: Record<string, unknown> = {}, sourceIp = '') {
  await createDb(env.DB)
    .insert(logs)
    .values({
      userId: owner.id,
      username: owner.username,
      createdAt: nowSeconds(),
      type: LOG_TYPE.MANAGE,
      content,
      sourceIp,
      metadata: { ...extra, actor_id: actor.id, actor: actor.username },
    })
}
