/**
 * Measurement helpers for scripts/bench.mjs: an autocannon run that records every response time
 * (so p50/p95/p99 are exact), a sequential time-to-first-byte probe for streams, and RSS sampling
 * of the workerd processes.
 */
import { execFileSync } from 'node:child_process'
import autocannon from 'autocannon'

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, idx)]
}

export async function load({ url, connections, duration, headers, body }) {
  const times = []
  let errors = 0
  let non2xx = 0
  const instance = autocannon({ url, connections, duration, method: 'POST', headers, body, pipelining: 1 })
  instance.on('response', (_client, status, _bytes, responseTime) => {
    times.push(responseTime)
    if (status >= 300) non2xx++
  })
  instance.on('reqError', () => errors++)
  const result = await new Promise((resolve, reject) => instance.once('done', resolve).once('error', reject))
  times.sort((a, b) => a - b)
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    errors: errors + result.errors + result.timeouts + non2xx,
    /** 2xx answers received; requests cut off by the end of the run are not counted. */
    ok: times.length - non2xx,
  }
}

/** Time from sending a streaming request to its first body byte, over `n` sequential requests (ms, p50). */
export async function firstByte({ url, headers, body, n = 100 }) {
  const samples = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    const res = await fetch(url, { method: 'POST', headers, body })
    const reader = res.body.getReader()
    await reader.read()
    samples.push(performance.now() - started)
    await reader.cancel()
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

/** Sum of RSS (MB) of workerd processes; sampled in the background, peak kept. */
export function memorySampler() {
  let peak = 0
  const sample = () => {
    try {
      const out = execFileSync('ps', ['-C', 'workerd', '-o', 'rss='], { encoding: 'utf8' })
      const mb = out
        .split('\n')
        .map((l) => Number(l.trim()))
        .filter((n) => n > 0)
        .reduce((a, b) => a + b, 0) / 1024
      peak = Math.max(peak, mb)
    } catch {
      // no workerd running yet
    }
  }
  const timer = setInterval(sample, 250)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return Math.round(peak)
    },
  }
}
