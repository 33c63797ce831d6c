/**
 * Manage-log rows for administrative actions that move no money (key reveals, channel key reveals):
 * written straight to D1, shown in the owner's log and in the admin log with the actor's id and name.
 */
import { createDb } from '../../db/client'
import { LOG_TYPE, logs } from '../../db/schema'
import { nowSeconds } from '../../lib/time'
import type { SessionUser } from '../../env'

export async function auditLog(env: Env, actor: SessionUser, owner: { id: number; username: string }, content: string, extra: Record<string, unknown> = {}) {
  await createDb(env.DB)
    .insert(logs)
    .values({
      userId: owner.id,
      username: owner.username,
      createdAt: nowSeconds(),
      type: LOG_TYPE.MANAGE,
      content,
      metadata: { ...extra, actor_id: actor.id, actor: actor.username },
    })
}
