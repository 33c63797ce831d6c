/**
 * TOTP two-factor routes, on new-api's paths: the account's own status, setup (secret, otpauth URI
 * and backup codes, shown once), enable / disable with a code, new backup codes; the second step of
 * sign-in (POST /api/user/login/2fa); and root's view and reset of an account's second factors (TOTP
 * and passkeys; the reset is audit-logged and mailed to the user when mail is set up). The secret is never sent again after setup, nor logged.
 * A TOTP or backup code also confirms a step-up (POST /api/user/step_up {code}, auth/step-up.ts).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { publicRoute, rootRoute, userRoute } from '../../middleware/access'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { badRequest, notFound } from '../../lib/errors'
import { clientIp } from '../../lib/client-ip'
import { ok } from '../../lib/respond'
import { idParam, validate } from '../../lib/validate'
import { getSettings } from '../../settings/store'
import { sendMail, smtpConfigured } from '../../mail/mailer'
import { twoFactorResetMail } from '../../mail/templates'
import { otpauthUri } from '../../lib/totp'
import type { HonoEnv } from '../../env'
import { registerStepUpVerifier } from '../../accounts/step-up'
import { auditLog } from '../../logs/audit-log'
import { assertRank } from '../../lib/rank'
import { getUser } from '../../accounts/users'
import type { AdminTwoFactorView } from '../../../shared/contract/two-factor'
import { passkeyCount, removeSecondFactors, secondFactorMethods, verifySecondFactor } from '../../accounts/second-factor'
import { confirmSetup, newBackupCodes, removeTwoFactor, startSetup, twoFactorEnabled, twoFactorStatus, useSecondFactorCode } from '../../accounts/two-factor.store'
import { logger } from '../../lib/logger'

const serverLog = logger({ module: 'two-factor' })

registerStepUpVerifier('totp', async (c, userId) =>
  (await twoFactorEnabled(c.env, userId)) ? async (proof) => 'code' in proof && useSecondFactorCode(c.env, userId, proof.code) : undefined
)

const codeSchema = z.object({ code: z.string().trim().min(6, 'is required').max(32) })

const wrongCode = () => badRequest('Wrong or already used code', { fields: { code: 'is wrong or already used' } })

/** The caller's code (TOTP or backup) must pass before 2FA is turned off or its backup codes replaced. */
async function requireOwnCode(c: Context<HonoEnv>, code: string) {
  const me = c.get('user')!
  if (!(await twoFactorEnabled(c.env, me.id))) throw badRequest('Two-factor sign-in is not on')
  if (!(await useSecondFactorCode(c.env, me.id, code))) throw wrongCode()
}

async function mailReset(env: Env, user: { username: string; email: string }) {
  if (!user.email) return
  try {
    const settings = await getSettings(env)
    if (!smtpConfigured(settings)) return
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
    await sendMail(env, { to: user.email, ...twoFactorResetMail(settings.str('SystemName') || 'AI Gateway', user.username, when) }, settings)
  } catch (err) {
    serverLog.error('2FA reset notice not sent', { username: user.username, error: err })
  }
}

export const twoFactorRoutes = new Hono<HonoEnv>()
  .get('/user/2fa/status', userRoute, async (c) => ok(c, await twoFactorStatus(c.env, c.get('user')!.id)))
  .post('/user/2fa/setup', userRoute, criticalRateLimit('2fa'), async (c) => {
    const me = c.get('user')!
    const { secret, backupCodes } = await startSetup(c.env, me.id)
    const settings = await getSettings(c.env, c.executionCtx)
    const uri = otpauthUri(settings.str('SystemName') || 'AI Gateway', me.username, secret)
    // new-api's field names: the console draws `qr_code_data` as a QR code.
    return ok(c, { secret, qr_code_data: uri, backup_codes: backupCodes }, 'Scan the QR code, then confirm with a code')
  })
  .post('/user/2fa/enable', userRoute, criticalRateLimit('2fa'), validate('json', codeSchema), async (c) => {
    if (!(await confirmSetup(c.env, c.get('user')!.id, c.req.valid('json').code))) throw wrongCode()
    return ok(c, await twoFactorStatus(c.env, c.get('user')!.id), 'Two-factor sign-in is on')
  })
  .post('/user/2fa/disable', userRoute, criticalRateLimit('2fa'), validate('json', codeSchema), async (c) => {
    await requireOwnCode(c, c.req.valid('json').code)
    await removeTwoFactor(c.env, c.get('user')!.id)
    return ok(c, await twoFactorStatus(c.env, c.get('user')!.id), 'Two-factor sign-in is off')
  })
  .post('/user/2fa/backup_codes', userRoute, criticalRateLimit('2fa'), validate('json', codeSchema), async (c) => {
    await requireOwnCode(c, c.req.valid('json').code)
    return ok(c, { backup_codes: await newBackupCodes(c.env, c.get('user')!.id) }, 'New backup codes; the old ones no longer work')
  })
  .post('/user/login/2fa', publicRoute, criticalRateLimit('login'), validate('json', codeSchema), async (c) => {
    const { code } = c.req.valid('json')
    return verifySecondFactor(c, (userId) => useSecondFactorCode(c.env, userId, code))
  })
  .get('/user/:id{[0-9]+}/2fa', rootRoute, validate('param', idParam), async (c) => {
    const target = await getUser(c.env, c.req.valid('param').id)
    if (!target) throw notFound('User not found')
    const [methods, passkeys] = await Promise.all([secondFactorMethods(c.env, target.id), passkeyCount(c.env, target.id)])
    return ok(c, { methods, passkeys } satisfies AdminTwoFactorView)
  })
  .delete('/user/:id{[0-9]+}/2fa', rootRoute, validate('param', idParam), async (c) => {
    const actor = c.get('user')!
    const target = await getUser(c.env, c.req.valid('param').id)
    if (!target) throw notFound('User not found')
    assertRank(actor, target)
    const methods = await secondFactorMethods(c.env, target.id)
    if (methods.length === 0) throw badRequest('This account has no two-factor sign-in')
    // Passkeys go too: they are a second factor (and a sign-in), and a lost one is why root resets.
    await removeSecondFactors(c.env, target.id)
    const removed = methods.join(', ')
    await auditLog(c.env, actor, target, `Two-factor sign-in of ${target.username} (${removed}) reset by ${actor.username}`, { action: '2fa_reset', methods }, clientIp(c.req))
    await mailReset(c.env, target)
    return ok(c, null, 'Two-factor sign-in reset')
  })
