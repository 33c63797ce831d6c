/**
 * Who may see which API key, and how much of it: the masked form admin views and the Telegram
 * bot show (`sk-abcd**********wxyz`), the token a caller may act on (their own, or one owned by a
 * lower rank for an admin acting as admin), and the explicit full-key reveal that writes a
 * manage log naming the actor.
 */
import { and, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { tokens, users, type Token } from '../db/schema'
import { notFound } from '../lib/errors'
import type { SessionUser } from '../env'
import { assertRank } from '../lib/rank'
import { auditLog } from '../logs/audit-log'
import { ROLE } from '../../shared/contract/enums'

/** `sk-abcd**********wxyz`: what admin views show instead of another user's key. */
export const maskedKey = (key: string) => `sk-${key.slice(0, 4)}**********${key.slice(-4)}`

/**
 * A token the caller may act on: their own or, for an admin acting as admin, a token whose owner
 * ranks below them (root: any token). A token above the admin's rank answers 403.
 */
export async function findOwnedToken(env: Env, id: number, owner: SessionUser, asAdmin = false): Promise<Token> {
  const admin = asAdmin && owner.role >= ROLE.ADMIN
  const [row] = await createDb(env.DB)
    .select({ t: tokens, ownerRole: users.role })
    .from(tokens)
    .leftJoin(users, eq(users.id, tokens.userId))
    .where(admin ? eq(tokens.id, id) : and(eq(tokens.id, id), eq(tokens.userId, owner.id)))
    .limit(1)
  if (!row) throw notFound('Token not found')
  if (admin) assertRank(owner, { id: row.t.userId, role: row.ownerRole ?? ROLE.USER })
  return row.t
}

/**
 * The full key of a token, as an explicit action: the owner reveals their own key, root any key
 * (`asRoot`). Every reveal writes a manage log naming the actor.
 */
export async function revealTokenKey(env: Env, actor: SessionUser, id: number, asRoot = false) {
  const token = await findOwnedToken(env, id, actor, asRoot && actor.role >= ROLE.ROOT)
  const [owner] = await createDb(env.DB).select({ id: users.id, username: users.username }).from(users).where(eq(users.id, token.userId)).limit(1)
  await auditLog(env, actor, owner ?? { id: token.userId, username: '' }, `${actor.username} revealed the key of token "${token.name}" (#${token.id})`, { token_id: token.id })
  return { id: token.id, key: `sk-${token.key}` }
}
