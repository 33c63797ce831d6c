/**
 * The pending sign-in between the first factor (password, OAuth) and the second one. When the
 * account has a second factor, `signIn` issues no session: it stores a pending sign-in for five
 * minutes under the SHA-256 of a random id held in an HttpOnly cookie (so it is bound to this
 * browser) and answers `{require_2fa: true}`. `verifySecondFactor` runs a checker (a TOTP or backup
 * code today; a passkey assertion can plug in the same way) against the pending account: success
 * takes the pending sign-in and issues the session, each failure counts, and the fifth one ends it
 * (the user signs in again). Failures also count toward the account's sign-in lock (login-guard.ts).
 */
import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { eq } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { users, type User } from '../../db/schema'
import { randomString, sha256Hex } from '../../lib/crypto'
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { consumeSecret, countWrongGuess, peekGuessable, putSecret } from '../../lib/single-use'
import { nowSeconds } from '../../lib/time'
import { clientIp } from '../../lib/client-ip'
import { USER_STATUS } from '../../../shared/contract/enums'
import type { HonoEnv } from '../../env'
import { createSession } from '../../accounts/session'
import { assertLoginNotLocked, recordLoginFailure } from '../../accounts/login-guard'
import { getUser, profileOf } from '../../accounts/users'
import { twoFactorEnabled } from './two-factor.store'
import { basePathOf } from '../../lib/base-path'

export const PENDING_COOKIE = 'pending_2fa'
export const PENDING_TTL_SECONDS = 5 * 60

const pendingKey = async (id: string) => `2fa-login:${await sha256Hex(id)}`
const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'
const cookieOptions = (c: Context) => ({ httpOnly: true, sameSite: 'Lax' as const, secure: isHttps(c), path: `${basePathOf(c)}/api/user/login` })

/** Whether signing in to this account needs a second factor (TOTP today; passkeys add theirs here). */
export const secondFactorRequired = (env: Env, userId: number) => twoFactorEnabled(env, userId)

/** Issues the session and records the sign-in; answers like password login (data = profile). */
export async function completeSignIn(c: Context<HonoEnv>, user: User) {
  if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
  await createSession(c, user.id)
  const lastLoginTime = nowSeconds()
  const lastLoginIp = clientIp(c.req)
  await createDb(c.env.DB).update(users).set({ lastLoginTime, lastLoginIp }).where(eq(users.id, user.id))
  return ok(c, profileOf({ ...user, lastLoginTime, lastLoginIp }), 'Logged in')
}

/** Starts the pending sign-in: no session yet, an HttpOnly cookie naming it, and `{require_2fa: true}`. */
export async function beginSecondFactor(c: Context<HonoEnv>, user: User) {
  if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
  const id = randomString(43)
  await putSecret(c.env.DB, await pendingKey(id), String(user.id), PENDING_TTL_SECONDS)
  setCookie(c, PENDING_COOKIE, id, { ...cookieOptions(c), maxAge: PENDING_TTL_SECONDS })
  return ok(c, { require_2fa: true }, 'Enter the code from your authenticator app')
}

/** The end of every first factor: a session, or the pending sign-in when the account has a second factor. */
export async function signIn(c: Context<HonoEnv>, user: User) {
  return (await secondFactorRequired(c.env, user.id)) ? beginSecondFactor(c, user) : completeSignIn(c, user)
}

const noPending = () => unauthorized('The sign-in has expired; please sign in again')

/**
 * Checks the second factor of this browser's pending sign-in with `check(userId)` and, when it
 * passes, issues the session. 401 when there is no live pending sign-in; a failed check counts.
 */
export async function verifySecondFactor(c: Context<HonoEnv>, check: (userId: number) => Promise<boolean>) {
  const id = getCookie(c, PENDING_COOKIE)
  if (!id || id.length > 64) throw noPending()
  const key = await pendingKey(id)
  const userId = Number(await peekGuessable(c.env.DB, key))
  const user = userId ? await getUser(c.env, userId) : undefined
  if (!user) throw noPending()
  const ip = clientIp(c.req)
  await assertLoginNotLocked(c.env, user.username, ip)
  if (!(await check(user.id))) {
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
