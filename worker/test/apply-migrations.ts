/**
 * Per-test fresh install: wipe every binding, restart Durable Objects, apply the real migrations/
 * and clear isolate caches, so each test sees an empty gateway.
 */
import { abortAllDurableObjects, applyD1Migrations, reset } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeEach } from 'vitest'
import { resetIsolateState } from '../cache/isolate'
import { setMetricsFlushInterval } from '../lib/metrics/recorder'

// Metrics flush at once in tests, so waiting for a request's waitUntil never waits out the 10 s interval.
setMetricsFlushInterval(0)

beforeEach(async () => {
  await reset()
  await abortAllDurableObjects()
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  resetIsolateState()
})
