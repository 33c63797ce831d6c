/**
 * Password-reset tokens: 32 random characters mailed in a link, stored in KV only as a SHA-256
 * hash together with the user id and email, valid 15 minutes and consumed on first use.
 */
import { randomString, sha256Hex } from '../../lib/crypto'

export const RESET_TTL_SECONDS = 15 * 60
const key = async (token: string) => `v1:reset:${await sha256Hex(token)}`

interface ResetRecord {
  userId: number
  email: string
}

export async function issueResetToken(env: Env, userId: number, email: string): Promise<string> {
  const token = randomString(32)
  const record: ResetRecord = { userId, email: email.toLowerCase() }
  await env.CACHE.put(await key(token), JSON.stringify(record), { expirationTtl: RESET_TTL_SECONDS })
  return token
}

/** The user id the token was issued to, once; undefined when unknown, expired, used or for another email. */
export async function consumeResetToken(env: Env, email: string, token: string): Promise<number | undefined> {
  if (!/^[A-Za-z0-9]{32}$/.test(token)) return undefined
  const k = await key(token)
  const raw = await env.CACHE.get(k)
  if (!raw) return undefined
  const record = JSON.parse(raw) as ResetRecord
  if (record.email !== email.trim().toLowerCase()) return undefined
  await env.CACHE.delete(k)
  return record.userId
}
