#!/usr/bin/env node
/**
 * `npm run bench:gateway-cpu` (issue 37, "gateway CPU, not the process"): the gateway's own CPU per
 * request next to the bare Worker's. `npm run bench` reads the CPU of the gateway's workerd process,
 * which also runs the wallet and the other Durable Objects, D1's SQLite and KV. Here the gateway is
 * split over two workerd processes (bench/split-gateway.mjs): the Durable Objects, D1, KV and R2 in
 * a state process, the gateway Worker alone in the serving process. The serving process's user +
 * system time (/proc/<pid>/stat) over a fixed number of requests is then the gateway isolate plus
 * the runtime's I/O around it (client socket, upstream fetch, the RPCs to the state process and
 * Miniflare's dev-registry proxy worker that forwards them), and the state process's time is what
 * moved out. For reference the one-process gateway of `npm run bench` is measured in the same
 * rounds. Non-stream chat (`max_tokens` 32) and 16-event streams (`bench-events-16` prompt,
 * include_usage), 0 ms mock, c = 8 by default; targets take turns, order rotated every round; the
 * ratio is the median of each round's gateway / bare ratio. Writes the "gateway-cpu" block of
 * BENCHMARKS.md.
 * Options (env): BENCH_ROUNDS (5), BENCH_CPU_CONCURRENCY (8), BENCH_CPU_REQUESTS (3000 non-stream;
 * streams use half).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMockUpstream } from './mock-upstream.mjs'
import { startPassthrough } from './bench/passthrough.mjs'
import { cpuMs, load } from './bench/measure.mjs'
import { chatBody, MODEL, startBenchGateway } from './bench/gateway.mjs'
import { startSplitGateway } from './bench/split-gateway.mjs'
import { writeBlock } from './bench/report.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const CONCURRENCY = Number(process.env.BENCH_CPU_CONCURRENCY ?? 8)
const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 3000)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const fmt = (n, d = 3) => (Number.isFinite(n) ? n.toFixed(d) : '–')
const version = (pkg) => JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version

const SCENARIOS = [
  { name: 'non-stream', body: chatBody(false), amount: REQUESTS, limit: 1.5 },
  {
    name: 'stream, 16 events',
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'bench-events-16' }], stream: true, stream_options: { include_usage: true } }),
    amount: Math.round(REQUESTS / 2),
    limit: 2,
  },
]

/**
 * CPU ms per request of each pid in `pids` while `amount` requests run at CONCURRENCY, idle drift
 * (one quiet second before) subtracted; the second after the load counts too (background settling).
 */
async function cpuPerRequest(target, scenario) {
  const before = target.pids.map(cpuMs)
  await sleep(1000)
  const idle = target.pids.map((pid, i) => cpuMs(pid) - before[i])
  const start = target.pids.map(cpuMs)
  const r = await load({ url: target.url, connections: CONCURRENCY, amount: scenario.amount, headers: target.headers, body: scenario.body, timeout: 30 })
  await sleep(1000)
  if (r.ok < scenario.amount || r.errors) console.warn(`  ${target.name} ${scenario.name}: ${r.ok} of ${scenario.amount} answered, ${r.errors} errors`)
  return target.pids.map((pid, i) => (cpuMs(pid) - start[i] - idle[i]) / scenario.amount)
}

/** After the load: every consume log row counted once on the user and Σ log quota = used quota (the split keeps the ledger). */
async function ledger(db) {
  const read = async () => {
    const logs = await db.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS quota FROM logs WHERE type = 2 AND username = 'bench'").first()
    const user = await db.prepare("SELECT request_count AS n, used_quota AS quota FROM users WHERE username = 'bench'").first()
    return { logs: logs.n, logQuota: logs.quota, userRequests: user.n, usedQuota: user.quota }
  }
  let last = await read()
  for (let i = 0; i < 40; i++) {
    await sleep(500)
    const now = await read()
    const settled = now.logs === last.logs && now.logs === now.userRequests && now.logQuota === now.usedQuota
    last = now
    if (settled) break
  }
  return { ...last, ok: last.logs === last.userRequests && last.logQuota === last.usedQuota }
}

