/**
 * Measurement helpers for scripts/bench.mjs: an autocannon run that records every response time
 * (so p50/p95/p99 are exact), a sequential time-to-first-byte probe for streams, the process that
 * listens on a port (other helpers' workerd processes share the machine), its CPU time from the
 * kernel's own accounting, and RSS sampling of that process.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs'
import autocannon from 'autocannon'

export function percentile(sorted, p) {
  if (sorted.length === 0) return 0
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)
  return sorted[Math.max(0, idx)]
}

/** `timeout`: seconds before autocannon gives up on one request (default 5). */
export async function load({ url, connections, duration, amount, headers, body, timeout = 5 }) {
  const times = []
  let errors = 0
  let non2xx = 0
  const instance = autocannon({ url, connections, ...(amount ? { amount } : { duration }), timeout, method: 'POST', headers, body, pipelining: 1 })
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

/**
 * Time from sending a streaming request to its first body byte, over `n` sequential requests (ms,
 * p50/p95). A request without a first byte within `timeoutMs` counts as a failure, not a sample.
 */
export async function firstByte({ url, headers, body, n = 100, timeoutMs = 3000 }) {
  const samples = []
  let failures = 0
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    try {
      const res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) })
      const reader = res.body.getReader()
      await reader.read()
      samples.push(performance.now() - started)
      await reader.cancel()
    } catch {
      failures++
    }
  }
  samples.sort((a, b) => a - b)
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), failures }
}

/** The pid of the process listening on TCP `port` of this machine (Linux /proc), or undefined. */
export function pidListeningOn(port) {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const inodes = new Set()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = ''
    try {
      text = readFileSync(table, 'utf8')
    } catch {
      continue
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/)
      // local_address is ADDR:PORT in hex; state 0A is LISTEN.
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') inodes.add(f[9])
    }
  }
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let fds = []
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/)
        if (m && inodes.has(m[1])) return Number(pid)
      } catch {
        // fd closed meanwhile
      }
    }
  }
  return undefined
}

/** User + system CPU time of a process so far, in ms (all its threads; /proc/<pid>/stat, 100 ticks/s). */
export function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}

/** RSS (MB) of the given processes, sampled in the background, peak kept. */
export function memorySampler(pids) {
  let peak = 0
  const sample = () => {
    let kb = 0
    for (const pid of pids) {
      try {
        kb += Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0)
      } catch {
        // gone
      }
    }
    peak = Math.max(peak, kb / 1024)
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
