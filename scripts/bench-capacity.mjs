#!/usr/bin/env node
/**
 * Capacity benchmark (`npm run bench:capacity`): days of log traffic in minutes, through the real
 * retention and archive code. A fresh local gateway (bench/gateway.mjs: workerd, local D1 and R2)
 * gets a small LogMaxRows; then each simulated hour gets its share of the day's requests as log
 * rows (copies of a real relay row, created_at spread over that hour, inserted in one statement)
 * and one `POST /api/log/retention/run` — what the hourly cron runs in production. While a run is
 * busy, real relay requests (mock supplier) are timed; the same number of requests right after the
 * run gives the figure without retention. Then a burst: a day's rows at once and one run, timed the
 * same way. Writes the "capacity" block of BENCHMARKS.md: peak rows against LogMaxRows, peak
 * database bytes, rows archived and deleted, objects written, retention time, and relay p50/p99
 * with and without a run in progress.
 *
 * Options (env): CAPACITY_DAYS (3), CAPACITY_RATE requests a day (50000), CAPACITY_MAX_ROWS (20000).
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMockUpstream } from './mock-upstream.mjs'
import { chatBody, startBenchGateway } from './bench/gateway.mjs'
import { api } from './bench/console-api.mjs'
import { percentile } from './bench/measure.mjs'
import { writeBlock } from './bench/report.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const DAYS = Number(process.env.CAPACITY_DAYS ?? 3)
const RATE = Number(process.env.CAPACITY_RATE ?? 50_000)
const MAX_ROWS = Number(process.env.CAPACITY_MAX_ROWS ?? 20_000)
/** Relay requests in flight at once while a retention run is timed (a couple of busy clients). */
const PROBES = 2
const WARMUP = 30

/** One relay request, its wall time in ms (null when it was refused). */
async function relay(url, key) {
  const t = performance.now()
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: chatBody(false),
  })
  await res.arrayBuffer()
  return res.ok ? performance.now() - t : null
}

/** PROBES clients sending relay requests back to back until `busy()` turns false or `count` are done. */
async function probe(url, key, { busy = () => true, count = Number.POSITIVE_INFINITY } = {}) {
  const times = []
  const ends = []
  let failed = 0
  let sent = 0
  const client = async () => {
    while (busy() && sent < count) {
      sent++
      const ms = await relay(url, key)
      if (ms === null) failed++
      else times.push(ms)
      ends.push(performance.now())
    }
  }
  await Promise.all(Array.from({ length: PROBES }, client))
  return { times, ends, failed }
}

/** A real relay row to copy: the wallet writes it behind the answer, so wait for it. */
async function templateRow(db) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const row = await db.prepare('SELECT * FROM logs WHERE type = 2 ORDER BY id DESC LIMIT 1').first()
    if (row) return row
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error('no relay log row was written')
}

/**
 * `count` copies of the template row, created_at spread evenly over the hour starting at `hour`. The
 * template's values are bound, not read from its row: retention archives that row in its turn.
 */
