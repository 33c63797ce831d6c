/**
 * Password-reset tokens: 32 random characters mailed in a link, stored in KV only as a SHA-256
 * hash together with the user id and email, valid 15 minutes and consumed on first use. Only the
 * newest link of a user works (its hash is kept per user); a password change forgets it too.
 */
import { randomString, sha256Hex } from '../../lib/crypto'

export const RESET_TTL_SECONDS = 15 * 60
const key = async (token: string) => `v1:reset:${await sha256Hex(token)}`
const latestKey = (userId: number) => `v1:reset-latest:${userId}`

interface ResetRecord {
  userId: number
  email: string
}

export async function issueResetToken(env: Env, userId: number, email: string): Promise<string> {
  const token = randomString(32)
  const record: ResetRecord = { userId, email: email.toLowerCase() }
  const k = await key(token)
  await env.CACHE.put(k, JSON.stringify(record), { expirationTtl: RESET_TTL_SECONDS })
  await env.CACHE.put(latestKey(userId), k, { expirationTtl: RESET_TTL_SECONDS })
  return token
}

/** Every outstanding reset link of the user stops working (the password changed). */
export async function forgetResetTokens(env: Env, userId: number): Promise<void> {
  await env.CACHE.delete(latestKey(userId))
}

/** The user id the token was issued to, once; undefined when unknown, expired, used or for another email. */
export async function consumeResetToken(env: Env, email: string, token: string): Promise<number | undefined> {
  if (!/^[A-Za-z0-9]{32}$/.test(token)) return undefined
  const k = await key(token)
  const raw = await env.CACHE.get(k)
  if (!raw) return undefined
  const record = JSON.parse(raw) as ResetRecord
  if (record.email !== email.trim().toLowerCase()) return undefined
  // An older link than the newest one issued (or one issued before a password change) is dead.
  if ((await env.CACHE.get(latestKey(record.userId))) !== k) return undefined
  await env.CACHE.delete(k)
  await env.CACHE.delete(latestKey(record.userId))
  return record.userId
}
