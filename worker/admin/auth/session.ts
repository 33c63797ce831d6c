/**
 * Server-side sessions: a random id in an HttpOnly SameSite=Lax cookie (Secure over https), its
 * SHA-256 stored in D1 with the user and expiry. Login always issues a fresh id (no fixation);
 * logout deletes the row, so a copied cookie stops working at once. A password change revokes every
 * credential of the user (revokeCredentials).
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { and, eq, gt } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { sessions, users } from '../../db/schema'
import { randomString, sha256Hex } from '../../lib/crypto'
import { nowSeconds } from '../../lib/time'
import type { HonoEnv, SessionUser } from '../../env'
import { forgetResetTokens } from '../../mail/password-reset'
import { clientIp } from '../../lib/client-ip'

export const SESSION_COOKIE = 'session'
const SESSION_TTL_SECONDS = 30 * 24 * 3600

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'

export async function createSession(c: Context<HonoEnv>, userId: number): Promise<void> {
  const old = getCookie(c, SESSION_COOKIE)
  const db = createDb(c.env.DB)
  if (old) await db.delete(sessions).where(eq(sessions.id, await sha256Hex(old)))
  const sid = randomString(43)
  const now = nowSeconds()
  await db.insert(sessions).values({
    id: await sha256Hex(sid),
    userId,
    createdAt: now,
    expiresAt: now + SESSION_TTL_SECONDS,
    ip: clientIp(c.req),
    userAgent: (c.req.header('user-agent') ?? '').slice(0, 200),
  })
  setCookie(c, SESSION_COOKIE, sid, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    path: '/',
    maxAge: SESSION_TTL_SECONDS,
  })
}

export async function destroySession(c: Context<HonoEnv>): Promise<void> {
  const sid = getCookie(c, SESSION_COOKIE)
  if (sid)
    await createDb(c.env.DB)
      .delete(sessions)
      .where(eq(sessions.id, await sha256Hex(sid)))
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c), httpOnly: true, sameSite: 'Lax' })
}

/** Drop every session of a user (password change, disable, delete). */
export async function destroyUserSessions(env: Env, userId: number): Promise<void> {
  await createDb(env.DB).delete(sessions).where(eq(sessions.userId, userId))
}

/**
 * After a password change or reset: every session, the personal access token and every
 * outstanding reset link of the user stop working.
 */
export async function revokeCredentials(env: Env, userId: number): Promise<void> {
  const db = createDb(env.DB)
  await db.batch([db.delete(sessions).where(eq(sessions.userId, userId)), db.update(users).set({ accessToken: null }).where(eq(users.id, userId))])
  await forgetResetTokens(env, userId)
}

const sessionColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  role: users.role,
  status: users.status,
  group: users.group,
}

export async function userFromSession(env: Env, sid: string): Promise<SessionUser | undefined> {
  const [row] = await createDb(env.DB)
    .select(sessionColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, await sha256Hex(sid)), gt(sessions.expiresAt, nowSeconds())))
    .limit(1)
  return row
}

export async function userFromAccessToken(env: Env, token: string): Promise<SessionUser | undefined> {
  if (token.length < 16 || token.length > 128) return undefined
  const [row] = await createDb(env.DB)
    .select(sessionColumns)
    .from(users)
    .where(eq(users.accessToken, await sha256Hex(token)))
    .limit(1)
  return row
}
