/**
 * The Require2FAForAdmins policy: with it on, an administrator or root without a second factor is
 * refused on every admin route (403, code `2fa_setup_required`) until they turn one on in their
 * profile. Their own account routes (profile, 2FA setup, sign-out) are user routes and keep working,
 * and the console sends them to the profile on that code. Checked by access() for admin routes only.
 */
import type { Context } from 'hono'
import { ApiError } from '../lib/errors'
import { getSettings } from '../settings/store'
import type { HonoEnv, SessionUser } from '../env'
import { secondFactorRequired } from './second-factor'
import { ROLE } from '../../shared/contract/enums'

export const SETUP_REQUIRED_CODE = '2fa_setup_required'

export async function assertAdminSecondFactor(c: Context<HonoEnv>, user: SessionUser): Promise<void> {
  if (user.role < ROLE.ADMIN) return
  const settings = await getSettings(c.env, c.executionCtx)
  if (!settings.bool('Require2FAForAdmins')) return
  if (await secondFactorRequired(c.env, user.id)) return
  throw new ApiError(403, 'Turn on two-factor sign-in in your profile before using the admin pages', { code: SETUP_REQUIRED_CODE })
}
