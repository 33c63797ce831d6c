/**
 * Password brute-force guard beside the per-IP limit: failed sign-ins are counted per account
 * (whatever the address) in the RateLimiter Durable Object; past FAILURE_LIMIT in the window the
 * account's password sign-in is locked until the window ends (a KV marker checked before any
 * password work). Unknown usernames are counted and hashed like real ones, so neither the answer
 * nor its timing tells whether an account exists.
 */
import { cacheKeys } from '../../cache/keys'
import { hashPassword, sha256Hex, verifyPassword } from '../../lib/crypto'
import { isBcryptHash, verifyBcrypt } from './legacy-password'
import { tooManyRequests } from '../../lib/errors'

export const FAILURE_LIMIT = 10
const WINDOW_MS = 15 * 60 * 1000
/** KV refuses shorter expirations. */
const MIN_LOCK_SECONDS = 60

const accountHash = (login: string) => sha256Hex(`login:${login.trim().toLowerCase()}`)

/** Throws 429 while password sign-in for this login is locked. */
export async function assertLoginNotLocked(env: Env, login: string): Promise<void> {
  const until = Number(await env.CACHE.get(cacheKeys.loginLock(await accountHash(login))))
  if (until > Date.now()) {
    const minutes = Math.ceil((until - Date.now()) / 60_000)
    throw tooManyRequests(`Too many failed sign-ins for this account; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`)
  }
}

/** Count a failed sign-in; the FAILURE_LIMIT-th in a window locks the account until the window ends. */
export async function recordLoginFailure(env: Env, login: string): Promise<void> {
  const hash = await accountHash(login)
  const result = await env.RATE_LIMITER.getByName(`login-account:${hash}`).hit(FAILURE_LIMIT, WINDOW_MS)
  if (result.remaining > 0) return
  const ttl = Math.max(MIN_LOCK_SECONDS, Math.ceil((result.resetAt - Date.now()) / 1000))
  await env.CACHE.put(cacheKeys.loginLock(hash), String(result.resetAt), { expirationTtl: ttl })
}

let dummy: Promise<string> | undefined

/** Verify against the stored hash, or against a throw-away hash when there is none (same cost). */
export async function verifyOrDummy(password: string, stored: string | undefined | null): Promise<boolean> {
  if (isBcryptHash(stored)) return verifyBcrypt(password, stored)
  if (stored) return verifyPassword(password, stored)
  dummy ??= hashPassword(crypto.randomUUID())
  await verifyPassword(password, await dummy)
  return false
}
