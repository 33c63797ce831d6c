#!/usr/bin/env node
/**
 * `npm run bench:stream`: CPU per stream request as a function of answer length. The mock upstream
 * streams N content events (a `bench-events-<N>` prompt, one event per write, N = 16, 256, 2,048)
 * to the bare pass-through Worker and to the gateway, for three paths:
 *  - chat: OpenAI client, OpenAI-compatible channel (the same-format pass-through);
 *  - openai→anthropic: OpenAI channel, Anthropic /v1/messages client (the answer is converted);
 *  - anthropic→openai: Anthropic channel, OpenAI chat client (the answer is converted);
 *  - anthropic (pass-through): Anthropic channel, Anthropic /v1/messages client (the supplier's bytes,
 *    inbound/anthropic/stream-pass.ts). Gemini → Gemini is not here: the mock paces no Gemini stream.
 * The bare Worker forwards the same upstream stream (OpenAI for chat, Anthropic for the others).
 * CPU is the serving workerd process's user + system time from /proc/<pid>/stat over a fixed
 * number of requests at c=4, idle drift subtracted; medians of alternating rounds (order rotated).
 * The marginal cost per event is the least-squares slope of CPU per request over N.
 * Options (env): BENCH_ROUNDS (default 3), BENCH_SCALE_OUT (write the medians as JSON there), BENCH_PATHS
 * (comma-separated path names to measure, e.g. `openai→anthropic`; default all), BENCH_PLUMBING=1 (also
 * measure two Workers that do none of the gateway's work, on the bare Worker's requests: `js pull`, the
 * gateway's stream shape — every upstream read enqueued by a JavaScript pull loop — and `tee scan`,
 * the runtime piping one tee() branch to the client while JavaScript scans the other in batches of at
 * least 4 KiB; scripts/bench/plumbing/).
 */
import { writeFileSync } from 'node:fs'
import { startMockUpstream } from './mock-upstream.mjs'
import { startPassthrough } from './bench/passthrough.mjs'
import { cpuMs, load } from './bench/measure.mjs'
import { MODEL, startBenchGateway } from './bench/gateway.mjs'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const LENGTHS = [16, 256, 2048]
/** Requests per cell: fewer for long answers, so every cell streams a comparable number of events. */
const REQUESTS = { 16: 400, 256: 120, 2048: 24 }
const CLAUDE = 'claude-bench-scale'
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

const prompt = (n) => [{ role: 'user', content: `bench-events-${n}` }]
const ALL_PATHS = [
  {
    name: 'chat (pass-through)',
    bare: (n) => ({ path: '/v1/chat/completions', body: { model: MODEL, messages: prompt(n), stream: true, stream_options: { include_usage: true } } }),
    gateway: (n) => ({ path: '/v1/chat/completions', body: { model: MODEL, messages: prompt(n), stream: true, stream_options: { include_usage: true } } }),
  },
  {
    name: 'openai→anthropic',
    bare: (n) => ({ path: '/v1/messages', body: { model: MODEL, max_tokens: 4096, messages: prompt(n), stream: true } }),
    gateway: (n) => ({ path: '/v1/messages', body: { model: MODEL, max_tokens: 4096, messages: prompt(n), stream: true } }),
  },
  {
    name: 'anthropic→openai',
    bare: (n) => ({ path: '/v1/messages', body: { model: CLAUDE, max_tokens: 4096, messages: prompt(n), stream: true } }),
    gateway: (n) => ({ path: '/v1/chat/completions', body: { model: CLAUDE, max_tokens: 4096, messages: prompt(n), stream: true } }),
  },
  {
    name: 'anthropic (pass-through)',
    bare: (n) => ({ path: '/v1/messages', body: { model: CLAUDE, max_tokens: 4096, messages: prompt(n), stream: true } }),
    gateway: (n) => ({ path: '/v1/messages', body: { model: CLAUDE, max_tokens: 4096, messages: prompt(n), stream: true } }),
  },
]
const PLUMBING = process.env.BENCH_PLUMBING === '1'
const only = process.env.BENCH_PATHS?.split(',').map((p) => p.trim())
const PATHS = only ? ALL_PATHS.filter((p) => only.includes(p.name)) : ALL_PATHS

