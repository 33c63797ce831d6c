/**
 * First-run setup, password login/logout and registration.
 * POST /api/setup works exactly once (an atomic insert guarded by "no users yet"), only from loopback
 * or with the setup code (setup-gate.ts), and gives root its starting balance with its log row.
 * Login and registration pass the Turnstile gate when TurnstileCheckEnabled; password login also
 * passes the per-account failure lock (login-guard.ts).
 */
import { Hono } from 'hono'
import { and, eq, sql } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { users } from '../../db/schema'
import { publicRoute } from '../../middleware/access'
import { clientIp } from '../../lib/client-ip'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { turnstile } from '../../middleware/turnstile'
import { badRequest, conflict, forbidden, unauthorized } from '../../lib/errors'
import { hashPassword, randomString } from '../../lib/crypto'
import { ok } from '../../lib/respond'
import { nowSeconds } from '../../lib/time'
import { validate } from '../../lib/validate'
import { getSettings, getTokenSecret } from '../../settings/store'
import { seedDefaultPrices } from '../../billing/default-prices'
import { priceSnapshot } from '../../billing/pricing'
import type { HonoEnv } from '../../env'
import { markSetupDone } from '../status/status.service'
import { getUser, profileOf } from '../../accounts/users'
import { createUser, findByLogin } from '../users/users.service'
import { loginSchema, registerSchema, setupSchema } from './auth.schema'
import { createSession, destroySession } from '../../accounts/session'
import { signIn } from '../../accounts/second-factor'
import { assertSetupAllowed, ROOT_INITIAL_QUOTA } from './setup-gate'
import { assertEmailDomainAllowed, consumeVerificationCode } from './verification'
import { assertLoginNotLocked, recordLoginFailure, verifyOrDummy } from '../../accounts/login-guard'
import { requireXsrf } from '../oauth/require-xsrf'
import { isBcryptHash } from '../../accounts/legacy-password'
import { holdSignupRewards, paySignupRewardsQuietly } from '../../billing/signup-rewards'
import { applyDefaultPlan } from '../../plans/default-plan'
import { LOG_TYPE, ROLE, USER_STATUS } from '../../../shared/contract/enums'
import type { RegisteredUser } from '../../../shared/contract/auth'

