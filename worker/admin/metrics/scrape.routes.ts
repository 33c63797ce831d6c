/**
 * GET /metrics: the Prometheus scrape. Authorised by `Authorization: Bearer <MetricsToken>` (a
 * write-only root setting): 404 while no token is set, 401 without the right one. Flushes this
 * isolate's own counts first, then renders the MetricsStore's merged state (every isolate's
 * flushed counts) with the gauges read now (scrape-gauges.ts).
 */
import { Hono } from 'hono'
import type { HonoEnv } from '../../env'
import { safeEqual } from '../../lib/crypto'
import { ApiError } from '../../lib/errors'
import { flushMetrics, metricsStore } from '../../lib/metrics/recorder'
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from '../../lib/metrics/render'
import { getSettings } from '../../settings/store'
import { scrapeGauges } from './scrape-gauges'

export const metricsScrapeApp = new Hono<HonoEnv>()

metricsScrapeApp.get('/', async (c) => {
  const token = (await getSettings(c.env, c.executionCtx)).str('MetricsToken')
  if (!token) throw new ApiError(404, `Not found: ${c.req.method} ${c.req.path}`, { code: 'route_not_found' })
  const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim() ?? ''
  if (!given || !safeEqual(given, token)) {
    throw new ApiError(401, 'A valid metrics token is required (Authorization: Bearer <MetricsToken>).', {
      code: 'unauthorized',
      headers: { 'www-authenticate': 'Bearer realm="metrics"' },
    })
  }
  await flushMetrics(c.env)
  const [snap, gauges] = await Promise.all([metricsStore(c.env).snapshot(), scrapeGauges(c.env)])
  return c.body(renderPrometheus(snap, gauges), 200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' })
})
