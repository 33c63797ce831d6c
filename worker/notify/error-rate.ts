/**
 * relay.error_rate: each frequent cron run reads the relay request counters merged from every
 * isolate (the MetricsStore behind /metrics), compares them with what the last run saw (KV) and
 * raises the alert when, since then, at least AlertErrorRateMinRequests requests were served and
 * AlertErrorRatePercent of them ended in a 5xx answer. The first run only records where the
 * counters stand. Requests an isolate has not flushed yet (at most 10 s) count in the next window.
 */
import { cacheKeys } from '../cache/keys'
import { metricsStore } from '../lib/metrics/recorder'
import { labelValues, type MetricsSnapshot } from '../lib/metrics/registry'
import { METRICS } from '../lib/metrics/catalogue'
import { getSettings } from '../settings/store'
import { emitNotice } from './emit'

interface Totals {
  at: number
  requests: number
  errors: number
}

const FAMILY = 'gateway_requests_total'
const CLASS_LABEL = METRICS[FAMILY].labels.indexOf('status_class')

/** Relay requests and those answered 5xx, summed over every series. */
export function relayTotals(snap: MetricsSnapshot): { requests: number; errors: number } {
  let requests = 0
  let errors = 0
  for (const [key, n] of Object.entries(snap.counters[FAMILY] ?? {})) {
    requests += n
    if (labelValues(key, METRICS[FAMILY].labels.length)[CLASS_LABEL] === '5xx') errors += n
  }
  return { requests, errors }
}

/** One check; returns the window it judged (undefined on the first look or after a counter reset). */
export async function checkErrorRate(env: Env, now = Date.now()): Promise<{ requests: number; errors: number; share: number } | undefined> {
  const seen = await env.CACHE.get<Totals>(cacheKeys.notifyErrorRateSeen, 'json')
  const current = { at: now, ...relayTotals(await metricsStore(env).snapshot()) }
  await env.CACHE.put(cacheKeys.notifyErrorRateSeen, JSON.stringify(current))
  if (!seen || current.requests < seen.requests || current.errors < seen.errors) return undefined
  const requests = current.requests - seen.requests
  const errors = current.errors - seen.errors
  const share = requests > 0 ? errors / requests : 0
  const settings = await getSettings(env)
  const percent = settings.int('AlertErrorRatePercent')
  if (requests >= settings.int('AlertErrorRateMinRequests') && share * 100 >= percent) {
    const minutes = Math.max(1, Math.round((now - seen.at) / 60_000))
    await emitNotice(env, {
      event: 'relay.error_rate',
      subject: 'relay',
      text: `${errors} of ${requests} relay requests (${(share * 100).toFixed(1)} %) ended in a 5xx answer in the last ${minutes} min (threshold ${percent} %)`,
      data: { requests, errors, share, window_seconds: Math.round((now - seen.at) / 1000), threshold_percent: percent },
    })
  }
  return { requests, errors, share }
}
