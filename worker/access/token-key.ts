/**
 * API key format: `sk-` + 40 random base62 characters + an 8-character HMAC-SHA256 tag of them
 * under the gateway's token secret. A key whose tag does not verify is refused before any storage
 * lookup, so guessed or forged keys cost nothing. The stored `tokens.key` is the part after `sk-`.
 */
import { hmacBase62, randomString, safeEqual } from '../lib/crypto'

const BODY_LENGTH = 40
const TAG_LENGTH = 8

export async function generateTokenKey(secret: string): Promise<string> {
  const body = randomString(BODY_LENGTH)
  return body + (await hmacBase62(secret, body, TAG_LENGTH))
}

/** Keys whose tag verified in this isolate, with the secret it verified under (bounded; a new secret re-verifies). */
const verified = new Map<string, string>()
const MAX_VERIFIED = 10_000

export async function verifyTokenKey(key: string, secret: string): Promise<boolean> {
  if (verified.get(key) === secret) return true
  if (key.length !== BODY_LENGTH + TAG_LENGTH || !/^[0-9A-Za-z]+$/.test(key)) return false
  const tag = await hmacBase62(secret, key.slice(0, BODY_LENGTH), TAG_LENGTH)
  if (!safeEqual(tag, key.slice(BODY_LENGTH))) return false
  if (verified.size >= MAX_VERIFIED) verified.clear()
  verified.set(key, secret)
  return true
}

export interface ParsedKey {
  key: string
  /** `sk-KEY#12`: use channel 12 only. */
  pinChannel?: number
  /** `sk-KEY#!12`: never use channel 12. */
  excludeChannel?: number
}

/** Reads the key from `Authorization: Bearer sk-…` or `x-api-key`, with an optional channel suffix. */
export function parseKeyHeader(authorization: string | undefined, apiKey: string | undefined): ParsedKey | undefined {
  let raw = (authorization ?? '').replace(/^Bearer\s+/i, '').trim() || (apiKey ?? '').trim()
  if (!raw) return undefined
  if (raw.startsWith('sk-')) raw = raw.slice(3)
  const [key, suffix] = raw.split('#', 2)
  const parsed: ParsedKey = { key: key ?? '' }
  if (suffix) {
    const m = suffix.match(/^(!?)(\d{1,9})$/)
    if (m) {
      if (m[1]) parsed.excludeChannel = Number(m[2])
      else parsed.pinChannel = Number(m[2])
    }
  }
  return parsed
}
