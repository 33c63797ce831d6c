/**
 * The isolate's metric registry and its background flush to the one MetricsStore Durable Object
 * (durable-objects/metrics-store.ts), the pattern of the credit-lease reports: surfaces record with
 * a few Map operations (no await, no I/O), then call `flushSoon(env, ctx)`, which at most every
 * FLUSH_EVERY_MS sends everything recorded since the last flush in that request's `waitUntil`. A
 * flush that fails puts its snapshot back for the next one. The scrape (`GET /metrics`) flushes its
 * own isolate first and reads the store's merged state.
 */
import { onIsolateReset } from '../../cache/isolate'
import { MetricsRegistry } from './registry'
import { logger } from '../logger'

const serverLog = logger({ module: 'metrics' })

export const metrics = new MetricsRegistry()

/** How often an isolate sends its counts at most (10 s; tests set 0). */
let flushEveryMs = 10_000
let lastFlush = 0
/** The flush scheduled in some request's waitUntil, if any. */
let pending: Promise<void> | undefined
/** The merge call in flight, if any. */
let sending: Promise<void> | undefined

export const metricsStore = (env: Env) => env.METRICS_STORE.getByName('global')

/**
 * Schedule a flush of what was recorded, in `ctx.waitUntil`: at once when the last flush is older
 * than the interval, else when the interval is over. Cheap when one is already scheduled.
 */
export function flushSoon(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>) {
  if (pending || !metrics.dirty) return
  const wait = Math.max(0, lastFlush + flushEveryMs - Date.now())
  const run = wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : Promise.resolve()
  pending = run
    .then(() => {
      pending = undefined
      return flushMetrics(env)
    })
    .catch(() => {
      pending = undefined
    })
  ctx.waitUntil(pending)
}

/** Send everything recorded in this isolate to the store now (waits for a send in flight first). */
export async function flushMetrics(env: Env): Promise<void> {
  if (sending) await sending
  if (!metrics.dirty) return
  lastFlush = Date.now()
  const snap = metrics.take()
  sending = metricsStore(env)
    .merge(snap)
    .catch((err: unknown) => {
      metrics.restore(snap)
      serverLog.error('metrics flush failed; kept for the next one', { error: err })
    })
    .finally(() => {
      sending = undefined
    })
  await sending
}

/** Tests only: the flush interval. */
export function setMetricsFlushInterval(ms: number) {
  flushEveryMs = ms
}

onIsolateReset(() => {
  metrics.take()
  lastFlush = 0
  pending = undefined
  sending = undefined
})