function insertHour(db, template, hour, count) {
  const cols = Object.keys(template).filter((c) => c !== 'id' && c !== 'created_at' && c !== 'request_id')
  return db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)
       INSERT INTO logs (${cols.map((c) => `"${c}"`).join(', ')}, created_at, request_id)
       SELECT ${cols.map((_, j) => `?${j + 3}`).join(', ')}, ?2 + i * 3600 / ?1, 'cap-' || ?2 || '-' || i FROM n`
    )
    .bind(count, hour, ...cols.map((c) => template[c]))
    .run()
}

/**
 * One retention run through the API while PROBES clients send relay requests until it answers;
 * `alsoDuring` (given the run's start time) times something else sent while it is busy.
 */
async function runWhileProbing(base, jar, key, alsoDuring = async () => null) {
  let busy = true
  let runEnd = 0
  const run = api(base, jar, 'POST', '/api/log/retention/run').finally(() => {
    busy = false
    runEnd = performance.now()
  })
  const [result, probed, also] = await Promise.all([run, probe(base, key, { busy: () => busy }), alsoDuring()])
  /** Relay requests that answered while the run was still busy. */
  const beforeEnd = probed.ends.filter((e) => e < runEnd).length
  return { result, probed, also, beforeEnd }
}

/**
 * A day of traffic arriving at once (a burst, or LogMaxRows just lowered): one run that archives a
 * day's rows, the relay requests sent meanwhile, and a plain D1 read sent from Node to the local
 * database 50 ms into the run (it shows whether the wait is the relay's or the whole local stack's).
 */
async function catchUp(base, jar, key, db, template, hour) {
  const rows = (await insertHour(db, template, hour, RATE)).meta.changes
  const { result, probed, also, beforeEnd } = await runWhileProbing(base, jar, key, async () => {
    await new Promise((r) => setTimeout(r, 50))
    const t = performance.now()
    await db.prepare('SELECT COUNT(*) AS n FROM users').first()
    return performance.now() - t
  })
  return { rows, result, relay: { ...stats(probed.times), max: Math.max(0, ...probed.times), failed: probed.failed, beforeEnd }, d1ReadMs: also }
}

/**
 * The age rule, on real time: retention compares created_at with the clock, so these rows are
 * stamped over the last AGE_HOURS real hours. With LogCleanupDays 1 (and the row cap out of the
 * way) one run must archive exactly the rows older than a day and keep the rest.
 */
const AGE_HOURS = 48
async function ageRule(base, jar, db, template) {
  await api(base, jar, 'PUT', '/api/option/', { options: { LogMaxRows: String(MAX_ROWS * 100), LogCleanupDays: '1' } })
  const now = Math.floor(Date.now() / 1000)
  const perHour = Math.round(RATE / 24)
  let rows = 0
  for (let h = AGE_HOURS; h > 0; h--) rows += (await insertHour(db, template, now - h * 3600, perHour)).meta.changes
  const cut = Math.floor(Date.now() / 1000) - 86400
  const older = async () => (await db.prepare('SELECT COUNT(*) AS n FROM logs WHERE created_at < ?').bind(cut).first()).n
  const before = await older()
  const result = await api(base, jar, 'POST', '/api/log/retention/run')
  await api(base, jar, 'PUT', '/api/option/', { options: { LogMaxRows: String(MAX_ROWS), LogCleanupDays: '0' } })
  return { rows, before, result, left: await older() }
}

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b)
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
}

async function main() {
  const started = Date.now()
  const load = [os.loadavg()[0]]
  // The server serves the console's assets directory; this benchmark never opens it, so an earlier build will do.
  if (!existsSync(path.join(root, 'console/dist/index.html')))
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    })
  const mock = await startMockUpstream({ port: 0 })
  const gateway = await startBenchGateway(mock.url)
  try {
    const base = gateway.url
    const key = gateway.keys.fast
    const jar = new Map()
    await api(base, jar, 'GET', '/api/status')
    await api(base, jar, 'POST', '/api/user/login', { username: 'bench', password: 'bench-password-1' })
    await api(base, jar, 'PUT', '/api/option/', { options: { LogMaxRows: String(MAX_ROWS), LogCleanupDays: '0' } })
    await probe(base, key, { count: WARMUP })
    const db = await gateway.mf.getD1Database('DB')
    const template = await templateRow(db)

    const hours = DAYS * 24
    const perHour = Math.round(RATE / 24)
    const first = Math.floor(Date.now() / 1000 / 3600) * 3600 - hours * 3600
    const runs = []
    const during = { times: [], failed: 0 }
    const without = { times: [], failed: 0 }
    let peakRows = 0
    let peakBytes = 0
    let inserted = 0
    let answeredDuring = 0
    for (let h = 0; h < hours; h++) {
      inserted += (await insertHour(db, template, first + h * 3600, perHour)).meta.changes
      const status = await api(base, jar, 'GET', '/api/log/retention')
      const { n: rows } = await db.prepare('SELECT COUNT(*) AS n FROM logs').first()
      peakRows = Math.max(peakRows, rows)
      peakBytes = Math.max(peakBytes, status.db_bytes)
      const { result, probed, beforeEnd } = await runWhileProbing(base, jar, key)
      answeredDuring += beforeEnd
      runs.push(result)
      during.times.push(...probed.times)
      during.failed += probed.failed
      // The same number of requests with no run in progress, right after it (same machine load).
      const quiet = await probe(base, key, { count: probed.times.length + probed.failed })
      without.times.push(...quiet.times)
      without.failed += quiet.failed
      process.stdout.write(`\rhour ${h + 1}/${hours}: ${rows.toLocaleString('en')} rows before the run, ${result.archived} archived in ${result.ms} ms   `)
    }
    process.stdout.write('\n')
    const burst = await catchUp(base, jar, key, db, template, first + hours * 3600)
    const age = await ageRule(base, jar, db, template)
    load.push(os.loadavg()[0])
    const archive = await api(base, jar, 'GET', '/api/log/archive?page_size=1')
    const { n: left, hi } = await db.prepare('SELECT COUNT(*) AS n, MAX(id) AS hi FROM logs').first()
    writeReport({
      hours,
      perHour,
      inserted,
      peakRows,
      peakBytes,
      archive: archive.total,
      runs,
      burst,
      age,
      left,
      // Ids are never reused (rows go oldest first), so every id up to the highest is in D1 or in the archive.
      missing: hi - left - archive.total.rows,
      during: { ...stats(during.times), max: Math.max(0, ...during.times), failed: during.failed, beforeEnd: answeredDuring },
      without: { ...stats(without.times), max: Math.max(0, ...without.times), failed: without.failed },
      seconds: (Date.now() - started) / 1000,
      load,
    })
  } finally {
    await gateway.stop()
    await mock.stop()
  }
}

/** What the requests sent during the runs say about waiting: worded from this run's own counts. */
function waitLine(r) {
  const sent = r.during.n + r.during.failed + r.burst.relay.n + r.burst.relay.failed
  const answered = r.during.beforeEnd + r.burst.relay.beforeEnd
  const d1Waited = r.burst.d1ReadMs > r.burst.result.ms / 2
  const stack = '`npm start`: one workerd process with the Worker, the local D1 and R2'
  const head = `Of the relay requests sent while a run was busy, ${answered} of ${sent} were answered before that run ended.`
  const wait =
    answered === 0
      ? ` On this stack (${stack}) a request that arrives during a run waits for the rest of the run, not for one batch${d1Waited ? ', and in the burst so did the D1 read sent from Node, which never passes through the Worker' : ''}. The hourly cron gives a run up to 60 s (\`scheduledRetention\`).`
      : ` On this stack (${stack}) requests were answered between the run's batches.`
  return `${head}${wait} Whether Cloudflare's D1 and R2, reached over the network, behave the same is not measured here.`
}