export const authRoutes = new Hono<HonoEnv>()
  .post('/setup', publicRoute, criticalRateLimit('setup'), validate('json', setupSchema), async (c) => {
    const { username, password, code } = c.req.valid('json')
    assertSetupAllowed(c, code)
    const now = nowSeconds()
    const affCode = randomString(8)
    // One batch (one D1 transaction): the root is inserted only while the users table is empty, so
    // two racing setups cannot both win, and its starting balance is explained by exactly one log
    // row, written only when this request's insert happened (matched by its fresh invite code).
    const [inserted] = await c.env.DB.batch<{ id: number }>([
      c.env.DB.prepare(
        `INSERT INTO users (username, password, display_name, role, quota, aff_code, created_time)
         SELECT ?1, ?2, 'Root User', ?3, ?4, ?5, ?6 WHERE NOT EXISTS (SELECT 1 FROM users)
         RETURNING id`
      ).bind(username, await hashPassword(password), ROLE.ROOT, ROOT_INITIAL_QUOTA, affCode, now),
      c.env.DB.prepare(
        `INSERT INTO logs (user_id, username, created_at, type, quota, content)
         SELECT id, username, ?3, ?4, ?5, 'Initial balance of the root account' FROM users WHERE username = ?1 AND aff_code = ?2`
      ).bind(username, affCode, now, LOG_TYPE.SYSTEM, ROOT_INITIAL_QUOTA),
    ])
    const root = inserted?.results[0]
    if (!root) throw conflict('The system is already set up')
    markSetupDone()
    await getTokenSecret(c.env)
    if (await seedDefaultPrices(c.env)) await priceSnapshot.invalidate(c.env)
    await createSession(c, root.id)
    const user = await getUser(c.env, root.id)
    return ok(c, profileOf(user!), 'Root account created')
  })
  .post('/user/login', publicRoute, criticalRateLimit('login'), turnstile(), validate('json', loginSchema), async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    if (!settings.bool('PasswordLoginEnabled')) throw forbidden('Password login is disabled by the administrator')
    const { username, password } = c.req.valid('json')
    await assertLoginNotLocked(c.env, username, clientIp(c.req))
    const user = await findByLogin(c.env, username)
    if (!(await verifyOrDummy(password, user?.password)) || !user) {
      await recordLoginFailure(c.env, username, clientIp(c.req))
      throw unauthorized('Invalid username or password')
    }
    if (user.status !== USER_STATUS.ENABLED) throw forbidden('This account has been disabled')
    // An imported bcrypt hash (one-api / one-hub) is replaced by this gateway's PBKDF2 hash.
    if (isBcryptHash(user.password)) {
      await createDb(c.env.DB)
        .update(users)
        .set({ password: await hashPassword(password) })
        .where(eq(users.id, user.id))
    }
    // With a second factor on, no session yet: `{require_2fa: true}` and POST /api/user/login/2fa.
    return signIn(c, user)
  })
  // A GET for one-hub compatibility, but state-changing: the XSRF header is required (no logout by link).
  .get('/user/logout', publicRoute, requireXsrf, async (c) => {
    await destroySession(c)
    return ok(c, null, 'Logged out')
  })
  .post('/user/register', publicRoute, criticalRateLimit('register'), turnstile(), validate('json', registerSchema), async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    if (!settings.bool('RegisterEnabled')) throw forbidden('New registrations are closed by the administrator')
    if (!settings.bool('PasswordRegisterEnabled')) {
      throw forbidden('Registration with a password is disabled; use another sign-in method')
    }
    const body = c.req.valid('json')
    const email = body.email ?? ''
    if (settings.bool('EmailVerificationEnabled')) {
      if (!email) throw badRequest('email: is required', { fields: { email: 'is required' } })
      if (!body.verification_code || !(await consumeVerificationCode(c.env, 'register', email, body.verification_code))) {
        throw badRequest('Invalid or expired verification code', { fields: { verification_code: 'is invalid' } })
      }
    }
    if (email) assertEmailDomainAllowed(settings, email)
    const inviter = body.aff_code ? await findInviter(c.env, body.aff_code) : undefined
    const user = await createUser(c.env, { username: body.username, password: body.password, email, inviterId: inviter?.id })
    if (inviter) await countInvitee(c.env, inviter.id)
    // Rewards wait for a verified email or a first top-up (signup-rewards.ts), so throwaway accounts earn nothing.
    const capped = inviter ? !(await underDailyInviteCap(c.env, inviter.id, settings.int('InviteRewardDailyLimit'))) : true
    await holdSignupRewards(c.env, user.id, {
      newUser: settings.int('QuotaForNewUser'),
      invitee: inviter ? settings.int('QuotaForInvitee') : 0,
      inviterId: inviter?.id ?? 0,
      inviterReward: capped ? 0 : settings.int('QuotaForInviter'),
    })
    // With email verification on, the code above proved the address: pay at once.
    if (settings.bool('EmailVerificationEnabled')) await paySignupRewardsQuietly(c.env, user.id, { email })
    await applyDefaultPlan(c.env, settings, user.id)
    return ok(c, { id: user.id, username: user.username } satisfies RegisteredUser, 'Registered')
  })

/** The owner of an invite code; a disabled account invites nobody (and earns nothing). */
async function findInviter(env: Env, affCode: string) {
  const [row] = await createDb(env.DB)
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(and(eq(users.affCode, affCode), eq(users.status, USER_STATUS.ENABLED)))
    .limit(1)
  return row
}

/** Whether the inviter may still be rewarded today (InviteRewardDailyLimit invitees in 24 hours, this one included). */
async function underDailyInviteCap(env: Env, inviterId: number, limit: number): Promise<boolean> {
  if (limit <= 0) return false
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM users WHERE inviter_id = ? AND created_time > ?')
    .bind(inviterId, nowSeconds() - 86_400)
    .first<{ n: number }>()
  return (row?.n ?? 0) <= limit
}

/** The inviter's invite count (the reward itself is paid later, see signup-rewards.ts). */
async function countInvitee(env: Env, inviterId: number) {
  await createDb(env.DB)
    .update(users)
    .set({ affCount: sql`${users.affCount} + 1` })
    .where(eq(users.id, inviterId))
}
