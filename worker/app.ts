/**
 * Builds the Hono app: server-made request ids (and the request's logger, lib/logger.ts), security headers, the management API under /api, the relay,
 * the test clock (only with TEST_CLOCK=1) and the single error handler that renders `ApiError` in the envelope of each surface.
 */
import { Hono, type Context } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { adminApp } from './admin/admin.routes'
import { metricsScrapeApp } from './admin/metrics/scrape.routes'
import { legacyBillingApp, relayApp } from './relay/relay.routes'
import { geminiApp } from './relay/inbound/gemini/gemini.routes'
import { createMjApp, MJ_MODE_PREFIXES } from './tasks/midjourney/mj.routes'
import { createSunoApp } from './tasks/suno/suno.routes'
import { createKlingApp } from './tasks/kling/kling.routes'
import { mcpApp } from './mcp/mcp.routes'
import { ApiError, managementBody, openAIBody } from './lib/errors'
import { renderFailure } from './lib/error-handler'
import { requestLogger } from './lib/logger'
import type { HonoEnv } from './env'
import { setTestClockOffset } from './lib/clock'
import { validationError } from './lib/validate'
import { z } from 'zod'
import { csrf } from './middleware/csrf'
import { consoleApiCors, consoleRelayCors } from './middleware/console-cors'
import { sessionAuth } from './middleware/session-auth'
import { rootRoute } from './middleware/access'
import { config } from './lib/env'
import { isDraining } from './lib/self-hosted'

/** The test clock's offset: a bounded integer of milliseconds (a year either way). */
const testClockBody = z.object({ offset_ms: z.number().int().min(-31_536_000_000).max(31_536_000_000).default(0) })

const isRelayPath = (path: string) => path.startsWith('/v1') || path.startsWith('/dashboard') || path === '/mcp' || path.startsWith('/mcp/')

/** /api answers in the management envelope, the relay paths in OpenAI's. */
const appEnvelope = (e: ApiError, c: Context<HonoEnv>) => c.json(isRelayPath(c.req.path) ? openAIBody(e, c.get('requestId')) : managementBody(e, c.get('requestId')), e.status)

// A refusal while the server stops (lib/self-hosted.ts) is expected, not an error to log.
const appLogged = { logged: (e: ApiError) => e.code !== 'server_restarting' }

export function renderError(c: Context<HonoEnv>, err: unknown) {
  return renderFailure(c, err, appEnvelope, appLogged)
}

function stampRelayHeaders(c: Context<HonoEnv>, id: string) {
  const stamp = (headers: Headers) => {
    headers.set('X-Request-Id', id)
    headers.set('X-Content-Type-Options', 'nosniff')
  }
  try {
    stamp(c.res.headers)
  } catch {
    // An answer with immutable headers (a fetch() response passed through): answer a copy. Clearing
    // c.res first keeps Hono's setter from merging the old answer into a further copy.
    const copy = new Response(c.res.body, c.res)
    stamp(copy.headers)
    c.res = undefined
    c.res = copy
  }
}

export function createApp() {
  const app = new Hono<HonoEnv>()
  const apiSecurityHeaders = secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
  })
  // Request ids are always made here (they key wallet reservations); a client's own X-Request-Id
  // is only echoed into the log row as client_request_id. Relay answers are API payloads read by
  // SDKs, never rendered: they carry nosniff only, not the page policies (one header instead of ten
  // on the hot path); everything else gets the full set.
  app.use(async (c, next) => {
    const id = crypto.randomUUID()
    c.set('requestId', id)
    c.set('log', requestLogger(id))
    c.header('X-Request-Id', id)
    if (isDraining()) throw new ApiError(503, 'The server is restarting; try again in a few seconds.', { code: 'server_restarting', headers: { 'retry-after': '5' } })
    if (!isRelayPath(c.req.path)) return apiSecurityHeaders(c, next)
    c.header('X-Content-Type-Options', 'nosniff')
    await next()
    // Relay handlers answer with Response objects of their own, which Hono returns as they are
    // (c.header() reaches only the answers Hono builds), so the two headers go on the answer here.
    stampRelayHeaders(c, id)
  })
  // Test-only, root only: moves the limits' and budgets' clock (lib/clock.ts); 404 unless the TEST_CLOCK var is "1".
  app.post('/api/test/clock', csrf, sessionAuth, rootRoute, async (c) => {
    if (!config(c.env).testClock) throw new ApiError(404, `Not found: ${c.req.method} ${c.req.path}`)
    const parsed = testClockBody.safeParse(await c.req.json().catch(() => undefined))
    if (!parsed.success) throw validationError(parsed.error)
    const offset = parsed.data.offset_ms
    setTestClockOffset(c.env, offset)
    return c.json({ success: true, message: '', data: { offset_ms: offset, now: Date.now() + offset } })
  })
  app.use('/api/*', consoleApiCors)
  app.use('/v1/*', consoleRelayCors)
  app.route('/api', adminApp)
  app.route('/metrics', metricsScrapeApp)
  app.route('/v1', relayApp)
  app.route('/v1beta', geminiApp)
  app.route('/dashboard', legacyBillingApp)
  // Asynchronous tasks: midjourney-proxy (with its speed-mode prefixes), Suno and Kling, in their own envelopes.
  const mj = createMjApp()
  app.route('/mj', mj)
  for (const prefix of MJ_MODE_PREFIXES) app.route(`/${prefix}/mj`, mj)
  app.route('/suno', createSunoApp())
  app.route('/kling', createKlingApp())
  // The MCP gateway (Streamable HTTP), authenticated by API keys like the relay.
  app.route('/mcp', mcpApp)
  app.notFound((c) => renderError(c, new ApiError(404, `Not found: ${c.req.method} ${c.req.path}`, { code: 'route_not_found' })))
  app.onError((err, c) => renderError(c, err))
  return app
}

export const app = createApp()
