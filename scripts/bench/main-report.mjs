/**
 * The "main" block of BENCHMARKS.md from one `npm run bench` run: how the targets were served, the
 * targets judged on medians of alternating rounds, the full matrix, the 50 ms Durable Object row,
 * CPU per request, the gateway's Server-Timing phases, the ledger after the load, bundle sizes.
 */
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeBlock } from './report.mjs'
import { PORTKEY_VERSION } from './portkey.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const fmt = (n, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : '–')

/**
 * The gateway/bare CPU ratio: the median of each round's ratio (the two measured back to back, so
 * drift of the shared machine cancels), or the ratio of the single figures of an older run.
 */
function cpuRatioOf(cpu) {
  const g = cpu.gateway.rounds
  const b = cpu['bare worker'].rounds
  if (!g || !b) return { ratio: cpu.gateway.msPerRequest / cpu['bare worker'].msPerRequest, rounds: '' }
  const ratios = g.map((x, i) => x / b[i])
  return { ratio: [...ratios].sort((x, y) => x - y)[Math.floor(ratios.length / 2)], rounds: `by round ${ratios.map((r) => `${fmt(r, 2)}×`).join(' / ')}; ` }
}
const gz = (file) => gzipSync(readFileSync(file)).length
const version = (pkg) => JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version

function consoleInitialJs() {
  const dist = path.join(root, 'console/dist')
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8')
  const files = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1])
  return files.reduce((sum, f) => sum + gz(path.join(dist, f)), 0)
}

