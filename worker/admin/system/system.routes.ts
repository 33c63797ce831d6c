/**
 * The root system page's API: GET /api/system/ (system.service.ts) and POST /api/system/otlp-test,
 * which sends one test span to the saved OtlpEndpoint with the saved OtlpHeaders and says what the
 * collector answered. Root only (server-enforced; administrators get 403).
 */
import { Hono } from 'hono'
import { rootRoute } from '../../middleware/access'
import { badRequest } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { getSettings } from '../../settings/store'
import { postSpans } from '../../lib/tracing/exporter'
import { newSpanId, newTraceId } from '../../lib/tracing/trace-context'
import { SpanKind } from '../../lib/tracing/trace'
import type { HonoEnv } from '../../env'
import { systemReport } from './system.service'
import type { OtlpTestResult } from '../../../shared/contract/system'

export const systemRoutes = new Hono<HonoEnv>()
  .get('/system/', rootRoute, async (c) => ok(c, await systemReport(c.env, await getSettings(c.env, c.executionCtx))))
  .post('/system/otlp-test', rootRoute, async (c) => {
    const settings = await getSettings(c.env, c.executionCtx)
    const endpoint = settings.str('OtlpEndpoint')
    if (!endpoint) throw badRequest('Set OtlpEndpoint first')
    const now = Date.now()
    const traceId = newTraceId()
    const span = {
      traceId,
      spanId: newSpanId(),
      name: 'gateway.test',
      kind: SpanKind.INTERNAL,
      start: now,
      end: now,
      attributes: { 'gateway.test': true, 'gateway.request_id': c.get('requestId') },
      events: [],
    }
    const result = await postSpans(c.env, { endpoint, headers: settings.str('OtlpHeaders') }, [span])
    return ok(c, { ...result, trace_id: traceId } satisfies OtlpTestResult)
  })
