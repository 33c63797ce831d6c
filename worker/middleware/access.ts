/**
 * Role enforcement for /api. Every route declares its minimum role with `access(ROLE.X)`;
 * the middleware answers 401 to anonymous callers and 403 to lower roles, and on admin routes
 * applies the Require2FAForAdmins policy (accounts/two-factor-policy.ts). The role is attached to
 * the middleware function so the authorization test can walk the route table and prove that every
 * /api route declared one.
 */
import { createMiddleware } from 'hono/factory'
import type { MiddlewareHandler } from 'hono'
import { forbidden, unauthorized } from '../lib/errors'
import type { HonoEnv } from '../env'
import { assertAdminSecondFactor } from '../accounts/two-factor-policy'
import { ROLE, type Role } from '../../shared/contract/enums'

export const ACCESS_ROLE = Symbol('access-role')

export type AccessMiddleware = MiddlewareHandler<HonoEnv> & { [ACCESS_ROLE]: Role }

export function access(role: Role): AccessMiddleware {
  const mw = createMiddleware<HonoEnv>(async (c, next) => {
    if (role > ROLE.GUEST) {
      const user = c.get('user')
      if (!user) throw unauthorized()
      if (user.role < role) throw forbidden()
      if (role >= ROLE.ADMIN) await assertAdminSecondFactor(c, user)
    }
    await next()
  }) as AccessMiddleware
  mw[ACCESS_ROLE] = role
  return mw
}

export const publicRoute = access(ROLE.GUEST)
export const userRoute = access(ROLE.USER)
export const adminRoute = access(ROLE.ADMIN)
export const rootRoute = access(ROLE.ROOT)
