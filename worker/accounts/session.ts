/**
 * Server-side sessions: a random id in an HttpOnly SameSite=Lax cookie (Secure over https), its
 * SHA-256 stored in D1 with the user and expiry. Login always issues a fresh id (no fixation);
 * logout deletes the row, so a copied cookie stops working at once. A password change revokes every
 * credential of the user (revokeCredentials). Each row also keeps when it was last used (written at
 * most every LAST_SEEN_EVERY_SECONDS, so a busy console costs one write per interval, not per request)
 * and when its user last confirmed the password (step-up, ./step-up.ts; a fresh sign-in counts).
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { and, eq, gt, lt } from 'drizzle-orm'
import { createDb } from '../db/client'
import { sessions, users } from '../db/schema'
import { randomString, sha256Hex } from '../lib/crypto'
import { nowSeconds } from '../lib/time'
import type { HonoEnv, SessionUser } from '../env'
import { forgetResetTokens } from '../mail/password-reset'
import { clientIp } from '../lib/client-ip'
import { clockSeconds } from '../lib/clock'
import { noticeIfNewDevice } from './device'
import { basePathOf } from '../lib/base-path'

export const SESSION_COOKIE = 'session'
const SESSION_TTL_SECONDS = 30 * 24 * 3600
/** How stale `last_seen_at` may get before a request writes it again. */
const LAST_SEEN_EVERY_SECONDS = 5 * 60

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'

export async function createSession(c: Context<HonoEnv>, userId: number): Promise<void> {
  const old = getCookie(c, SESSION_COOKIE)
  const db = createDb(c.env.DB)
  if (old) await db.delete(sessions).where(eq(sessions.id, await sha256Hex(old)))
  const sid = randomString(43)
  const now = nowSeconds()
  const ip = clientIp(c.req)
  const userAgent = (c.req.header('user-agent') ?? '').slice(0, 200)
  await noticeIfNewDevice(c.env, userId, ip, userAgent)
  const seen = clockSeconds()
  await db.insert(sessions).values({
    id: await sha256Hex(sid),
    userId,
    createdAt: now,
    expiresAt: now + SESSION_TTL_SECONDS,
    ip,
    userAgent,
    lastSeenAt: seen,
    stepUpAt: seen,
  })
  setCookie(c, SESSION_COOKIE, sid, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isHttps(c),
    // Scoped to the site's sub-path when it has one (lib/base-path.ts).
    path: `${basePathOf(c)}/`,
    maxAge: SESSION_TTL_SECONDS,
  })
}

export async function destroySession(c: Context<HonoEnv>): Promise<void> {
  const sid = getCookie(c, SESSION_COOKIE)
  if (sid)
    await createDb(c.env.DB)
      .delete(sessions)
      .where(eq(sessions.id, await sha256Hex(sid)))
  deleteCookie(c, SESSION_COOKIE, { path: `${basePathOf(c)}/`, secure: isHttps(c), httpOnly: true, sameSite: 'Lax' })
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

/** The signed-in session: its row id (the cookie's SHA-256) and when the password was last confirmed on it. */
interface SessionState {
  id: string
  stepUpAt: number
}

export async function userFromSession(env: Env, sid: string): Promise<{ user: SessionUser; session: SessionState } | undefined> {
  const db = createDb(env.DB)
  const id = await sha256Hex(sid)
  const [row] = await db
    .select({ ...sessionColumns, lastSeenAt: sessions.lastSeenAt, stepUpAt: sessions.stepUpAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, nowSeconds())))
    .limit(1)
  if (!row) return undefined
  const { lastSeenAt, stepUpAt, ...user } = row
  const now = clockSeconds()
  if (now - lastSeenAt >= LAST_SEEN_EVERY_SECONDS) {
    // Conditional, so two concurrent requests of one session write it once.
    await db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, now - LAST_SEEN_EVERY_SECONDS + 1)))
  }
  return { user, session: { id, stepUpAt } }
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
