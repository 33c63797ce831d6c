/**
 * CSRF double-submit for cookie-authenticated calls: every /api response makes sure the browser
 * holds a readable `XSRF-TOKEN` cookie; every state-changing request without an `Authorization`
 * header must echo it in `X-XSRF-TOKEN`. Gateway callbacks (payment notify, Telegram webhook)
 * are exempt because they authenticate by signature.
 */
import { createMiddleware } from 'hono/factory'
import { getCookie, setCookie } from 'hono/cookie'
import { ApiError } from '../lib/errors'
import { randomString, safeEqual } from '../lib/crypto'
import type { HonoEnv } from '../env'

export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'X-XSRF-TOKEN'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const EXEMPT_PREFIXES = ['/api/payment/notify/', '/api/telegram/']

export const csrf = createMiddleware<HonoEnv>(async (c, next) => {
  const cookie = getCookie(c, XSRF_COOKIE)
  if (!cookie) {
    setCookie(c, XSRF_COOKIE, randomString(32), {
      path: '/',
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      httpOnly: false,
    })
  }
  const exempt =
    SAFE_METHODS.has(c.req.method) ||
    c.req.header('authorization') !== undefined ||
    EXEMPT_PREFIXES.some((p) => c.req.path.startsWith(p))
  if (!exempt) {
    const header = c.req.header(XSRF_HEADER)
    if (!cookie || !header || !safeEqual(cookie, header)) {
      throw new ApiError(403, 'CSRF token missing or invalid: reload the page and try again', { code: 'csrf' })
    }
  }
  await next()
})
