/**
 * Passkeys (WebAuthn discoverable credentials, verified by @simplewebauthn/server on WebCrypto):
 * the relying party (RP id = host of the ServerAddress setting, else of the request; the expected
 * origin likewise), registration and sign-in ceremonies, and the owner's list, rename and delete.
 * Every challenge lives in single_use_secrets (worker/lib/single-use.ts) for CHALLENGE_TTL_SECONDS
 * and is consumed before the response is checked, so it verifies at most once. A registration
 * challenge is keyed by the browser session and names its user; a sign-in challenge is keyed by a
 * random HttpOnly cookie of the browser that asked for it.
 */
import type { Context } from 'hono'
import { and, eq } from 'drizzle-orm'
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { createDb } from '../../db/client'
import { passkeys, type Passkey, type User } from '../../db/schema'
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors'
import { sha256Hex } from '../../lib/crypto'
import { consumeSecret, putSecret } from '../../lib/single-use'
import { siteBaseUrl } from '../../settings/site-url'
import { nowSeconds } from '../../lib/time'
import { getSettings, getTokenSecret } from '../../settings/store'
import type { HonoEnv } from '../../env'
import type { PasskeyView } from '../../../shared/contract/passkeys'
import { getUser } from '../../accounts/users'
import { USER_STATUS } from '../../../shared/contract/enums'

export const CHALLENGE_TTL_SECONDS = 300
/** Passkeys one account may hold. */
const MAX_PASSKEYS_PER_USER = 20

/** The relying party: RP id and expected origin from ServerAddress, else from this request's URL. */
async function relyingParty(c: Context<HonoEnv>) {
  const settings = await getSettings(c.env, c.executionCtx)
  const base = new URL(siteBaseUrl(c, settings))
  return { rpID: base.hostname, origin: base.origin, rpName: settings.str('SystemName') || base.hostname }
}

/**
 * The WebAuthn user handle of an account: an HMAC of its id under the token secret, so it is
 * stable (an authenticator replaces, not duplicates, a passkey of the same account) and says
 * nothing about the account to whoever reads the authenticator.
 */
async function userHandle(env: Env, userId: number): Promise<string> {
  const hex = await sha256Hex(`passkey-user-handle:${await getTokenSecret(env)}:${userId}`)
  return isoBase64URL.fromBuffer(Uint8Array.from(hex.match(/../g)!, (b) => Number.parseInt(b, 16)))
}

const splitTransports = (s: string) => (s ? (s.split(',') as AuthenticatorTransport[]) : [])

export function passkeyView(p: Passkey): PasskeyView {
  return { id: p.id, name: p.name, transports: splitTransports(p.transports), backed_up: p.backedUp, created_at: p.createdAt, last_used_at: p.lastUsedAt }
}

export async function listPasskeys(env: Env, userId: number): Promise<Passkey[]> {
  return createDb(env.DB).select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.id)
}

const registrationKey = (sessionHash: string) => `passkey-reg:${sessionHash}`
const signInKey = (nonceHash: string) => `passkey-login:${nonceHash}`

/** Creation options for the signed-in user; the challenge is stored for this browser session. */
export async function registrationOptions(c: Context<HonoEnv>, user: User, sessionHash: string) {
  const rp = await relyingParty(c)
  const existing = await listPasskeys(c.env, user.id)
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw conflict(`An account holds at most ${MAX_PASSKEYS_PER_USER} passkeys; delete one first`)
  const options = await generateRegistrationOptions({
    rpName: rp.rpName,
    rpID: rp.rpID,
    userName: user.username,
    userDisplayName: user.displayName || user.username,
    userID: isoBase64URL.toBuffer(await userHandle(c.env, user.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: splitTransports(p.transports) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: [-7, -257],
  })
  await putSecret(c.env.DB, registrationKey(sessionHash), JSON.stringify({ userId: user.id, challenge: options.challenge }), CHALLENGE_TTL_SECONDS)
  return options
}

/** Verifies a new passkey against this session's challenge (used up either way) and stores it. */
export async function registerPasskey(c: Context<HonoEnv>, userId: number, sessionHash: string, name: string, response: RegistrationResponseJSON): Promise<Passkey> {
  const stored = await consumeSecret(c.env.DB, registrationKey(sessionHash))
  const pending = stored ? (JSON.parse(stored) as { userId: number; challenge: string }) : undefined
  if (!pending || pending.userId !== userId) throw badRequest('The passkey request expired; start again')
  const rp = await relyingParty(c)
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: pending.challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
    supportedAlgorithmIDs: [-7, -257],
  }).catch((err: unknown) => {
    throw badRequest(`The passkey could not be verified: ${err instanceof Error ? err.message : 'invalid response'}`)
  })
  if (!result.verified) throw badRequest('The passkey could not be verified')
  const { credential, credentialBackedUp } = result.registrationInfo
  if ((await listPasskeys(c.env, userId)).length >= MAX_PASSKEYS_PER_USER) throw conflict(`An account holds at most ${MAX_PASSKEYS_PER_USER} passkeys; delete one first`)
  const [row] = await createDb(c.env.DB)
    .insert(passkeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: (credential.transports ?? response.response.transports ?? []).join(','),
      backedUp: credentialBackedUp,
      name,
      createdAt: nowSeconds(),
    })
    .onConflictDoNothing()
    .returning()
  if (!row) throw conflict('This passkey is already registered')
  return row
}