function writeReport(r) {
  const fmt = (n) => Math.round(n).toLocaleString('en')
  const mb = (b) => `${(b / 1048576).toFixed(1)} MB`
  const sum = (k) => r.runs.reduce((s, x) => s + x[k], 0)
  const longest = Math.max(...r.runs.map((x) => x.ms))
  const lines = [
    '## Capacity: days of traffic through log retention and the R2 archive',
    '',
    `Measured by \`npm run bench:capacity\` (scripts/bench-capacity.mjs) on ${new Date().toISOString().slice(0, 10)}: ${DAYS} simulated day${DAYS === 1 ? '' : 's'} at ${fmt(RATE)} requests a day (${fmt(r.perHour)} log rows an hour, copies of a real relay row with \`created_at\` spread over the hour), LogMaxRows ${fmt(MAX_ROWS)}, LogCleanupDays 0 (the row cap does the work), local D1 and R2 under workerd. After each simulated hour, one \`POST /api/log/retention/run\` (the code the hourly cron runs: \`runRetention\`, \`archiveRows\`), ${r.hours} runs in ${r.seconds.toFixed(0)} s of wall time. The age rule is measured after the burst, below.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| log rows written | ${fmt(r.inserted)} in the simulated hours, ${fmt(r.burst.rows)} in the burst below, ${fmt(r.age.rows)} for the age rule, ${fmt(r.left + r.archive.rows - r.inserted - r.burst.rows - r.age.rows)} from the real relay requests and the setup |`,
    `| peak rows in D1 (just before an hourly run) | ${fmt(r.peakRows)} (${((r.peakRows / MAX_ROWS) * 100).toFixed(0)} % of LogMaxRows) |`,
    `| rows in D1 at the end | ${fmt(r.left)} |`,
    `| peak database size (D1 \`size_after\`, hourly) | ${mb(r.peakBytes)} (${fmt(r.peakBytes)} bytes; SQLite reuses the pages deletes free, so the file stops growing once the cap holds) |`,
    `| rows archived / deleted by the hourly runs | ${fmt(sum('archived'))} / ${fmt(sum('deleted'))} |`,
    `| retention time, hourly runs | ${(sum('ms') / 1000).toFixed(1)} s in ${fmt(sum('batches'))} batches of ≤ 250 rows; longest run ${fmt(longest)} ms, mean ${fmt(sum('ms') / r.runs.length)} ms |`,
    `| R2 objects written, all runs | ${fmt(r.archive.objects)} (one per hour of rows and batch), ${mb(r.archive.bytes)} gzip NDJSON, ${fmt(r.archive.rows)} rows |`,
    `| rows neither in D1 nor in the archive | ${fmt(r.missing)} |`,
    '',
    `Relay latency (non-stream chat, mock supplier, ${PROBES} clients back to back) while an hourly run is in progress, and for the same number of requests right after it:`,
    '',
    '| relay requests | n | p50 ms | p99 ms | max ms | failed |',
    '|---|---|---|---|---|---|',
    `| during an hourly run | ${r.during.n} | ${r.during.p50.toFixed(1)} | ${r.during.p99.toFixed(1)} | ${r.during.max.toFixed(1)} | ${r.during.failed} |`,
    `| without a run | ${r.without.n} | ${r.without.p50.toFixed(1)} | ${r.without.p99.toFixed(1)} | ${r.without.max.toFixed(1)} | ${r.without.failed} |`,
    '',
    `Burst: ${fmt(r.burst.rows)} rows (a day's traffic) inserted at once, as after a spike or after LogMaxRows is lowered, then one run: ${fmt(r.burst.result.archived)} rows archived in ${fmt(r.burst.result.ms)} ms (${r.burst.result.batches} batches${r.burst.result.more ? ', stopped by its time budget' : ''}). Relay requests sent meanwhile: ${r.burst.relay.n}, p50 ${r.burst.relay.p50.toFixed(0)} ms, max ${r.burst.relay.max.toFixed(0)} ms. A plain D1 read sent from Node straight to the local database 50 ms into the run took ${fmt(r.burst.d1ReadMs)} ms.`,
    '',
    `Age rule (real time): ${fmt(r.age.rows)} rows stamped over the last ${AGE_HOURS} hours, LogCleanupDays 1, the row cap raised out of the way; ${fmt(r.age.before)} of them were older than a day when the run started. One run archived ${fmt(r.age.result.by_age)} rows by age (${fmt(r.age.result.by_count)} by count) in ${fmt(r.age.result.ms)} ms (${r.age.result.batches} batches${r.age.result.more ? ', stopped by its time budget' : ''}); rows older than the cut left in D1: ${fmt(r.age.left)}.`,
    '',
    waitLine(r),
    '',
    `Machine: ${os.cpus().length} cores, load average ${r.load.map((l) => l.toFixed(1)).join(' at the start, ')} at the end${r.load.some((l) => l > os.cpus().length / 2) ? ' (other work shared the machine: compare the rows of one run with each other, not with other blocks)' : ''}.`,
    '',
  ]
  writeBlock('capacity', lines.join('\n'))
  console.log(lines.join('\n'))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
