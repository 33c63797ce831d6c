/**
 * Zhipu GLM auth token: a key `id.secret` becomes an HS256 JWT signed with `secret` (header
 * `sign_type: "SIGN"`, claims `api_key`, `exp` and `timestamp` in milliseconds), cached per key
 * until five minutes before it expires.
 */
import { SignJWT } from 'jose'

export const ZHIPU_TOKEN_TTL_MS = 24 * 3600_000
const REFRESH_MARGIN_MS = 5 * 60_000

/** `id.secret` → its parts, or undefined when the key is not in that form. */
export function splitZhipuKey(key: string): { id: string; secret: string } | undefined {
  const m = key.trim().match(/^([^.\s]+)\.([^.\s]+)$/)
  return m ? { id: m[1]!, secret: m[2]! } : undefined
}

export async function zhipuJwt(key: string, nowMs: number = Date.now()): Promise<string> {
  const parts = splitZhipuKey(key)
  if (!parts) throw new Error('Zhipu key must be id.secret')
  return new SignJWT({ api_key: parts.id, exp: nowMs + ZHIPU_TOKEN_TTL_MS, timestamp: nowMs })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', sign_type: 'SIGN' })
    .sign(new TextEncoder().encode(parts.secret))
}

const cache = new Map<string, { token: string; expiresAt: number }>()

/** A token for the key, reused across requests of this isolate until near its expiry. */
export async function cachedZhipuJwt(key: string, nowMs: number = Date.now()): Promise<string> {
  const hit = cache.get(key)
  if (hit && hit.expiresAt - REFRESH_MARGIN_MS > nowMs) return hit.token
  const token = await zhipuJwt(key, nowMs)
  if (cache.size > 1000) cache.clear()
  cache.set(key, { token, expiresAt: nowMs + ZHIPU_TOKEN_TTL_MS })
  return token
}
