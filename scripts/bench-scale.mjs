#!/usr/bin/env node
/**
 * Scale benchmark (`npm run bench:scale`): seeds a fresh local gateway with 1 M log rows (30 days,
 * one heavy user holding 10 %), 1 000 users, 10 000 tokens and 10 000 channels (20 000 routing
 * rows) plus the matching statistics rollup, then times the log page's filtered queries, the
 * dashboards and the big lists through the real management API (sequential, warm, p50/p95), and
 * prints SQLite's query plan for each log query shape. Writes the "Scale" section of BENCHMARKS.md.
 *
 * Options (env): SCALE_LOGS (1000000), SCALE_RUNS (30 timed requests per query).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from './serve.mjs'
import { api } from './bench/console-api.mjs'
import { percentile } from './bench/measure.mjs'
import { writeBlock } from './bench/report.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const LOGS = Number(process.env.SCALE_LOGS ?? 1_000_000)
const RUNS = Number(process.env.SCALE_RUNS ?? 30)
const USERS = 1000
const TOKENS = 10_000
const CHANNELS = 10_000
const DAYS = 30
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-3-5-sonnet', 'gemini-1.5-pro', 'deepseek-chat', 'text-embedding-3-small', 'o3-mini', 'qwen-max']
const modelOf = (expr) => `json_extract('${JSON.stringify(MODELS)}', '$[' || (${expr}) || ']')`

/** Every generated row comes from one recursive CTE per chunk, so seeding is a few big statements. */
export async function seed(db, now) {
  const series = (from, to) => `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to})`
  const started = Date.now()
  await db
    .prepare(
      `${series(2, USERS)} INSERT INTO users (id, username, display_name, role, status, quota, used_quota, request_count, aff_code, inviter_id, created_time)
       SELECT i, 'user' || i, 'User ' || i, 1, 1, 5000000, 100000, 100, 'aff' || i, CASE WHEN i % 4 = 0 THEN 1 ELSE 0 END, ${now} - i * 2000 FROM n`
    )
    .run()
  // Token and log owners: user 1 (the root account) holds 10 %, the rest spread over users 2..USERS.
  const owner = (i) => `CASE WHEN ${i} % 10 = 0 THEN 1 ELSE 2 + ${i} % ${USERS - 1} END`
  await db
    .prepare(
      `${series(1, TOKENS)} INSERT INTO tokens (user_id, key, status, name, created_time, accessed_time, remain_quota, unlimited_quota, used_quota)
       SELECT ${owner('i')}, 'seed' || printf('%044d', i), 1, 'token-' || (i % 50), ${now} - i * 60, ${now} - i, 500000, i % 3 = 0, i * 10 FROM n`
    )
    .run()
  await db
    .prepare(
      `${series(1, CHANNELS)} INSERT INTO channels (type, key, status, name, weight, priority, "group", models, tag, base_url, response_time, created_time)
       SELECT 1, 'sk-seed-' || i, CASE WHEN i % 10 = 0 THEN 2 ELSE 1 END, 'channel-' || i, 1 + i % 5, i % 3, 'default', 'gpt-4o-mini,gpt-4o', 'tag-' || (i % 20), 'http://127.0.0.1:9', i % 2000, ${now} - i FROM n`
    )
    .run()
  await db
    .prepare(`INSERT INTO abilities ("group", model, channel_id, enabled, priority, weight) SELECT 'default', 'gpt-4o-mini', id, status = 1, priority, weight FROM channels`)
    .run()
  await db.prepare(`INSERT INTO abilities ("group", model, channel_id, enabled, priority, weight) SELECT 'default', 'gpt-4o', id, status = 1, priority, weight FROM channels`).run()
  const span = DAYS * 86400
  const chunk = 100_000
  for (let from = 1; from <= LOGS; from += chunk) {
    const to = Math.min(LOGS, from + chunk - 1)
    // A user keeps to one channel and two models, as real traffic does (so the rollup stays small).
    await db
      .prepare(
        `${series(from, to)}, r AS (SELECT i, ${owner('i')} AS uid FROM n)
         INSERT INTO logs (user_id, created_at, type, content, username, token_name, token_id, model_name, upstream_model, quota, prompt_tokens, completion_tokens, channel_id, request_time, is_stream, request_id)
         SELECT uid, ${now} - CAST(i * ${span} / ${LOGS} AS INTEGER), CASE WHEN i % 50 = 0 THEN 1 WHEN i % 50 = 1 THEN 3 ELSE 2 END, '',
                CASE uid WHEN 1 THEN 'bench' ELSE 'user' || uid END, 'token-' || (i % 50), 1 + i % ${TOKENS},
                ${modelOf(`(uid + i % 2) % ${MODELS.length}`)}, ${modelOf(`(uid + i % 2) % ${MODELS.length}`)},
                100 + i % 5000, 50 + i % 900, 20 + i % 400, 1 + uid % 50, 200 + i % 3000, i % 3 = 0, 'req-' || i
         FROM r`
      )
      .run()
    process.stdout.write(`\rseeded ${to.toLocaleString('en')} log rows`)
  }
  process.stdout.write('\n')
  await db
    .prepare(
      `INSERT INTO statistics (date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time)
       SELECT date(created_at, 'unixepoch'), user_id, channel_id, model_name, COUNT(*), SUM(quota), SUM(prompt_tokens), SUM(completion_tokens), SUM(request_time)
       FROM logs WHERE type = 2 GROUP BY 1, 2, 3, 4`
    )
    .run()
  await db.prepare('ANALYZE').run()
  const [{ n: statRows }] = (await db.prepare('SELECT COUNT(*) AS n FROM statistics').all()).results
  return { seconds: (Date.now() - started) / 1000, statRows }
}