/** CPU ms per request of `target` for one request shape (fixed count at c=4, idle drift subtracted). */
async function cpuPerRequest(target, shape, amount) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${target.key}` }
  const url = target.url + shape.path
  // One warm-up request (first use of a path compiles its code).
  await load({ url, connections: 1, amount: 1, headers, body: JSON.stringify(shape.body), timeout: 120 })
  const before = cpuMs(target.pid)
  await sleep(1000)
  const idle = cpuMs(target.pid) - before
  const start = cpuMs(target.pid)
  const r = await load({ url, connections: 4, amount, headers, body: JSON.stringify(shape.body), timeout: 120 })
  // The gateway settles each request in the background: its CPU counts too.
  await sleep(1000)
  const used = cpuMs(target.pid) - start - idle
  if (r.ok < amount || r.errors) console.warn(`  ${target.name} ${shape.path}: ${r.ok} of ${amount} answered, ${r.errors} errors`)
  return used / amount
}

/** Least-squares slope of y over x. */
function slope(xs, ys) {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length
  const my = ys.reduce((a, b) => a + b, 0) / ys.length
  let num = 0
  let den = 0
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my)
    den += (xs[i] - mx) ** 2
  }
  return num / den
}

const bar = (value, scale) => '█'.repeat(Math.max(0, Math.round(value * scale)))

async function main() {
  const mock = await startMockUpstream({ port: 0 })
  const bare = await startPassthrough(mock.url)
  const gw = await startBenchGateway(mock.url, {
    setup: async (call) => {
      await call('POST', '/api/prices/single', { model: CLAUDE, type: 'tokens', channel_type: 14, input: 0.075, output: 0.3 })
      await call('POST', '/api/channel/', { type: 14, name: 'anthropic-bench', key: 'bench-anthropic', base_url: mock.url, models: [CLAUDE], group: ['default'] })
    },
  })
  const targets = [
    { name: 'bare', url: bare.url, pid: bare.pid, key: 'bench-bare' },
    { name: 'gateway', url: gw.url, pid: gw.pid, key: gw.keys.fast },
  ]
  const extra = []
  if (PLUMBING) {
    extra.push(await startPassthrough(mock.url, { name: 'js-pull', script: 'scripts/bench/plumbing/js-pull-worker.js' }))
    extra.push(await startPassthrough(mock.url, { name: 'tee-scan', script: 'scripts/bench/plumbing/tee-scan-worker.js', bindings: { SCAN_BYTES: '4096' } }))
    targets.push({ name: 'js pull', url: extra[0].url, pid: extra[0].pid, key: 'bench-bare', shape: 'bare' })
    targets.push({ name: 'tee scan', url: extra[1].url, pid: extra[1].pid, key: 'bench-bare', shape: 'bare' })
  }
  const samples = {}
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...targets].reverse() : targets
      for (const p of PATHS) {
        for (const n of round % 2 ? [...LENGTHS].reverse() : LENGTHS) {
          for (const t of order) {
            const ms = await cpuPerRequest(t, p[t.shape ?? t.name](n), REQUESTS[n])
            const key = `${p.name}|${t.name}|${n}`
            ;(samples[key] ??= []).push(ms)
            console.log(`round ${round + 1}/${ROUNDS} ${p.name} ${t.name} N=${n}: ${ms.toFixed(3)} ms CPU / request`)
          }
        }
      }
    }
  } finally {
    await gw.stop()
    for (const w of extra) await w.stop()
    await bare.stop()
    await mock.stop()
  }
  const rows = []
  for (const p of PATHS) {
    for (const t of targets) {
      const ms = LENGTHS.map((n) => median(samples[`${p.name}|${t.name}|${n}`]))
      rows.push({ path: p.name, target: t.name, ms, usPerEvent: slope(LENGTHS, ms) * 1000 })
    }
  }
  const out = ['| path | target | CPU ms / request at N = 16 / 256 / 2,048 | µs per event (slope) | − bare (µs/event) |', '|---|---|---|---|---|']
  for (const r of rows) {
    const b = rows.find((x) => x.path === r.path && x.target === 'bare')
    const added = r.target !== 'bare' ? (r.usPerEvent - b.usPerEvent).toFixed(2) : ''
    out.push(`| ${r.path} | ${r.target} | ${r.ms.map((m) => m.toFixed(3)).join(' / ')} | ${r.usPerEvent.toFixed(2)} | ${added} |`)
  }
  const top = Math.max(...rows.map((r) => r.usPerEvent))
  out.push('', '```', 'µs of CPU per event (slope)')
  for (const r of rows) out.push(`${`${r.path}, ${r.target}`.padEnd(34)} ${bar(r.usPerEvent, 40 / top).padEnd(40)} ${r.usPerEvent.toFixed(2)}`)
  out.push('```')
  console.log(`\n${out.join('\n')}`)
  if (process.env.BENCH_SCALE_OUT) writeFileSync(process.env.BENCH_SCALE_OUT, JSON.stringify({ rounds: ROUNDS, samples, rows }, null, 2))
}

await main()
process.exit(0)
