/**
 * Step-up ("sudo mode"): sensitive actions (revealing a key or a channel secret, changing payment
 * gateways, promoting an administrator, exporting logs, importing a database) need the password to
 * have been confirmed on this browser session within STEP_UP_WINDOW_SECONDS. A fresh sign-in counts
 * (createSession stamps it), which is also how an account without a password (OAuth only) steps up:
 * it signs in again. Access tokens carry no session and cannot step up, so they cannot run these
 * actions. A refusal is 403 with code `step_up_required`; the console catches it, asks, and retries.
 *
 * Second factors plug in through registerStepUpVerifier: `POST /api/user/step_up {code}` asks each
 * registered verifier in turn (e.g. TOTP, backup codes) and accepts the first that says yes;
 * `{passkey}` (a WebAuthn assertion, passkeys/passkey-factor.ts) goes the same way.
 */
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { sessions } from '../db/schema'
import { ApiError, badRequest, unauthorized } from '../lib/errors'
import { clockSeconds } from '../lib/clock'
import { clientIp } from '../lib/client-ip'
import type { HonoEnv } from '../env'
import { getUser } from './users'
import { verifyStoredPassword } from './legacy-password'
import { assertLoginNotLocked, recordLoginFailure } from './login-guard'

export const STEP_UP_WINDOW_SECONDS = 10 * 60
export const STEP_UP_REQUIRED = 'step_up_required'

/** Why a step-up cannot be given by password here (`data.reason` of the 403). */
type StepUpReason = 'password' | 'no_password' | 'session_required'

/** What the user gave: a typed code, or a passkey assertion (checked only by verifiers that take one). */
export type StepUpProof = { code: string } | { passkey: unknown }

/** Answers whether `proof` is a valid second factor of `userId` right now (and consumes it if single-use). */
export type StepUpVerifier = (c: Context<HonoEnv>, userId: number) => Promise<((proof: StepUpProof) => Promise<boolean>) | undefined>

const verifiers = new Map<string, StepUpVerifier>()

/**
 * Adds a second factor to step-up. The verifier returns undefined when the user has not set that
 * factor up, otherwise a checker for one submitted code. Registering a name again replaces it.
 */
export function registerStepUpVerifier(name: string, verifier: StepUpVerifier): void {
  verifiers.set(name, verifier)
}

/** The second factors this user has set up (names of registered verifiers), for the console's dialog. */
async function factorsOf(c: Context<HonoEnv>, userId: number) {
  const found: { name: string; check: (proof: StepUpProof) => Promise<boolean> }[] = []
  for (const [name, verifier] of verifiers) {
    const check = await verifier(c, userId)
    if (check) found.push({ name, check })
  }
  return found
}

function stepUpRequired(reason: StepUpReason, factors: string[] = []) {
  const message =
    reason === 'session_required'
      ? 'This action needs a browser session that confirmed the password in the last 10 minutes; access tokens cannot do it'
      : reason === 'no_password'
        ? 'This account has no password: sign in again to confirm it is you'
        : 'Confirm your password to continue'
  return new ApiError(403, message, { code: STEP_UP_REQUIRED, data: { code: STEP_UP_REQUIRED, reason, factors } })
}

/** True when this request's session confirmed the password within the window. */
export function stepUpFresh(c: Context<HonoEnv>): boolean {
  const at = c.get('stepUpAt')
  return c.get('authMethod') === 'session' && at !== undefined && clockSeconds() - at < STEP_UP_WINDOW_SECONDS
}

/** The refusal this request would get (undefined when stepUpFresh). */
async function refusal(c: Context<HonoEnv>): Promise<ApiError | undefined> {
  if (stepUpFresh(c)) return undefined
  if (c.get('authMethod') !== 'session') return stepUpRequired('session_required')
  const user = await getUser(c.env, c.get('user')!.id)
  const factors = (await factorsOf(c, c.get('user')!.id)).map((f) => f.name)
  return stepUpRequired(user?.password ? 'password' : 'no_password', factors)
}

/** Throws `step_up_required` unless stepUpFresh; for actions that need it only in some cases. */
export async function assertStepUp(c: Context<HonoEnv>): Promise<void> {
  const refused = await refusal(c)
  if (refused) throw refused
}

/** GET /api/user/step_up: whether a step-up action would pass now, and if not what the 403 would carry. */
export async function stepUpStatus(c: Context<HonoEnv>) {
  const refused = await refusal(c)
  const at = c.get('stepUpAt') ?? 0
  return refused ? { fresh: false, until: 0, required: refused.data } : { fresh: true, until: at + STEP_UP_WINDOW_SECONDS }
}

/** Route middleware form of assertStepUp; put it after the route's access() middleware. */
export const requireStepUp = createMiddleware<HonoEnv>(async (c, next) => {
  await assertStepUp(c)
  await next()
})

/**
 * POST /api/user/step_up: checks the password (or a second-factor code) and stamps the session.
 * Wrong answers count toward the sign-in lockout of the account and address, like a wrong login.
 */
export async function confirmStepUp(c: Context<HonoEnv>, input: { password?: string | undefined; code?: string | undefined; passkey?: unknown }): Promise<number> {
  const me = c.get('user')!
  const sessionId = c.get('sessionId')
  if (c.get('authMethod') !== 'session' || !sessionId) throw stepUpRequired('session_required')
  const user = await getUser(c.env, me.id)
  if (!user) throw unauthorized()
  const ip = clientIp(c.req)
  await assertLoginNotLocked(c.env, user.username, ip)
  let passed = false
  const proof: StepUpProof | undefined = input.passkey !== undefined ? { passkey: input.passkey } : input.code !== undefined ? { code: input.code } : undefined
  if (proof) {
    const factors = await factorsOf(c, me.id)
    if (factors.length === 0) throw badRequest('code: no second factor is set up for this account', { fields: { code: 'no second factor is set up' } })
    for (const f of factors) if (!passed) passed = await f.check(proof)
  } else if (input.password !== undefined) {
    if (!user.password) throw stepUpRequired('no_password')
    passed = await verifyStoredPassword(input.password, user.password)
  }
  if (!passed) {
    await recordLoginFailure(c.env, user.username, ip)
    const field = proof ? 'code' : 'password'
    throw badRequest(`${field}: wrong ${field}`, { fields: { [field]: `wrong ${field}` } })
  }
  const at = clockSeconds()
  await createDb(c.env.DB).update(sessions).set({ stepUpAt: at }).where(eq(sessions.id, sessionId))
  return at + STEP_UP_WINDOW_SECONDS
}
