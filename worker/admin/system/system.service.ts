/**
 * What the root system page shows (GET /api/system/), each part read on demand and never on a
 * relay path: version and console build, the cron jobs (last run from cron/cron-report.ts, next run
 * from the trigger), channel health and dead letters (the /metrics gauges, admin/metrics/scrape-gauges.ts, with
 * the oldest dead letter) and this isolate's unconfirmed lease reports (billing/wallet-lease.ts),
 * D1's size and its largest tables, KV / Durable Object / D1 reachability with latency, the
 * metrics and OTLP configuration (with this isolate's export counters), the alert channels and
 * their failed deliveries (notify/status.ts), and the Worker variables'
 * check (lib/env.ts; secrets only as set or unset). A part that fails reports its error instead.
 */
import { CRON_JOBS } from '../../cron'
import { nextCronRun, readCronReports } from '../../cron/cron-report'
import { channelHealthOf } from '../../channels/health'
import { config } from '../../lib/env'
import { exportStats } from '../../lib/tracing/exporter'
import type { Settings } from '../../settings/store'
import { scrapeGauges } from '../metrics/scrape-gauges'
import { alertStatus } from '../../notify/status'
import { deployedConsoleBuild } from '../status/status.service'
import type { Probe, SystemReport } from '../../../shared/contract/system'
import { unreportedItems } from '../../billing/wallet-lease'

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 300)

/** Time one probe; its error (never thrown) when it fails. */
async function probe(fn: () => Promise<unknown>): Promise<Probe> {
  const started = performance.now()
  try {
    await fn()
    return { ok: true, ms: Math.round(performance.now() - started) }
  } catch (err) {
    return { ok: false, ms: Math.round(performance.now() - started), error: errorText(err) }
  }
}

async function cronJobs(env: Env, now: number) {
  const reports = await readCronReports(env, Object.keys(CRON_JOBS))
  return Object.entries(CRON_JOBS).flatMap(([cron, jobs]) =>
    jobs.map((job) => {
      const last = reports[cron]?.[job]
      return {
        job,
        cron,
        next_run: nextCronRun(cron, now) ?? null,
        last_run: last?.at ?? null,
        duration_ms: last?.ms ?? null,
        result: last?.result ?? null,
        error: last?.error ?? null,
      }
    })
  )
}

async function channelHealth(env: Env) {
  const gauges = await scrapeGauges(env)
  const count = (name: string) => gauges.find((g) => g.name === name)?.samples ?? []
  const status = { enabled: 0, frozen: 0, disabled: 0 }
  for (const s of count('gateway_channel_status')) status[s.values[2] as keyof typeof status]++
  const poolKeysDisabled = count('gateway_pool_keys_disabled').reduce((n, s) => n + s.value, 0)
  const dead = await env.DB.prepare('SELECT MIN(created_at) AS oldest FROM wallet_dead_letters').first<{ oldest: number | null }>()
  return {
    channels: status,
    pool_keys_disabled: poolKeysDisabled,
    dead_letters: count('gateway_wallet_dead_letters')[0]?.value ?? 0,
    dead_letters_oldest_at: dead?.oldest ?? null,
    pending_reports: pendingReports(),
  }
}

/**
 * Wallet reports still waiting, as far as they can be read without asking every user's wallet:
 * the requests this isolate settled from credit leases whose report no wallet has confirmed yet
 * (queued or unanswered; other isolates' and the wallets' own unflushed log rows are not visible
 * here), with their cost and the oldest one's time (Unix seconds).
 */
function pendingReports() {
  const items = unreportedItems()
  return {
    requests: items.length,
    quota: items.reduce((n, i) => n + i.quota, 0),
    oldest_at: items.length > 0 ? Math.min(...items.map((i) => i.log.createdAt)) : null,
  }
}

/** Tables of SQLite and D1 themselves, not the gateway's. */
const INTERNAL_TABLE = /^(sqlite_|_cf_|d1_)/

/**
 * D1's size (from a query's `meta.size_after`, else PRAGMA page_count × page_size) and the ten
 * largest tables: by bytes where the dbstat table exists, else by rows (the highest rowid: a
 * count(*) would read every row, and D1 bills rows read).
 */
