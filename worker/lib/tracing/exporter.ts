/**
 * The isolate's trace export over OTLP/HTTP with JSON encoding (POST `<OtlpEndpoint>/v1/traces`,
 * `content-type: application/json`, the OtlpHeaders on every call). Ended traces are queued here
 * (a bounded buffer: past MAX_BUFFER spans new ones are dropped and counted) and sent in batches in
 * some request's `waitUntil` — at once when the last export is older than the interval or a batch is
 * full, else when the interval is over — never on the response path (the pattern of the metrics
 * recorder, lib/metrics/recorder.ts). A failed export is dropped and counted, not retried: traces are
 * samples, not ledgers. JSON rather than protobuf: the collector accepts both, and JSON needs no
 * encoder in the bundle.
 */
import { onIsolateReset } from '../../cache/isolate'
import { config } from '../env'
import { parseOtlpHeaders } from '../../../shared/contract/otlp-headers'
import type { Attrs, SpanData } from './trace'
import { logger } from '../logger'

const serverLog = logger({ module: 'tracing' })

const SERVICE_NAME = 'edge-ai-gateway'
const SCOPE = 'edge-ai-gateway/relay'
/** Spans per POST. */
const MAX_BATCH = 512
/** Spans an isolate holds at most while exports are slow or failing. */
const MAX_BUFFER = 4096

export interface ExportTarget {
  endpoint: string
  /** The OtlpHeaders setting as stored. */
  headers: string
}

let target: ExportTarget | undefined
let buffer: SpanData[] = []
let flushEveryMs = 5_000
let lastFlush = 0
let pending: Promise<void> | undefined
let sending: Promise<void> | undefined
const stats = { exported: 0, dropped: 0, failed: 0, lastExportAt: 0, lastError: '' }

/** Where queued spans go (the settings of the request that started the trace; the latest wins). */
export function useExportTarget(next: ExportTarget) {
  if (target?.endpoint !== next.endpoint || target.headers !== next.headers) target = next
}

export const tracesUrl = (endpoint: string) => `${endpoint.trim().replace(/\/+$/, '')}/v1/traces`

/** Queue a finished trace's spans and schedule an export in `ctx.waitUntil`. */
export function queueSpans(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, spans: SpanData[]) {
  const room = MAX_BUFFER - buffer.length
  if (room < spans.length) stats.dropped += spans.length - Math.max(0, room)
  if (room > 0) buffer.push(...spans.slice(0, room))
  if (pending || buffer.length === 0) return
  const wait = buffer.length >= MAX_BATCH ? 0 : Math.max(0, lastFlush + flushEveryMs - Date.now())
  const run = wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : Promise.resolve()
  pending = run
    .then(() => {
      pending = undefined
      return flushTraces(env)
    })
    .catch(() => {
      pending = undefined
    })
  ctx.waitUntil(pending)
}

/** Send every queued span now, in batches (waits for an export in flight first). */
export async function flushTraces(env: Env): Promise<void> {
  if (sending) await sending
  if (buffer.length === 0 || !target?.endpoint) return
  lastFlush = Date.now()
  const spans = buffer
  buffer = []
  const to = target
  sending = (async () => {
    for (let i = 0; i < spans.length; i += MAX_BATCH) {
      const batch = spans.slice(i, i + MAX_BATCH)
      const result = await postSpans(env, to, batch)
      if (result.ok) {
        stats.exported += batch.length
        stats.lastExportAt = Date.now()
      } else {
        stats.failed += batch.length
        stats.lastError = result.error
        serverLog.error('trace export failed; spans dropped', { spans: batch.length, error: result.error })
      }
    }
  })().finally(() => {
    sending = undefined
  })
  await sending
}

/** POST one batch; never throws. `ms`: the round trip. */
export async function postSpans(env: Env, to: ExportTarget, spans: SpanData[]): Promise<{ ok: boolean; status: number; ms: number; error: string }> {
  const started = Date.now()
  const parsed = parseOtlpHeaders(to.headers)
  if (!parsed.ok) return { ok: false, status: 0, ms: 0, error: `OtlpHeaders ${parsed.message}` }
  try {
    const fetcher = env.DIRECT_NETWORK ?? { fetch: (req: Request) => fetch(req) }
    const res = await fetcher.fetch(
      new Request(tracesUrl(to.endpoint), {
        method: 'POST',
        headers: { ...parsed.headers, 'content-type': 'application/json' },
        body: JSON.stringify(encodeSpans(spans, config(env).appVersion)),
      })
    )
    // The collector's answer body is not needed (a partial-success note at most).
    await res.body?.cancel()
    const ms = Date.now() - started
    return res.ok ? { ok: true, status: res.status, ms, error: '' } : { ok: false, status: res.status, ms, error: `the collector answered ${res.status}` }
  } catch (err) {
    return { ok: false, status: 0, ms: Date.now() - started, error: err instanceof Error ? err.message : String(err) }
  }
}

// ---- OTLP/JSON encoding -----------------------------------------------------------------------

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean }

function anyValue(v: string | number | boolean): AnyValue {
  if (typeof v === 'string') return { stringValue: v }
  if (typeof v === 'boolean') return { boolValue: v }
  return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v }
}

const keyValues = (attrs: Attrs) => Object.entries(attrs).flatMap(([key, v]) => (v === undefined ? [] : [{ key, value: anyValue(v) }]))

/** Milliseconds since the epoch as OTLP's nanosecond string. */
const nanos = (ms: number) => `${Math.round(ms * 1000)}000`

/** The ExportTraceServiceRequest of `spans` (OTLP/JSON: hex ids, enums as numbers, 64-bit ints as strings). */
export function encodeSpans(spans: SpanData[], version: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues({ 'service.name': SERVICE_NAME, 'service.version': version, 'telemetry.sdk.language': 'js' }) },
        scopeSpans: [
          {
            scope: { name: SCOPE, version },
            spans: spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: nanos(s.start),
              endTimeUnixNano: nanos(s.end),
              attributes: keyValues(s.attributes),
              events: s.events.map((e) => ({ timeUnixNano: nanos(e.time), name: e.name, attributes: keyValues(e.attributes ?? {}) })),
              ...(s.status ? { status: s.status } : {}),
            })),
          },
        ],
      },
    ],
  }
}

/** This isolate's export counters (the system page shows them). */
export const exportStats = () => ({ ...stats, queued: buffer.length })

/** Tests only: the export interval. */
export function setTraceFlushInterval(ms: number) {
  flushEveryMs = ms
}

onIsolateReset(() => {
  target = undefined
  buffer = []
  lastFlush = 0
  pending = undefined
  sending = undefined
  Object.assign(stats, { exported: 0, dropped: 0, failed: 0, lastExportAt: 0, lastError: '' })
})
