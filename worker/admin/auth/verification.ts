/**
 * One-time email verification codes (registration, email binding), kept in KV with a TTL and
 * consumed on first successful use.
 */
import { randomString } from '../../lib/crypto'

const CODE_TTL_SECONDS = 10 * 60
const key = (purpose: string, email: string) => `v1:verify:${purpose}:${email.toLowerCase()}`

export async function issueVerificationCode(env: Env, purpose: string, email: string): Promise<string> {
  const code = randomString(6).toUpperCase()
  await env.CACHE.put(key(purpose, email), code, { expirationTtl: CODE_TTL_SECONDS })
  return code
}

export async function consumeVerificationCode(env: Env, purpose: string, email: string, code: string): Promise<boolean> {
  const stored = await env.CACHE.get(key(purpose, email))
  if (!stored || stored !== code.trim().toUpperCase()) return false
  await env.CACHE.delete(key(purpose, email))
  return true
}
