/**
 * A console served from another origin (spec 7.1, one-hub's REACT_APP_SERVER): the Worker variable
 * `CONSOLE_ORIGINS` lists the exact origins (`https://console.example.com`, comma-separated) whose
 * pages may call this gateway. For those origins only, `/api` answers CORS with credentials (the
 * session cookie rides along) and exposes `X-XSRF-TOKEN`, the CSRF token the page cannot read from
 * this host's cookie (csrf.ts sends it to them); `/v1` answers CORS without credentials for the
 * playground, which authenticates with an API key. Any other origin gets no CORS headers, so the
 * browser keeps its answers from it. Unset (the default): nothing here runs, same origin only.
 *
 * The session and CSRF cookies stay `SameSite=Lax`, so the console must be on the same site as the
 * API (e.g. console.example.com and api.example.com); a console on another registrable domain is not
 * supported, on purpose (it would need `SameSite=None` session cookies).
 */
import { createMiddleware } from 'hono/factory'
import { cors } from 'hono/cors'
import type { MiddlewareHandler } from 'hono'
import type { HonoEnv } from '../env'
import { isConsoleOrigin } from '../lib/env'
import { XSRF_HEADER } from './csrf'

const HEADERS = ['Content-Type', 'Accept', XSRF_HEADER, 'Authorization']
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

const built = new Map<string, MiddlewareHandler>()

function corsFor(origin: string, credentials: boolean): MiddlewareHandler {
  const key = `${credentials ? 'c' : 'k'} ${origin}`
  let handler = built.get(key)
  if (!handler) {
    handler = cors({ origin, credentials, allowHeaders: HEADERS, allowMethods: METHODS, exposeHeaders: [XSRF_HEADER, 'X-Request-Id'], maxAge: 600 })
    built.set(key, handler)
  }
  return handler
}

/** `/api/*`: CORS with credentials for a listed console origin. */
export const consoleApiCors = createMiddleware<HonoEnv>(async (c, next) => {
  const origin = c.req.header('origin')
  if (!isConsoleOrigin(c.env, origin)) return next()
  return corsFor(origin, true)(c, next)
})

/** `/v1/*`: CORS without credentials for a listed console origin (the playground's key-authenticated calls). */
export const consoleRelayCors = createMiddleware<HonoEnv>(async (c, next) => {
  const origin = c.req.header('origin')
  // SDKs send no Origin: the relay's hot path returns here.
  if (origin === undefined || !isConsoleOrigin(c.env, origin)) return next()
  return corsFor(origin, false)(c, next)
})
