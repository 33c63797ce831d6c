/**
 * Password brute-force guard beside the per-IP limit. Failed sign-ins are counted in the
 * RateLimiter Durable Object per account and client network (IPv4 /24, IPv6 /64): past
 * FAILURE_LIMIT in the window, password sign-in to that account from that network is locked until
 * the window ends. So that one attacker network cannot lock the owner out from another (security
 * finding 14), the account as a whole locks only past ACCOUNT_FAILURE_LIMIT failures from all
 * networks together. Locks are KV markers checked before any password work. Unknown usernames are
 * counted and hashed like real ones, so neither the answer nor its timing tells whether an account
 * exists.
 */
import { cacheKeys } from '../cache/keys'
import { hashPassword, sha256Hex, verifyPassword } from '../lib/crypto'
import { ipNetwork } from '../lib/cidr'
import { isBcryptHash, verifyBcrypt } from './legacy-password'
import { tooManyRequests } from '../lib/errors'

/** Failures per account from one client network in a window. */
export const FAILURE_LIMIT = 10
/** Failures per account from all networks together in a window (the ceiling a botnet meets). */
export const ACCOUNT_FAILURE_LIMIT = 100
const WINDOW_MS = 15 * 60 * 1000
/** KV refuses shorter expirations. */
const MIN_LOCK_SECONDS = 60

const accountHash = (login: string) => sha256Hex(`login:${login.trim().toLowerCase()}`)

/** The two counters a sign-in attempt belongs to: the account from this network, and the account. */
async function scopes(login: string, ip: string) {
  const hash = await accountHash(login)
  return [
    { name: `${hash}|${ipNetwork(ip)}`, limit: FAILURE_LIMIT },
    { name: hash, limit: ACCOUNT_FAILURE_LIMIT },
  ]
}

/** Throws 429 while password sign-in for this login is locked, from the client's network or everywhere. */
export async function assertLoginNotLocked(env: Env, login: string, ip: string): Promise<void> {
  const locks = await Promise.all((await scopes(login, ip)).map(async (s) => Number(await env.CACHE.get(cacheKeys.loginLock(s.name)))))
  const until = Math.max(...locks.map((n) => n || 0))
  if (until > Date.now()) {
    const minutes = Math.ceil((until - Date.now()) / 60_000)
    throw tooManyRequests(`Too many failed sign-ins for this account; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`)
  }
}

/** Count a failed sign-in; reaching a counter's limit in a window locks its scope until the window ends. */
export async function recordLoginFailure(env: Env, login: string, ip: string): Promise<void> {
  await Promise.all(
    (await scopes(login, ip)).map(async (s) => {
      const result = await env.RATE_LIMITER.getByName(`login-account:${s.name}`).hit(s.limit, WINDOW_MS)
      if (result.remaining > 0) return
      const ttl = Math.max(MIN_LOCK_SECONDS, Math.ceil((result.resetAt - Date.now()) / 1000))
      await env.CACHE.put(cacheKeys.loginLock(s.name), String(result.resetAt), { expirationTtl: ttl })
    })
  )
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