async function time(base, jar, p) {
  await api(base, jar, 'GET', p)
  await api(base, jar, 'GET', p)
  const times = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    await api(base, jar, 'GET', p)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), p95: percentile(times, 95) }
}

async function main() {
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  })
  const persistDir = mkdtempSync(path.join(tmpdir(), 'gateway-scale-'))
  execFileSync(process.execPath, [path.join(root, 'node_modules/wrangler/bin/wrangler.js'), 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  })
  const server = await startServer({ port: 0, persistDir, quiet: true, cron: false })
  try {
    const base = server.url.href.replace(/\/$/, '')
    const jar = new Map()
    await api(base, jar, 'GET', '/api/status')
    await api(base, jar, 'POST', '/api/setup', { username: 'bench', password: 'bench-password-1' })
    const db = await server.mf.getD1Database('DB')
    const now = Math.floor(Date.now() / 1000)
    const seeded = await seed(db, now)
    console.log(`seeded in ${seeded.seconds.toFixed(1)} s (${seeded.statRows.toLocaleString('en')} statistics rows)`)

    const day = now - 86400
    const week = now - 7 * 86400
    const queries = [
      ['Log page, admin, no filter', '/api/log/?p=1&page_size=10'],
      ['Log page, admin, page 500', '/api/log/?p=500&page_size=10'],
      ['Log page, admin, type = consume', '/api/log/?type=2'],
      ['Log page, admin, model', '/api/log/?model_name=gpt-4o'],
      ['Log page, admin, username', '/api/log/?username=user42'],
      ['Log page, admin, token name', '/api/log/?token_name=token-7'],
      ['Log page, admin, channel', '/api/log/?channel_id=7'],
      ['Log page, admin, last 24 h', `/api/log/?start_timestamp=${day}&end_timestamp=${now}`],
      ['Log page, admin, model + last 7 days', `/api/log/?model_name=gpt-4o&start_timestamp=${week}&end_timestamp=${now}`],
      ['Log page, admin, username + type + 7 days', `/api/log/?username=user42&type=2&start_timestamp=${week}&end_timestamp=${now}`],
      ['Log page, own logs (100 k rows)', '/api/log/self?p=1'],
      ['Log page, own logs, model + 7 days', `/api/log/self?model_name=gpt-4o&start_timestamp=${week}&end_timestamp=${now}`],
      ['Log quota sum, admin, last 24 h', `/api/log/stat?start_timestamp=${day}&end_timestamp=${now}`],
      ['Log quota sum, admin, username', '/api/log/stat?username=user42'],
      ['Log quota sum, own logs, last 7 days', `/api/log/self/stat?start_timestamp=${week}&end_timestamp=${now}`],
      ['Dashboard (own, 7 days)', '/api/user/dashboard'],
      ['Analytics totals', '/api/analytics/statistics'],
      ['Analytics period (7 days, the page default)', `/api/analytics/period?start_timestamp=${week}&end_timestamp=${now}`],
      // A month of admin analytics reads the day × model and day × user sums, not every rollup row.
      ['Analytics period (30 days)', `/api/analytics/period?start_timestamp=${now - DAYS * 86400}&end_timestamp=${now}`],
      ['Channel list (10 k)', '/api/channel/?p=1&page_size=10'],
      ['Channel list, model + group filter', '/api/channel/?p=1&model=gpt-4o&group=default&status=1'],
      ['Token list, admin search (10 k)', '/api/token/admin/search?p=1&keyword=token-7'],
      ['Own token list (1 k)', '/api/token/?p=1'],
      ['User list (1 k)', '/api/user/?p=1&keyword=user4'],
    ]
    const rows = []
    for (const [label, p] of queries) {
      const r = await time(base, jar, p)
      rows.push({ label, p, ...r })
      console.log(`${label.padEnd(46)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms`)
    }
    const plans = await queryPlans(db, now)
    writeReport({ rows, plans, seeded })
  } finally {
    await server.stop()
    rmSync(persistDir, { recursive: true, force: true })
  }
}

