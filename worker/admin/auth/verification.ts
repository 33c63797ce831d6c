/**
 * One-time email verification codes (registration, email binding), kept as single-use secrets in
 * D1 with a TTL, consumed atomically on first successful use and dead after five wrong guesses;
 * the 60-second resend guard per address; and the email-domain whitelist check shared by
 * registration and the verification-code sender.
 */
import { randomString } from '../../lib/crypto'
import { ApiError } from '../../lib/errors'
import { guessSecret, putSecret } from '../../lib/single-use'
import type { Settings } from '../../settings/store'
import { cacheKeys } from '../../cache/keys'

export const CODE_TTL_SECONDS = 10 * 60
/** KV's shortest TTL is also the resend interval. */
export const RESEND_INTERVAL_SECONDS = 60

const key = (purpose: string, email: string) => `v1:verify:${purpose}:${email.toLowerCase()}`
const sentKey = cacheKeys.verificationSent

export async function issueVerificationCode(env: Env, purpose: string, email: string): Promise<string> {
  const code = randomString(6).toUpperCase()
  await putSecret(env.DB, key(purpose, email), code, CODE_TTL_SECONDS)
  return code
}

/** True once for the right code; a wrong guess counts, and after five the code is dead. */
export async function consumeVerificationCode(env: Env, purpose: string, email: string, code: string): Promise<boolean> {
  return guessSecret(env.DB, key(purpose, email), code.trim().toUpperCase())
}

/**
 * Claims the right to mail `email` now: refuses (429, with `retry_after` seconds) when a mail went
 * to the same address less than 60 s ago. `release` gives the slot back when sending failed.
 */
export async function claimSendSlot(env: Env, email: string): Promise<{ release: () => Promise<void> }> {
  const last = Number(await env.CACHE.get(sentKey(email)))
  const now = Date.now()
  if (last && now - last < RESEND_INTERVAL_SECONDS * 1000) {
    const retryAfter = Math.max(1, Math.ceil((last + RESEND_INTERVAL_SECONDS * 1000 - now) / 1000))
    throw new ApiError(429, `Please wait ${retryAfter} seconds before requesting another email`, { data: { retry_after: retryAfter } })
  }
  await env.CACHE.put(sentKey(email), String(now), { expirationTtl: RESEND_INTERVAL_SECONDS })
  return { release: () => env.CACHE.delete(sentKey(email)) }
}

/** Throws 400 when the email domain whitelist is on and the address is outside it. */
export function assertEmailDomainAllowed(settings: Settings, email: string): void {
  if (!settings.bool('EmailDomainRestrictionEnabled')) return
  const domain = email.split('@')[1]?.toLowerCase() ?? ''
  const allowed = settings
    .str('EmailDomainWhitelist')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean)
  if (!allowed.includes(domain)) {
    throw new ApiError(400, 'This email domain is not allowed', { data: { fields: { email: 'domain not allowed' } } })
  }
}
