/**
 * Identifies the caller of /api: the session cookie, or a personal access token in
 * `Authorization` (with or without "Bearer "). Sets `c.var.user` for enabled users only;
 * role checks happen in `access()`.
 */
import { createMiddleware } from 'hono/factory'
import { getCookie } from 'hono/cookie'
import { SESSION_COOKIE, userFromAccessToken, userFromSession } from '../accounts/session'
import type { HonoEnv } from '../env'

import { USER_STATUS } from '../../shared/contract/enums'

export const sessionAuth = createMiddleware<HonoEnv>(async (c, next) => {
  const authorization = c.req.header('authorization')
  if (authorization) {
    const token = authorization.replace(/^Bearer\s+/i, '').trim()
    const user = await userFromAccessToken(c.env, token)
    if (user && user.status === USER_STATUS.ENABLED) {
      c.set('user', user)
      c.set('authMethod', 'access_token')
    }
  } else {
    const sid = getCookie(c, SESSION_COOKIE)
    if (sid && sid.length <= 128) {
      const found = await userFromSession(c.env, sid)
      if (found && found.user.status === USER_STATUS.ENABLED) {
        c.set('user', found.user)
        c.set('authMethod', 'session')
        c.set('sessionId', found.session.id)
        c.set('stepUpAt', found.session.stepUpAt)
      }
    }
  }
  await next()
})
