/**
 * Email flows: verification codes for registration and email binding (60-second resend guard),
 * the password-reset link and its completion (a new random password, other sessions ended), and
 * binding an email to the signed-in account with a code.
 */
import { Hono } from 'hono'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { users } from '../../db/schema'
import { publicRoute, userRoute } from '../../middleware/access'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { turnstile } from '../../middleware/turnstile'
import { ApiError, badRequest, conflict } from '../../lib/errors'
import { hashPassword, randomString } from '../../lib/crypto'
import { sendMail, smtpConfigured, smtpNotConfigured } from '../../mail/mailer'
import { ok } from '../../lib/respond'
import { accepting, validate } from '../../lib/validate'
import { getSettings } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { assertEmailDomainAllowed, claimSendSlot, CODE_TTL_SECONDS, consumeVerificationCode, issueVerificationCode } from '../auth/verification'
import { revokeCredentials } from '../../accounts/session'
import { getUser, profileOf } from '../../accounts/users'
import { bindToUser, findUserByBinding } from '../oauth/accounts'
import { requireXsrf } from '../oauth/require-xsrf'
import { paySignupRewardsQuietly } from '../../billing/signup-rewards'
import { notifyPasswordChanged } from '../../mail/password-notice'
import { consumeResetToken, issueResetToken, RESET_TTL_SECONDS } from '../../mail/password-reset'
import { siteBaseUrl } from '../../settings/site-url'
import { passwordResetMail, verificationMail } from '../../mail/templates'
import { USER_STATUS } from '../../../shared/contract/enums'
import type { ResetConfirmBody, ResetRequest, VerificationRequest } from '../../../shared/contract/auth'

const email = z.email('must be a valid email').max(254, 'is too long')
const verificationQuery = accepting<VerificationRequest>()(z.object({ email, purpose: z.enum(['register', 'bind']).default('register') }))
const resetRequestQuery = accepting<ResetRequest>()(z.object({ email }))
const resetSchema = accepting<ResetConfirmBody>()(z.object({ email: z.string().trim().min(1, 'is required').max(254), token: z.string().trim().min(1, 'is required').max(128) }))
const emailBindQuery = z.object({ email, code: z.string().trim().min(1, 'is required').max(20) })

const NEW_PASSWORD_LENGTH = 16
const INVALID_LINK = 'Invalid link'

export const mailRoutes = new Hono<HonoEnv>()
  .get('/verification', publicRoute, criticalRateLimit('verification'), turnstile(), validate('query', verificationQuery), async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    if (!smtpConfigured(settings)) throw smtpNotConfigured()
    const { email: address, purpose } = c.req.valid('query')
    assertEmailDomainAllowed(settings, address)
    // Same answer whether or not the address is taken (no account enumeration); a taken address gets
    // no code, and registering or binding it is refused later anyway.
    if (await findUserByBinding(c.env, 'email', address, c.get('user')?.id)) return ok(c, null, 'Verification code sent')
    const slot = await claimSendSlot(c.env, address)
    try {
      const code = await issueVerificationCode(c.env, purpose, address)
      await sendMail(c.env, { to: address, ...verificationMail(settings.str('SystemName'), code, CODE_TTL_SECONDS / 60) }, settings)
    } catch (err) {
      await slot.release()
      throw err
    }
    return ok(c, null, 'Verification code sent')
  })
  .get('/reset_password', publicRoute, criticalRateLimit('reset'), turnstile(), validate('query', resetRequestQuery), async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    if (!smtpConfigured(settings)) throw smtpNotConfigured()
    const address = c.req.valid('query').email
    const holder = await findUserByBinding(c.env, 'email', address)
    const user = holder ? await getUser(c.env, holder.id) : undefined
    // Same answer whether or not the address belongs to an account; a repeat within 60 s is dropped silently.
    if (user && user.status === USER_STATUS.ENABLED) {
      const slot = await claimSendSlot(c.env, `reset:${address}`).catch((err) => {
        if (err instanceof ApiError && err.status === 429) return undefined
        throw err
      })
      if (slot) {
        const token = await issueResetToken(c.env, user.id, address)
        const link = `${siteBaseUrl(c, settings)}/user/reset?email=${encodeURIComponent(address)}&token=${token}`
        try {
          await sendMail(c.env, { to: address, ...passwordResetMail(settings.str('SystemName'), link, RESET_TTL_SECONDS / 60) }, settings)
        } catch (err) {
          await slot.release()
          throw err
        }
      }
    }
    return ok(c, null, 'If the email belongs to an account, a password reset link has been sent')
  })
  .post('/user/reset', publicRoute, criticalRateLimit('reset'), validate('json', resetSchema), async (c) => {
    const { email: address, token } = c.req.valid('json')
    const userId = await consumeResetToken(c.env, address, token)
    if (!userId) throw badRequest(INVALID_LINK)
    const user = await getUser(c.env, userId)
    if (!user || user.status !== USER_STATUS.ENABLED) throw badRequest(INVALID_LINK)
    const password = randomString(NEW_PASSWORD_LENGTH)
    await createDb(c.env.DB)
      .update(users)
      .set({ password: await hashPassword(password) })
      .where(eq(users.id, userId))
    await revokeCredentials(c.env, userId)
    await notifyPasswordChanged(c.env, user, 'reset')
    return ok(c, password, 'Password reset; sign in with the new password and change it in your profile')
  })
  .get('/oauth/email/bind', userRoute, criticalRateLimit('bind'), requireXsrf, validate('query', emailBindQuery), async (c) => {
    const me = c.get('user')!
    const { email: address, code } = c.req.valid('query')
    const settings = await getSettings(c.env, c.executionCtx)
    assertEmailDomainAllowed(settings, address)
    if (await findUserByBinding(c.env, 'email', address, me.id)) throw conflict('This email is already bound to another account')
    if (!(await consumeVerificationCode(c.env, 'bind', address, code))) {
      throw badRequest('Invalid or expired verification code', { fields: { code: 'is invalid or expired' } })
    }
    const bound = await bindToUser(c.env, me.id, 'email', address)
    // A verified address releases the held sign-up rewards, once per mailbox (signup-rewards.ts).
    await paySignupRewardsQuietly(c.env, me.id, { email: address })
    return ok(c, profileOf((await getUser(c.env, me.id)) ?? bound), 'Email bound')
  })