async function main() {
  const started = Date.now()
  if (!existsSync(path.join(root, 'console/dist/index.html')))
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    })
  const mock = await startMockUpstream({ port: 0 })
  const bare = await startPassthrough(mock.url)
  const split = await startSplitGateway(mock.url)
  const whole = await startBenchGateway(mock.url, { build: false })
  const json = (key) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` })
  const chat = (base) => `${base}/v1/chat/completions`
  const targets = [
    { name: 'bare worker', url: chat(bare.url), headers: json('bench-fast'), pids: [bare.pid] },
    { name: 'gateway, split', url: chat(split.url), headers: json(split.keys.fast), pids: [split.pid, split.statePid] },
    { name: 'gateway, one process', url: chat(whole.url), headers: json(whole.keys.fast), pids: [whole.pid] },
  ]
  console.log(`pids: bare ${bare.pid}, split gateway ${split.pid} + state ${split.statePid}, one-process gateway ${whole.pid}`)
  const samples = {}
  let check
  try {
    // Warm: isolate caches, credit leases, connections, the first use of each path.
    for (const t of targets) for (const s of SCENARIOS) await load({ url: t.url, connections: CONCURRENCY, amount: 200, headers: t.headers, body: s.body, timeout: 30 })
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of SCENARIOS) {
        const order = targets.map((_, i) => targets[(i + round) % targets.length])
        if (round % 2) order.reverse()
        for (const t of order) {
          const ms = await cpuPerRequest(t, s)
          ;(samples[`${s.name}|${t.name}`] ??= []).push(ms)
          console.log(`round ${round + 1}/${ROUNDS} ${s.name} ${t.name}: ${ms.map((m) => fmt(m)).join(' + ')} ms CPU / request`)
        }
      }
    }
  } finally {
    check = await ledger(await split.d1()).catch((err) => ({ ok: false, error: String(err) }))
    console.log(`ledger (split): ${JSON.stringify(check)}`)
    await whole.stop()
    await split.stop()
    await bare.stop()
    await mock.stop()
  }
  report(samples, check, Math.round((Date.now() - started) / 1000))
}

function report(samples, check, seconds) {
  const rows = SCENARIOS.map((s) => {
    const get = (name) => samples[`${s.name}|${name}`]
    const bare = get('bare worker').map((x) => x[0])
    const gw = get('gateway, split').map((x) => x[0])
    const state = get('gateway, split').map((x) => x[1])
    const whole = get('gateway, one process').map((x) => x[0])
    const ratios = gw.map((g, i) => g / bare[i])
    const wholeRatios = whole.map((w, i) => w / bare[i])
    return { s, bare, gw, state, whole, ratio: median(ratios), ratios, wholeRatio: median(wholeRatios) }
  })
  const L = ['## Gateway CPU, not the process (issue 37)', '']
  L.push(
    `Measured by \`npm run bench:gateway-cpu\` (scripts/bench-gateway-cpu.mjs) on ${new Date().toISOString().slice(0, 10)}, one run of ${seconds} s: ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length} cores, Node ${process.version}, wrangler ${version('wrangler')}, workerd ${version('workerd')}. ${ROUNDS} rounds; in each, for each scenario, the three targets take turns (order rotated) through ${REQUESTS} non-stream or ${Math.round(REQUESTS / 2)} stream requests at c = ${CONCURRENCY} against the 0 ms mock. CPU is user + system time from /proc/<pid>/stat (10 ms ticks), idle drift subtracted, divided by the requests.`,
    ''
  )
  L.push(
    '- **bare worker**: the 6-line pass-through Worker of `npm run bench`, its own workerd process.',
    '- **gateway, split**: the gateway Worker alone in one workerd process; every Durable Object (wallet, channel health, rate limiter, config version, metrics store, …) and D1, KV and R2 in a second workerd process running the same bundle (scripts/bench/split-gateway.mjs: a private Miniflare dev registry with shared storage; the gateway’s Durable Object bindings name the state script). *gateway* is the serving process: the gateway isolate, the runtime’s I/O around it (client socket, upstream fetch, the RPCs to the state process) and Miniflare’s dev-registry proxy worker that forwards those RPCs over workerd’s debug port. *state* is the second process over the same window: the wallet, the other objects, D1’s SQLite.',
    '- **gateway, one process**: the gateway as `npm start` and `npm run bench` serve it, everything in one workerd process (the figure `npm run bench` reports).',
    ''
  )
  L.push(
    '| scenario | bare (ms) | gateway, split: gateway process (ms) | state process (ms) | gateway / bare (median of rounds) | target | one process (ms) | one process / bare |',
    '|---|---|---|---|---|---|---|---|'
  )
  for (const r of rows)
    L.push(
      `| ${r.s.name} | ${fmt(median(r.bare))} | ${fmt(median(r.gw))} | ${fmt(median(r.state))} | ${fmt(r.ratio, 2)}× (by round ${r.ratios.map((x) => `${fmt(x, 2)}×`).join(' / ')}) | ≤ ${r.s.limit}×: ${r.ratio <= r.s.limit ? 'met' : '**missed**'} | ${fmt(median(r.whole))} | ${fmt(r.wholeRatio, 2)}× |`
    )
  L.push('', '| scenario | target | CPU ms / request by round |', '|---|---|---|')
  for (const r of rows) {
    L.push(`| ${r.s.name} | bare worker | ${r.bare.map((x) => fmt(x)).join(' / ')} |`)
    L.push(`| ${r.s.name} | gateway, split: gateway process | ${r.gw.map((x) => fmt(x)).join(' / ')} |`)
    L.push(`| ${r.s.name} | gateway, split: state process | ${r.state.map((x) => fmt(x)).join(' / ')} |`)
    L.push(`| ${r.s.name} | gateway, one process | ${r.whole.map((x) => fmt(x)).join(' / ')} |`)
  }
  L.push(
    '',
    `Ledger of the split gateway after the run (it bills through the wallet in the state process): ${check.logs ?? '?'} consume log rows, ${check.userRequests ?? '?'} requests counted on the user; Σ log quota ${check.logQuota ?? '?'}, used quota ${check.usedQuota ?? '?'}: ${check.ok ? 'consistent' : `**INCONSISTENT** ${check.error ?? ''}`}.`,
    ''
  )
  L.push('Command: `npm run bench:gateway-cpu` (options: `BENCH_ROUNDS`, `BENCH_CPU_CONCURRENCY`, `BENCH_CPU_REQUESTS`).', '')
  writeBlock('gateway-cpu', L.join('\n'))
  console.log(`\n${L.join('\n')}`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
