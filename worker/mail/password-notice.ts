/**
 * Tells a user by mail that their password changed or was reset (issue 12), when the
 * PasswordChangeMailEnabled setting is on (default) and the account has an email and SMTP is set
 * up. The notice never fails the password change itself: a delivery problem is only logged.
 */
import { getSettings } from '../settings/store'
import { sendMail, smtpConfigured } from './mailer'
import { passwordChangedMail, type PasswordChange } from './templates'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'password-notice' })

export async function notifyPasswordChanged(env: Env, user: { username: string; email: string }, how: PasswordChange): Promise<void> {
  if (!user.email) return
  try {
    const settings = await getSettings(env)
    if (!settings.bool('PasswordChangeMailEnabled') || !smtpConfigured(settings)) return
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
    const site = settings.str('SystemName') || 'AI Gateway'
    await sendMail(env, { to: user.email, ...passwordChangedMail(site, user.username, how, when) }, settings)
  } catch (err) {
    serverLog.error('password notice not sent', { username: user.username, error: err })
  }
}
