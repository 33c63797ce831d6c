/**
 * The rank rule of the management API, shared by user administration, tokens, logs and quota:
 * root acts on everyone; an administrator acts on themself and on users of a lower role only.
 * `outranking` is the SQL form of the same rule for lists (rows owned by users the actor may not see).
 */
import { sql, type SQL } from 'drizzle-orm'
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core'
import type { SessionUser } from '../env'
import { forbidden } from './errors'
import { ROLE } from '../../shared/contract/enums'

export const canActOn = (actor: SessionUser, target: { id: number; role: number }) => actor.role >= ROLE.ROOT || target.id === actor.id || target.role < actor.role

export function assertRank(actor: SessionUser, target: { id: number; role: number }) {
  if (!canActOn(actor, target)) throw forbidden('You cannot manage an administrator of your level or above')
}

/** A filter keeping only rows whose owner (`userColumn`) the actor may act on; undefined for root. */
export function withinRank(actor: SessionUser, userColumn: SQLiteColumn): SQL | undefined {
  if (actor.role >= ROLE.ROOT) return undefined
  return sql`${userColumn} NOT IN (SELECT id FROM users WHERE role >= ${actor.role} AND id <> ${actor.id})`
}

/** The same rule in JS, for rows read outside D1 (the log archive): the ids whose rows the actor may not see; empty for root. */
export async function outrankedIds(db: D1Database, actor: SessionUser): Promise<Set<number>> {
  if (actor.role >= ROLE.ROOT) return new Set()
  const { results } = await db.prepare('SELECT id FROM users WHERE role >= ? AND id <> ?').bind(actor.role, actor.id).all<{ id: number }>()
  return new Set(results.map((r) => r.id))
}
