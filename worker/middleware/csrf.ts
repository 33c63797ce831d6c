/**
 * CSRF double-submit for cookie-authenticated calls: every /api response makes sure the browser
 * holds a readable `XSRF-TOKEN` cookie; every state-changing request without an `Authorization`
 * header must echo it in `X-XSRF-TOKEN`. Gateway callbacks (payment notify, Telegram webhook)
 * are exempt because they authenticate by signature. Over https the cookie is `__Host-XSRF-TOKEN`
 * (Secure, Path=/, no Domain), so a sibling subdomain cannot plant a value of its own (cookie tossing).
 * A console on another origin listed in CONSOLE_ORIGINS cannot read this host's cookie: its
 * answers carry the token in the `X-XSRF-TOKEN` header instead (exposed by console-cors.ts only to
 * those origins), and the page echoes it the same way.
 */
import { createMiddleware } from 'hono/factory'
import { getCookie, setCookie } from 'hono/cookie'
import { ApiError } from '../lib/errors'
import { randomString, safeEqual } from '../lib/crypto'
import type { Context } from 'hono'
import type { HonoEnv } from '../env'
import { isConsoleOrigin } from '../lib/env'

export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_COOKIE_HTTPS = '__Host-XSRF-TOKEN'
export const XSRF_HEADER = 'X-XSRF-TOKEN'

const isHttps = (c: Context) => new URL(c.req.url).protocol === 'https:'

/** The XSRF cookie of this request's scheme (`__Host-` prefixed over https). */
export const xsrfCookie = (c: Context) => getCookie(c, isHttps(c) ? XSRF_COOKIE_HTTPS : XSRF_COOKIE)
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const EXEMPT_PREFIXES = ['/api/payment/notify/', '/api/telegram/']

export const csrf = createMiddleware<HonoEnv>(async (c, next) => {
  const cookie = xsrfCookie(c)
  let token = cookie
  if (!cookie) {
    const https = isHttps(c)
    token = randomString(32)
    // Hono's `prefix: 'host'` names it __Host-XSRF-TOKEN and forces Secure, Path=/ and no Domain.
    setCookie(c, XSRF_COOKIE, token, {
      path: '/',
      sameSite: 'Lax',
      secure: https,
      httpOnly: false,
      ...(https ? { prefix: 'host' as const } : {}),
    })
  }
  if (isConsoleOrigin(c.env, c.req.header('origin'))) c.header(XSRF_HEADER, token)
  const exempt = SAFE_METHODS.has(c.req.method) || c.req.header('authorization') !== undefined || EXEMPT_PREFIXES.some((p) => c.req.path.startsWith(p))
  if (!exempt) {
    const header = c.req.header(XSRF_HEADER)
    if (!cookie || !header || !safeEqual(cookie, header)) {
      throw new ApiError(403, 'CSRF token missing or invalid: reload the page and try again', { code: 'csrf' })
    }
  }
  await next()
})
