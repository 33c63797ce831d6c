/**
 * Password-reset tokens: 32 random characters mailed in a link, stored (as single-use secrets in
 * D1) only as a SHA-256 hash together with the user id and email, valid 15 minutes and consumed
 * atomically on first use (two concurrent resets with one link: one wins). Only the newest link
 * of a user works (its hash is kept per user); a password change forgets it too.
 */
import { randomString, sha256Hex } from '../lib/crypto'
import { consumeSecret, consumeSecretIf, deleteSecret, peekSecret, putSecret } from '../lib/single-use'

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
  await putSecret(env.DB, k, JSON.stringify(record), RESET_TTL_SECONDS)
  await putSecret(env.DB, latestKey(userId), k, RESET_TTL_SECONDS)
  return token
}

/** Every outstanding reset link of the user stops working (the password changed). */
export async function forgetResetTokens(env: Env, userId: number): Promise<void> {
  await deleteSecret(env.DB, latestKey(userId))
}

/** The user id the token was issued to, once; undefined when unknown, expired, used or for another email. */
export async function consumeResetToken(env: Env, email: string, token: string): Promise<number | undefined> {
  if (!/^[A-Za-z0-9]{32}$/.test(token)) return undefined
  const k = await key(token)
  const raw = await peekSecret(env.DB, k)
  if (!raw) return undefined
  const record = JSON.parse(raw) as ResetRecord
  if (record.email !== email.trim().toLowerCase()) return undefined
  // An older link than the newest one issued (or one issued before a password change) is dead.
  // Taking the "newest link" marker is the atomic step: of two concurrent uses only one removes it.
  if (!(await consumeSecretIf(env.DB, latestKey(record.userId), k))) return undefined
  await consumeSecret(env.DB, k)
  return record.userId
}
