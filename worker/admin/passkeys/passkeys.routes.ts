/**
 * Passkey routes under /api/user/passkey: the signed-in owner registers (options, then verify),
 * lists, renames and deletes passkeys; anyone may sign in with one without a username (options,
 * then verify), which issues the same session cookie as password login. Registering needs a
 * browser session, never an access token, so a leaked token cannot plant a passkey of its own.
 * The ceremonies themselves: passkeys.service.ts.
 */
import { Hono, type Context } from 'hono'
import { eq } from 'drizzle-orm'
import { getCookie, setCookie, deleteCookie } from 'hono/cookie'
import { z } from 'zod'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import { createDb } from '../../db/client'
import { users } from '../../db/schema'
import { publicRoute, userRoute } from '../../middleware/access'
import { clientIp } from '../../lib/client-ip'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { forbidden, notFound } from '../../lib/errors'
import { randomString, sha256Hex } from '../../lib/crypto'
import { ok } from '../../lib/respond'
import { nowSeconds } from '../../lib/time'
import { idParam, validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { createSession, SESSION_COOKIE } from '../../accounts/session'
import { getUser, profileOf } from '../../accounts/users'
import { pendingSignIn, verifySecondFactor } from '../../accounts/second-factor'
import { passkeyFactorOptions, stepUpScope, verifyPasskeyFactor } from './passkey-factor'
import { assertionSchema, passkeyName, registerSchema } from './passkeys.schema'
import {
  CHALLENGE_TTL_SECONDS,
  deletePasskey,
  listPasskeys,
  passkeyView,
  registerPasskey,
  registrationOptions,
  renamePasskey,
  signInOptions,
  verifySignIn,
} from './passkeys.service'

/** The browser's sign-in ceremony cookie (random; the challenge is stored under its hash). */
const SIGN_IN_COOKIE = 'passkey_login'
const COOKIE_PATH = '/api/user/passkey'

const signInSchema = z.object({ response: assertionSchema })
const renameSchema = z.object({ name: passkeyName })

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'

/** SHA-256 of this browser session's id; registration is refused without a session cookie. */
async function sessionHash(c: Context<HonoEnv>): Promise<string> {
  const sid = getCookie(c, SESSION_COOKIE)
  if (c.get('authMethod') !== 'session' || !sid) throw forbidden('Sign in with your account in the browser to add a passkey')
  return sha256Hex(sid)
}

export const passkeyRoutes = new Hono<HonoEnv>()
  .get('/user/passkey', userRoute, async (c) => ok(c, (await listPasskeys(c.env, c.get('user')!.id)).map(passkeyView)))
  .post('/user/passkey/register/options', userRoute, async (c) => {
    const hash = await sessionHash(c)
    const user = await getUser(c.env, c.get('user')!.id)
    if (!user) throw notFound('User not found')
    return ok(c, await registrationOptions(c, user, hash))
  })
  .post('/user/passkey/register', userRoute, validate('json', registerSchema), async (c) => {
    const hash = await sessionHash(c)
    const body = c.req.valid('json')
    const row = await registerPasskey(c, c.get('user')!.id, hash, body.name, body.response as RegistrationResponseJSON)
    return ok(c, passkeyView(row), 'Passkey added')
  })
  .put('/user/passkey/:id{[0-9]+}', userRoute, validate('param', idParam), validate('json', renameSchema), async (c) => {
    const row = await renamePasskey(c.env, c.get('user')!.id, c.req.valid('param').id, c.req.valid('json').name)
    return ok(c, passkeyView(row), 'Passkey renamed')
  })
  .delete('/user/passkey/:id{[0-9]+}', userRoute, validate('param', idParam), async (c) => {
    await deletePasskey(c.env, c.get('user')!.id, c.req.valid('param').id)
    return ok(c, null, 'Passkey deleted')
  })
  .post('/user/passkey/login/options', publicRoute, criticalRateLimit('passkey-login'), async (c) => {
    const nonce = randomString(43)
    const options = await signInOptions(c, nonce)
    setCookie(c, SIGN_IN_COOKIE, nonce, { httpOnly: true, sameSite: 'Strict', secure: isHttps(c), path: COOKIE_PATH, maxAge: CHALLENGE_TTL_SECONDS })
    return ok(c, options)
  })
  // A passkey proves possession and (required) user verification: a complete sign-in on its own.
  .post('/user/passkey/login', publicRoute, criticalRateLimit('passkey-login'), validate('json', signInSchema), async (c) => {
    const nonce = getCookie(c, SIGN_IN_COOKIE)
    deleteCookie(c, SIGN_IN_COOKIE, { path: COOKIE_PATH, secure: isHttps(c), httpOnly: true, sameSite: 'Strict' })
    const user = await verifySignIn(c, nonce, c.req.valid('json').response as AuthenticationResponseJSON)
    await createSession(c, user.id)
    await createDb(c.env.DB)
      .update(users)
      .set({ lastLoginTime: nowSeconds(), lastLoginIp: clientIp(c.req) })
      .where(eq(users.id, user.id))
    return ok(c, profileOf(user), 'Logged in')
  })
  // The second factor of a pending sign-in (the pending cookie is scoped to /api/user/login).
  .post('/user/login/2fa/passkey/options', publicRoute, criticalRateLimit('login'), async (c) => {
    const { key, user } = await pendingSignIn(c)
    return ok(c, await passkeyFactorOptions(c, user.id, key))
  })
  .post('/user/login/2fa/passkey', publicRoute, criticalRateLimit('login'), validate('json', z.object({ response: z.unknown() })), async (c) => {
    const { response } = c.req.valid('json')
    return verifySecondFactor(c, (userId, key) => verifyPasskeyFactor(c, userId, key, response))
  })
  .post('/user/step_up/passkey/options', userRoute, async (c) => ok(c, await passkeyFactorOptions(c, c.get('user')!.id, await stepUpScope(c))))
