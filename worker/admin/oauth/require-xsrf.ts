/**
 * CSRF double-submit for state-changing GET calls (OAuth callbacks, account binding): a cookie
 * session must echo the XSRF-TOKEN cookie in X-XSRF-TOKEN, like POST calls do, so a link or a
 * top-level navigation cannot sign a browser into another account or bind an attacker's identity.
 * Calls authenticated by an access token in Authorization are exempt, as in middleware/csrf.ts.
 */
import { createMiddleware } from 'hono/factory'
import { ApiError } from '../../lib/errors'
import { safeEqual } from '../../lib/crypto'
import { XSRF_HEADER, xsrfCookie } from '../../middleware/csrf'
import type { HonoEnv } from '../../env'

export const requireXsrf = createMiddleware<HonoEnv>(async (c, next) => {
  if (c.req.header('authorization') === undefined) {
    const cookie = xsrfCookie(c)
    const header = c.req.header(XSRF_HEADER)
    if (!cookie || !header || !safeEqual(cookie, header)) {
      throw new ApiError(403, 'CSRF token missing or invalid: reload the page and try again', { code: 'csrf' })
    }
  }
  await next()
})