export function writeMainReport(run) {
  const { results, scenarios, concurrency, duration, rounds, phases, ledger, restart, paired, slowName, doLatencyMs, cpu, cpuRequests, peakMb, seconds } = run
  const get = (target, scenario, c) => results.find((r) => r.target === target && r.scenario === scenario && r.c === c)
  const bare = paired['bare worker']
  const gw = paired.gateway
  const pk = paired.portkey
  const slow = paired[slowName]
  const bundleGz = gz(path.join(root, '.wrangler/build/index.js'))
  const consoleGz = consoleInitialJs()
  const L = []
  L.push('## Throughput and latency', '')
  L.push(`Measured by \`npm run bench\` (scripts/bench.mjs) on ${new Date().toISOString().slice(0, 10)}, in one run of ${seconds} s on one machine:`)
  L.push(
    `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}; Node ${process.version}, wrangler ${version('wrangler')}, workerd ${version('workerd')}, Portkey gateway ${PORTKEY_VERSION}.`
  )
  L.push(
    '**Absolute numbers are noisy**: the load generator (autocannon), the mock upstream and every target share these cores, and other jobs (test runs of other work on the same machine) ran at the same time. Judge by the same-run ratios: targets take turns within every cell and every round, so drift hits them alike.',
    ''
  )
  L.push('Targets, all against the same mock upstream (0 ms or 60 ms answer), one key:', '')
  L.push(
    '- **bare worker**: a 6-line pass-through Worker (scripts/bench/passthrough-worker.js) on workerd through a direct socket, calling the upstream through the same direct network binding as the gateway — the ceiling of the stack.'
  )
  L.push(
    '- **gateway**: this project as `npm start` serves it (scripts/serve.mjs: the Worker on a direct workerd socket, no entry or router worker in front, supplier calls through workerd’s network service): token auth, credit lease, channel pick, usage parse, log rows through the wallet to D1 — warm, logs on, one user and one key (every request charges the same wallet).'
  )
  L.push(
    `- **portkey**: \`@portkey-ai/gateway\` ${PORTKEY_VERSION} headless on Node (OpenAI provider, custom host = the mock), installed on demand into .bench-cache/. Its fetch answers are copied once so its pass-through works on this Node (scripts/bench/portkey.mjs).`
  )
  L.push(
    `- **${slowName}**: a second gateway where every Durable Object call waits ${doLatencyMs} ms first (test-only wrapper, worker/lib/do-latency.ts), as if the wallet lived on another continent.`,
    ''
  )

  const t = (label, okay, measured) => `| ${label} | ${measured} | ${okay ? 'met' : '**missed**'} |`
  L.push('### Targets', '')
  L.push(
    `Medians of ${rounds} rounds in which the targets take turns (order rotated every round; 3 s at c=32, 3 s at c=1, 40 sequential stream first bytes each; non-stream chat, 0 ms upstream).`,
    ''
  )
  L.push('| target | measured | |', '|---|---|---|')
  L.push(
    t(
      'Gateway ≥ 60 % of the bare Worker’s req/s at c=32',
      gw.rps32 / bare.rps32 >= 0.6,
      `${fmt((gw.rps32 / bare.rps32) * 100, 0)} % (${fmt(gw.rps32, 0)} / ${fmt(bare.rps32, 0)} req/s)`
    )
  )
  L.push(t('Gateway ≥ 1.5× Portkey’s req/s at c=32', gw.rps32 / pk.rps32 >= 1.5, `${fmt(gw.rps32 / pk.rps32, 2)}× (${fmt(gw.rps32, 0)} / ${fmt(pk.rps32, 0)} req/s)`))
  L.push(t('… with a lower p99 than Portkey at c=32', gw.p99c32 < pk.p99c32, `${fmt(gw.p99c32, 0)} vs ${fmt(pk.p99c32, 0)} ms`))
  L.push(t('Added p50 at c=1 vs the bare Worker ≤ 1 ms', gw.p50c1 - bare.p50c1 <= 1, `${fmt(gw.p50c1 - bare.p50c1, 2)} ms (${fmt(gw.p50c1, 2)} vs ${fmt(bare.p50c1, 2)})`))
  L.push(t('Stream first byte added ≤ 1 ms', gw.ttfb - bare.ttfb <= 1, `${fmt(gw.ttfb - bare.ttfb, 2)} ms (${fmt(gw.ttfb, 2)} vs ${fmt(bare.ttfb, 2)})`))
  L.push(
    t(
      `With ${doLatencyMs} ms on every DO call: added p50 at c=1 ≤ 1 ms`,
      slow.p50c1 - bare.p50c1 <= 1,
      `${fmt(slow.p50c1 - bare.p50c1, 2)} ms (${fmt(slow.p50c1, 2)} vs ${fmt(bare.p50c1, 2)}); first byte added ${fmt(slow.ttfb - bare.ttfb, 2)} ms`
    )
  )
  const cpuRatio = cpuRatioOf(cpu)
  L.push(
    t(
      'workerd CPU per request, gateway ≤ 2× bare',
      cpuRatio.ratio <= 2,
      `${fmt(cpuRatio.ratio, 2)}× (${cpuRatio.rounds}medians ${fmt(cpu.gateway.msPerRequest, 3)} vs ${fmt(cpu['bare worker'].msPerRequest, 3)} ms)`
    )
  )
  L.push(
    t('Ledger exact after the whole load', ledger.ok, `${ledger.logs} log rows = ${ledger.userRequests} requests counted; Σ quota ${ledger.logQuota} = used ${ledger.usedQuota}`)
  )
  L.push(
    t(
      'A restart in the middle of a run loses and overspends nothing',
      ledger.ok,
      `server stopped and started again during a c=8 run (${fmt(restart.ms / 1000, 1)} s down; ${restart.served} answers served around it, ${restart.errors} refused or cut while down); the ledger above includes it`
    )
  )
  L.push(t('Worker bundle ≤ 1 MB gzipped', bundleGz <= 1024 * 1024, `${fmt(bundleGz / 1024, 0)} kB`))
  L.push(t('Console initial JS ≤ 300 kB gzipped', consoleGz <= 300 * 1024, `${fmt(consoleGz / 1024, 0)} kB`))
  L.push('')
  L.push('| target | req/s c=32 | p99 c=32 (ms) | p50 c=1 (ms) | stream first byte p50 (ms) | errors / first bytes missing (3 s) |', '|---|---|---|---|---|---|')
  for (const [name, v] of Object.entries(paired))
    L.push(
      `| ${name} | ${v.rps32 === undefined ? '–' : fmt(v.rps32, 0)} | ${v.p99c32 === undefined ? '–' : fmt(v.p99c32, 0)} | ${fmt(v.p50c1, 2)} | ${fmt(v.ttfb, 2)} | ${v.errors} / ${v.failures} |`
    )
  L.push('')

  L.push('### CPU per request', '')
  L.push(
    `User + system CPU time of the serving process from the kernel's accounting (/proc/<pid>/stat) over ${cpuRequests} requests at c=8 (non-stream, 0 ms), idle drift subtracted; the median of ${cpu.gateway.rounds?.length ?? 1} rounds in which the targets take turns (order rotated). For the bare Worker and the gateway that is the whole workerd process (the gateway's includes its Durable Objects, D1 and the background batches); for Portkey the Node process.`,
    ''
  )
  L.push('| target | CPU ms / request (median) | rounds |', '|---|---|---|')
  for (const [name, v] of Object.entries(cpu)) L.push(`| ${name} | ${fmt(v.msPerRequest, 3)} | ${v.rounds?.map((x) => fmt(x, 3)).join(' / ') ?? '–'} |`)
  L.push('')

  for (const s of scenarios) {
    L.push(`### ${s} (each cell ${duration} s)`, '')
    L.push(
      '| c | mock req/s | bare req/s | portkey req/s | gateway req/s | gateway / bare | gateway / portkey | p50 bare / portkey / gateway (ms) | p99 bare / portkey / gateway (ms) | errors (gw) |',
      '|---|---|---|---|---|---|---|---|---|---|'
    )
    for (const c of concurrency) {
      const [m, b, p, g] = ['mock', 'bare worker', 'portkey', 'gateway'].map((n) => get(n, s, c))
      if (!m || !b || !p || !g) continue
      L.push(
        `| ${c} | ${fmt(m.rps, 0)} | ${fmt(b.rps, 0)} | ${fmt(p.rps, 0)} | ${fmt(g.rps, 0)} | ${fmt((g.rps / b.rps) * 100, 0)} % | ${fmt(g.rps / p.rps, 2)}× | ${fmt(b.p50)} / ${fmt(p.p50)} / ${fmt(g.p50)} | ${fmt(b.p99, 0)} / ${fmt(p.p99, 0)} / ${fmt(g.p99, 0)} | ${g.errors} |`
      )
    }
    L.push('')
  }
  L.push('### Where a gateway request waits (Server-Timing, mean of 200 sequential non-stream requests)', '', '| phase | ms |', '|---|---|')
  for (const [k, v] of Object.entries(phases)) L.push(`| ${k} | ${fmt(v, 2)} |`)
  L.push('', 'The runtime clock only moves at I/O, so CPU time is not in these numbers.', '')
  L.push(
    '### Ledger after the load',
    '',
    `Consume logs in D1: ${ledger.logs}; the user's request count: ${ledger.userRequests}; Σ log quota: ${ledger.logQuota}; the user's used quota: ${ledger.usedQuota}; 2xx answers received: ${ledger.served} (up to ${ledger.inFlight} more were cut off by the end of a run). ${ledger.ok ? 'Consistent' : 'INCONSISTENT'}: every served request has exactly one log row and Σ log quota equals the quota charged.`,
    ''
  )
  L.push(`Peak RSS of the gateway's workerd process during the matrix: ${peakMb} MB.`, '')
  L.push('Command: `npm run bench` (options: `BENCH_DURATION`, `BENCH_CONCURRENCY`, `BENCH_ROUNDS`).', '')
  writeBlock('main', L.join('\n'))
  console.log('\nWrote BENCHMARKS.md')
}