async function database(env: Env) {
  const res = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string }>()
  const meta = res.meta as { size_after?: number } | undefined
  let size = meta?.size_after ?? null
  if (size === null) {
    const pages = await env.DB.prepare('SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS n')
      .first<{ n: number }>()
      .catch(() => null)
    size = pages?.n ?? null
  }
  const names = res.results.map((r) => r.name).filter((n) => !INTERNAL_TABLE.test(n))
  try {
    const bytes = await env.DB.prepare('SELECT name, SUM(pgsize) AS n FROM dbstat GROUP BY name ORDER BY n DESC').all<{ name: string; n: number }>()
    const tables = bytes.results.filter((r) => names.includes(r.name)).slice(0, 10)
    return { size_bytes: size, measure: 'bytes' as const, tables: tables.map((t) => ({ name: t.name, value: t.n })) }
  } catch {
    const rows = await Promise.all(
      names.map((name) =>
        env.DB.prepare(`SELECT max(rowid) AS n FROM "${name.replaceAll('"', '""')}"`)
          .first<{ n: number | null }>()
          .then((r) => ({ name, value: r?.n ?? 0 }))
          .catch(() => ({ name, value: 0 }))
      )
    )
    return { size_bytes: size, measure: 'rows' as const, tables: rows.sort((a, b) => b.value - a.value).slice(0, 10) }
  }
}

/** The Worker variables (lib/env.ts): their check, what is set, and the optional bindings present. */
function environment(env: Env): SystemReport['environment'] {
  const bindings = { LOG_ARCHIVE: 'LOG_ARCHIVE' in env && Boolean(env.LOG_ARCHIVE), METRICS_AE: Boolean(env.METRICS_AE), DIRECT_NETWORK: Boolean(env.DIRECT_NETWORK) }
  try {
    const c = config(env)
    return {
      ok: true,
      error: null,
      variables: {
        APP_VERSION: c.appVersion,
        BASE_PATH: c.basePath || '/',
        CONSOLE_ORIGINS: c.consoleOrigins.join(', '),
        CLIENT_IP_HEADER: c.clientIpHeader ?? '',
        CRITICAL_RATE_LIMIT: String(c.criticalRateLimit),
        ALLOW_PRIVATE_UPSTREAMS: String(c.allowPrivateUpstreams),
        SETUP_CODE: c.setupCode ? 'set' : 'unset',
        TOKEN_SECRET: c.tokenSecret ? 'set' : 'unset',
        TEST_CLOCK: String(c.testClock),
      },
      bindings,
    }
  } catch (err) {
    return { ok: false, error: errorText(err), variables: {}, bindings }
  }
}

function telemetry(env: Env, settings: Settings) {
  return {
    metrics: { token_configured: settings.str('MetricsToken') !== '', analytics_engine: Boolean(env.METRICS_AE) },
    otlp: {
      endpoint: settings.str('OtlpEndpoint'),
      headers_configured: settings.str('OtlpHeaders') !== '',
      sample_rate: settings.num('OtlpSampleRate'),
      record_content: settings.bool('OtlpRecordContent'),
      /** This isolate's export counters since it started. */
      isolate: exportStats(),
    },
  }
}

/** Run one part; a failing part becomes `{error}` so the rest of the page still shows. */
async function part<T>(fn: () => Promise<T> | T): Promise<T | { error: string }> {
  try {
    return await fn()
  } catch (err) {
    return { error: errorText(err) }
  }
}

export async function systemReport(env: Env, settings: Settings): Promise<SystemReport> {
  const now = Date.now()
  const [consoleBuild, cron, health, db, alerts, kv, durableObject, d1] = await Promise.all([
    deployedConsoleBuild(env),
    part(() => cronJobs(env, now)),
    part(() => channelHealth(env)),
    part(() => database(env)),
    part(() => alertStatus(env)),
    probe(() => env.CACHE.get('v1:system-probe')),
    probe(() => channelHealthOf(env, 0).frozen()),
    probe(() => env.DB.prepare('SELECT 1').first()),
  ])
  return {
    version: { version: environment(env).variables.APP_VERSION ?? '', console_build: consoleBuild },
    now,
    cron,
    health,
    database: db,
    reachability: { kv, durable_object: durableObject, d1 },
    telemetry: telemetry(env, settings),
    alerts,
    environment: environment(env),
  }
}
