/**
 * The pending sign-in between the first factor (password, OAuth) and the second one. When the
 * account has a second factor, `signIn` issues no session: it stores a pending sign-in for five
 * minutes under the SHA-256 of a random id held in an HttpOnly cookie (so it is bound to this
 * browser) and answers `{require_2fa: true, methods}` (the account's factors: a TOTP code, a
 * passkey, or both). `verifySecondFactor` runs a checker (a TOTP or backup code, admin/two-factor/two-factor.routes.ts;
 * a passkey assertion, admin/passkeys/passkey-factor.ts) against the pending account: success
 * takes the pending sign-in and issues the session, each failure counts, and the fifth one ends it
 * (the user signs in again). Failures also count toward the account's sign-in lock (login-guard.ts).
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { count, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { passkeys, users, type User } from '../db/schema'
import { randomString, sha256Hex } from '../lib/crypto'
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../lib/errors'
import { ok } from '../lib/respond'
import { consumeSecret, countWrongGuess, peekGuessable, putSecret } from '../lib/single-use'
import { nowSeconds } from '../lib/time'
import { clientIp } from '../lib/client-ip'
import { USER_STATUS } from '../../shared/contract/enums'
import type { HonoEnv } from '../env'
import type { SecondFactorMethod } from '../../shared/contract/two-factor'
import { createSession } from './session'
import { assertLoginNotLocked, recordLoginFailure } from './login-guard'
import { getUser, profileOf } from './users'
import { removeTwoFactor, twoFactorEnabled } from './two-factor.store'
import { basePathOf } from '../lib/base-path'

export const PENDING_COOKIE = 'pending_2fa'
export const PENDING_TTL_SECONDS = 5 * 60

const pendingKey = async (id: string) => `2fa-login:${await sha256Hex(id)}`
const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'
const cookieOptions = (c: Context) => ({ httpOnly: true, sameSite: 'Lax' as const, secure: isHttps(c), path: `${basePathOf(c)}/api/user/login` })

export async function passkeyCount(env: Env, userId: number): Promise<number> {
  const [row] = await createDb(env.DB).select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId))
  return row?.n ?? 0
}

/** The second factors of an account: TOTP when turned on, passkey when it has registered one. */
export async function secondFactorMethods(env: Env, userId: number): Promise<SecondFactorMethod[]> {
  const [totp, keys] = await Promise.all([twoFactorEnabled(env, userId), passkeyCount(env, userId)])
  return [...(totp ? (['totp'] as const) : []), ...(keys > 0 ? (['passkey'] as const) : [])]
}

/** Whether signing in to this account needs a second factor (TOTP on, or a registered passkey). */
export const secondFactorRequired = async (env: Env, userId: number) => (await secondFactorMethods(env, userId)).length > 0

/** Root's reset: removes TOTP, backup codes and every passkey, so the password alone signs in again. */
export async function removeSecondFactors(env: Env, userId: number): Promise<void> {
  await removeTwoFactor(env, userId)
  await createDb(env.DB).delete(passkeys).where(eq(passkeys.userId, userId))
}

/** Issues the session and records the sign-in; answers like password login (data = profile). */
export async function completeSignIn(c: Context<HonoEnv>, user: User) {
  if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
  await createSession(c, user.id)
  const lastLoginTime = nowSeconds()
  const lastLoginIp = clientIp(c.req)
  await createDb(c.env.DB).update(users).set({ lastLoginTime, lastLoginIp }).where(eq(users.id, user.id))
  return ok(c, profileOf({ ...user, lastLoginTime, lastLoginIp }), 'Logged in')
}

/** Starts the pending sign-in: no session yet, an HttpOnly cookie naming it, and `{require_2fa: true, methods}`. */
export async function beginSecondFactor(c: Context<HonoEnv>, user: User, methods: SecondFactorMethod[]) {
  if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
  const id = randomString(43)
  await putSecret(c.env.DB, await pendingKey(id), String(user.id), PENDING_TTL_SECONDS)
  setCookie(c, PENDING_COOKIE, id, { ...cookieOptions(c), maxAge: PENDING_TTL_SECONDS })
  return ok(c, { require_2fa: true, methods }, 'Confirm the sign-in with your second factor')
}

/** The end of every first factor: a session, or the pending sign-in when the account has a second factor. */
export async function signIn(c: Context<HonoEnv>, user: User) {
  const methods = await secondFactorMethods(c.env, user.id)
  return methods.length > 0 ? beginSecondFactor(c, user, methods) : completeSignIn(c, user)
}

const noPending = () => unauthorized('The sign-in has expired; please sign in again')

/** This browser's live pending sign-in: its storage key and account (401 when there is none). */
export async function pendingSignIn(c: Context<HonoEnv>): Promise<{ key: string; user: User }> {
  const id = getCookie(c, PENDING_COOKIE)
  if (!id || id.length > 64) throw noPending()
  const key = await pendingKey(id)
  const userId = Number(await peekGuessable(c.env.DB, key))
  const user = userId ? await getUser(c.env, userId) : undefined
  if (!user) throw noPending()
  return { key, user }
}

/**
 * Checks the second factor of this browser's pending sign-in with `check(userId, pendingKey)` and,
 * when it passes, issues the session. 401 when there is no live pending sign-in; a failed check counts.
 */
export async function verifySecondFactor(c: Context<HonoEnv>, check: (userId: number, pendingKey: string) => Promise<boolean>) {
  const { key, user } = await pendingSignIn(c)
  const ip = clientIp(c.req)
  await assertLoginNotLocked(c.env, user.username, ip)
  if (!(await check(user.id, key))) {
    await recordLoginFailure(c.env, user.username, ip)
    const left = await countWrongGuess(c.env.DB, key)
    if (left === 0) {
      deleteCookie(c, PENDING_COOKIE, cookieOptions(c))
      throw tooManyRequests('Too many wrong codes; please sign in again')
    }
    throw badRequest(`Wrong or already used code; ${left} attempt${left === 1 ? '' : 's'} left`, { fields: { code: 'is wrong or already used' }, attempts_left: left })
  }
  // Taken in one statement: a second request with the same pending sign-in gets nothing.
  if (!(await consumeSecret(c.env.DB, key))) throw noPending()
  deleteCookie(c, PENDING_COOKIE, cookieOptions(c))
  return completeSignIn(c, user)
}