/** Request options for a usernameless sign-in; the challenge is stored under `nonce` (the browser's cookie). */
export async function signInOptions(c: Context<HonoEnv>, nonce: string) {
  const rp = await relyingParty(c)
  const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'required' })
  await putSecret(c.env.DB, signInKey(await sha256Hex(nonce)), options.challenge, CHALLENGE_TTL_SECONDS)
  return options
}

/**
 * Checks an assertion against `challenge`: a known credential (of `ownerId` when given), the
 * owner's user handle, a valid signature with user verification, and a counter that moved
 * forward (written conditionally, so of two racing uses of one assertion only one passes).
 * Throws 401 when any of it fails; returns the passkey.
 */
export async function checkAssertion(c: Context<HonoEnv>, challenge: string, response: AuthenticationResponseJSON, ownerId?: number): Promise<Passkey> {
  const db = createDb(c.env.DB)
  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1)
  if (!passkey || (ownerId !== undefined && passkey.userId !== ownerId)) throw unauthorized('This passkey is not registered here')
  if (response.response.userHandle !== undefined && response.response.userHandle !== (await userHandle(c.env, passkey.userId))) {
    throw unauthorized('This passkey does not belong to its account')
  }
  const rp = await relyingParty(c)
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.rpID,
    requireUserVerification: true,
    credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: splitTransports(passkey.transports) },
  }).catch((err: unknown) => {
    throw unauthorized(`The passkey could not be verified: ${err instanceof Error ? err.message : 'invalid response'}`)
  })
  if (!result.verified) throw unauthorized('The passkey could not be verified')
  const [moved] = await db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: nowSeconds() })
    .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
    .returning({ id: passkeys.id })
  if (!moved) throw unauthorized('The passkey could not be verified: its counter moved meanwhile')
  return passkey
}

/** Request options naming only these passkeys (a second factor: the account is already known). */
export async function ownPasskeyOptions(c: Context<HonoEnv>, own: Passkey[]) {
  const rp = await relyingParty(c)
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    userVerification: 'required',
    allowCredentials: own.map((p) => ({ id: p.credentialId, transports: splitTransports(p.transports) })),
  })
}

/** Checks a usernameless sign-in against the challenge stored under `nonce` (used up either way); returns the enabled user. */
export async function verifySignIn(c: Context<HonoEnv>, nonce: string | undefined, response: AuthenticationResponseJSON): Promise<User> {
  const challenge = nonce ? await consumeSecret(c.env.DB, signInKey(await sha256Hex(nonce))) : undefined
  if (!challenge) throw badRequest('The passkey request expired; start again')
  const passkey = await checkAssertion(c, challenge, response)
  const user = await getUser(c.env, passkey.userId)
  if (!user) throw unauthorized('This passkey is not registered here')
  if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
  return user
}

export async function renamePasskey(env: Env, userId: number, id: number, name: string): Promise<Passkey> {
  const [row] = await createDb(env.DB)
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning()
  if (!row) throw notFound('Passkey not found')
  return row
}

export async function deletePasskey(env: Env, userId: number, id: number): Promise<void> {
  const [row] = await createDb(env.DB)
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id })
  if (!row) throw notFound('Passkey not found')
}
