/**
 * A passkey as a second factor: finishing a pending sign-in after the password or an OAuth login
 * (accounts/second-factor.ts), and confirming a step-up (auth/step-up.ts). The options name only
 * the account's own passkeys; the challenge is stored under the pending sign-in or the browser
 * session, bound to the account, and used up by the first answer. An assertion that fails for any
 * reason (expired, foreign, bad signature, replayed) is a wrong answer, counted like a wrong code.
 */
import type { Context } from 'hono'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import { sha256Hex } from '../../lib/crypto'
import { ApiError, badRequest, forbidden } from '../../lib/errors'
import { consumeSecret, putSecret } from '../../lib/single-use'
import type { HonoEnv } from '../../env'
import { registerStepUpVerifier } from '../../accounts/step-up'
import { assertionSchema } from './passkeys.schema'
import { CHALLENGE_TTL_SECONDS, checkAssertion, listPasskeys, ownPasskeyOptions } from './passkeys.service'

const factorKey = (scope: string) => `passkey-factor:${scope}`

/** The step-up scope of this browser session (access tokens have none and cannot step up). */
export async function stepUpScope(c: Context<HonoEnv>): Promise<string> {
  const sessionId = c.get('sessionId')
  if (c.get('authMethod') !== 'session' || !sessionId) throw forbidden('Confirming with a passkey needs a browser session')
  return `step-up:${await sha256Hex(sessionId)}`
}

/** Request options for `userId`'s own passkeys; the challenge is kept under `scope`. 400 without a passkey. */
export async function passkeyFactorOptions(c: Context<HonoEnv>, userId: number, scope: string) {
  const own = await listPasskeys(c.env, userId)
  if (own.length === 0) throw badRequest('This account has no passkey')
  const options = await ownPasskeyOptions(c, own)
  await putSecret(c.env.DB, factorKey(scope), JSON.stringify({ userId, challenge: options.challenge }), CHALLENGE_TTL_SECONDS)
  return options
}

/** True when `response` is a fresh assertion of one of `userId`'s passkeys for the challenge under `scope`. */
export async function verifyPasskeyFactor(c: Context<HonoEnv>, userId: number, scope: string, response: unknown): Promise<boolean> {
  const stored = await consumeSecret(c.env.DB, factorKey(scope))
  const pending = stored ? (JSON.parse(stored) as { userId: number; challenge: string }) : undefined
  const parsed = assertionSchema.safeParse(response)
  if (!pending || pending.userId !== userId || !parsed.success) return false
  try {
    await checkAssertion(c, pending.challenge, parsed.data as AuthenticationResponseJSON, userId)
    return true
  } catch (err) {
    if (err instanceof ApiError) return false
    throw err
  }
}

registerStepUpVerifier('passkey', async (c, userId) =>
  (await listPasskeys(c.env, userId)).length > 0 ? async (proof) => 'passkey' in proof && verifyPasskeyFactor(c, userId, await stepUpScope(c), proof.passkey) : undefined
)