/** The log service's statement shapes (see worker/admin/logs/logs.service.ts) and SQLite's plan for each. */
async function queryPlans(db, now) {
  const page = 'ORDER BY created_at DESC, id DESC LIMIT 10'
  const shapes = [
    ['no filter', `SELECT * FROM logs ${page}`],
    ['type', `SELECT * FROM logs WHERE type = 2 ${page}`],
    ['model + time', `SELECT * FROM logs WHERE created_at >= ${now - 7 * 86400} AND model_name = 'gpt-4o' ${page}`],
    ['username', `SELECT * FROM logs WHERE username = 'user42' ${page}`],
    ['token name', `SELECT * FROM logs WHERE token_name = 'token-7' ${page}`],
    ['channel', `SELECT * FROM logs WHERE channel_id = 7 ${page}`],
    ['own logs', `SELECT * FROM logs WHERE user_id = 1 ${page}`],
    ['bounded count', `SELECT COUNT(*) FROM (SELECT 1 FROM logs WHERE model_name = 'gpt-4o' LIMIT 10001)`],
    ['quota sum, time', `SELECT SUM(quota), COUNT(*) FROM logs WHERE created_at >= ${now - 86400}`],
    ['statistics by date', `SELECT date, SUM(quota) FROM statistics WHERE date BETWEEN '2026-01-01' AND '2026-12-31' GROUP BY date`],
    ['day × model sums', `SELECT model_name, SUM(quota) FROM statistics_models WHERE date BETWEEN '2026-01-01' AND '2026-12-31' GROUP BY model_name`],
    ['day × user sums', `SELECT user_id, SUM(quota) FROM statistics_users WHERE date BETWEEN '2026-01-01' AND '2026-12-31' GROUP BY user_id`],
  ]
  const out = []
  for (const [label, sql] of shapes) {
    const { results } = await db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all()
    out.push({ label, plan: results.map((r) => r.detail).join('; ') })
  }
  return out
}

function writeReport({ rows, plans, seeded }) {
  const worst = Math.max(...rows.map((r) => r.p95))
  const month = rows.find((r) => r.label === 'Analytics period (30 days)').p95
  const lines = [
    '## Scale: 1 M logs, 10 k tokens, 10 k channels',
    '',
    `Measured by \`npm run bench:scale\` (scripts/bench-scale.mjs) on ${new Date().toISOString().slice(0, 10)}: ${LOGS.toLocaleString('en')} log rows over ${DAYS} days, ${USERS.toLocaleString('en')} users, ${TOKENS.toLocaleString('en')} tokens, ${CHANNELS.toLocaleString('en')} channels, ${seeded.statRows.toLocaleString('en')} statistics rows (seeded in ${seeded.seconds.toFixed(0)} s). Each figure is ${RUNS} sequential warm requests through the management API (HTTP, session, JSON included).`,
    '',
    '| query | request | p50 ms | p95 ms |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.label} | \`${r.p.replace(/\d{10}/g, 'T')}\` | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`),
    '',
    `Target ≤ 50 ms p95 for the log page, the dashboards and the lists: ${worst <= 50 ? 'met' : 'missed'} — worst p95 ${worst.toFixed(1)} ms.`,
    `Target ≤ 20 ms p95 for a month of admin analytics (read from the day × model and day × user sums): ${month <= 20 ? 'met' : 'missed'} — ${month.toFixed(1)} ms.`,
    '',
    '### Query plans (SQLite `EXPLAIN QUERY PLAN`)',
    '',
    '| shape | plan |',
    '|---|---|',
    ...plans.map((p) => `| ${p.label} | ${p.plan} |`),
    '',
  ]
  writeBlock('scale', lines.join('\n'))
  console.log(`\nworst p95 ${worst.toFixed(1)} ms — BENCHMARKS.md updated`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
