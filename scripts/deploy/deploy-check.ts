/**
 * `npm run deploy:check`: what is missing before `npm run deploy`, checked offline — the D1 and KV
 * ids in wrangler.toml are real, the Worker bundles (`wrangler deploy --dry-run`) with every binding,
 * every Durable Object class is exported and has a migration, the bundle fits Cloudflare's size
 * limit, and the D1 migrations apply to an empty database. With --online it also asks Cloudflare
 * (login, the SETUP_CODE secret). Exits 1 when something blocks a deploy.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { unstable_readConfig } from 'wrangler'

export interface Check {
  ok: boolean
  /** Failing checks that do not block a deploy (reminders). */
  warning?: boolean
  label: string
  fix?: string
}

const PLACEHOLDER = /^0+(-0+-40+-80+-0+)?$/
/** Cloudflare's compressed Worker size limits (Free, Paid). */
const FREE_LIMIT = 3 * 1024 * 1024
const PAID_LIMIT = 10 * 1024 * 1024

export interface CheckOptions {
  cwd: string
  config?: string
  online?: boolean
}

function wrangler(opts: CheckOptions, args: string[]): string {
  return execFileSync(process.execPath, [path.join(opts.cwd, 'node_modules/wrangler/bin/wrangler.js'), ...args, '--config', opts.config ?? 'wrangler.toml'], {
    cwd: opts.cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
    maxBuffer: 64 * 1024 * 1024,
  })
}

const failure = (e: unknown) => {
  const err = e as { stderr?: string; stdout?: string; message: string }
  return (err.stderr || err.stdout || err.message).trim().split('\n').slice(-6).join('\n')
}

/** The parts of wrangler's resolved configuration these checks read. */
interface WranglerConfig {
  d1_databases: { binding: string; database_name?: string; database_id?: string; migrations_dir?: string }[]
  kv_namespaces: { binding: string; id?: string }[]
  durable_objects: { bindings: { name: string; class_name: string }[] }
  migrations: { new_sqlite_classes?: string[]; new_classes?: string[]; renamed_classes?: { from: string; to: string }[] }[]
  assets?: { directory?: string; binding?: string }
}

/** The D1 and KV ids still hold the placeholders wrangler.toml ships with? */
export function idChecks(config: Pick<WranglerConfig, 'd1_databases' | 'kv_namespaces'>): Check[] {
  const checks: Check[] = []
  const db = config.d1_databases.find((d) => d.binding === 'DB')
  checks.push(
    db?.database_id && !PLACEHOLDER.test(db.database_id)
      ? { ok: true, label: `D1 database id set (${db.database_name})` }
      : { ok: false, label: 'D1 database id is the placeholder', fix: 'run `npx wrangler d1 create gateway` and put the printed database_id into wrangler.toml' }
  )
  const kv = config.kv_namespaces.find((k) => k.binding === 'CACHE')
  checks.push(
    kv?.id && !PLACEHOLDER.test(kv.id)
      ? { ok: true, label: 'KV namespace id set (CACHE)' }
      : { ok: false, label: 'KV namespace id is the placeholder', fix: 'run `npx wrangler kv namespace create CACHE` and put the printed id into wrangler.toml' }
  )

  return checks
}

export function deployChecks(opts: CheckOptions): Check[] {
  const checks: Check[] = []
  const configPath = path.resolve(opts.cwd, opts.config ?? 'wrangler.toml')
  const config = unstable_readConfig({ config: configPath }) as unknown as WranglerConfig

  checks.push(...idChecks(config))
  const db = config.d1_databases.find((d) => d.binding === 'DB')

  const assets = config.assets?.directory ? path.resolve(path.dirname(configPath), config.assets.directory) : undefined
  checks.push(
    assets && existsSync(path.join(assets, 'index.html'))
      ? { ok: true, label: 'console built (assets directory has index.html)' }
      : { ok: true, warning: true, label: 'console not built yet', fix: '`npm run deploy` builds it first (or run `npm run build`)' }
  )

  const out = mkdtempSync(path.join(tmpdir(), 'deploy-check-'))
  try {
    let printed = ''
    try {
      printed = wrangler(opts, ['deploy', '--dry-run', '--outdir', out])
      checks.push({ ok: true, label: 'Worker bundles (wrangler deploy --dry-run)' })
    } catch (e) {
      checks.push({ ok: false, label: 'Worker does not bundle', fix: failure(e) })
    }
    if (printed) {
      const expected = [
        ...config.durable_objects.bindings.map((b) => b.name),
        ...config.d1_databases.map((d) => d.binding),
        ...config.kv_namespaces.map((k) => k.binding),
        ...(config.assets?.binding ? [config.assets.binding] : []),
      ]
      const missing = expected.filter((name) => !printed.includes(`env.${name} `) && !printed.includes(`env.${name}\n`))
      checks.push(missing.length ? { ok: false, label: `bindings missing from the bundle: ${missing.join(', ')}` } : { ok: true, label: `bindings: ${expected.join(', ')}` })

      const bundle = readFileSync(path.join(out, 'index.js'), 'utf8')
      const exported = new Set(
        [...bundle.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
          m[1]!.split(',').map((s) =>
            s
              .trim()
              .split(/\s+as\s+/)
              .pop()!
              .trim()
          )
        )
      )
      const classes = config.durable_objects.bindings.map((b) => b.class_name)
      const notExported = classes.filter((c) => !exported.has(c))
      checks.push(
        notExported.length
          ? { ok: false, label: `Durable Object classes not exported by the Worker: ${notExported.join(', ')}` }
          : { ok: true, label: 'every Durable Object class is exported' }
      )
      const migrated = new Set(config.migrations.flatMap((m) => [...(m.new_sqlite_classes ?? []), ...(m.new_classes ?? []), ...(m.renamed_classes ?? []).map((r) => r.to)]))
      const unmigrated = classes.filter((c) => !migrated.has(c))
      checks.push(
        unmigrated.length
          ? {
              ok: false,
              label: `Durable Object classes without a [[migrations]] entry: ${unmigrated.join(', ')}`,
              fix: 'add them to new_sqlite_classes of a new [[migrations]] tag',
            }
          : { ok: true, label: 'every Durable Object class has a migration' }
      )

      const size = gzipSync(readFileSync(path.join(out, 'index.js'))).length
      const mb = (size / 1024 / 1024).toFixed(2)
      if (size > PAID_LIMIT) checks.push({ ok: false, label: `bundle is ${mb} MB compressed, over the 10 MB limit` })
      else if (size > FREE_LIMIT) checks.push({ ok: true, warning: true, label: `bundle is ${mb} MB compressed: needs the Workers Paid plan (Free allows 3 MB)` })
      else checks.push({ ok: true, label: `bundle is ${mb} MB compressed (within the 3 MB Free limit)` })
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }

  const state = mkdtempSync(path.join(tmpdir(), 'deploy-check-d1-'))
  try {
    wrangler(opts, ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state])
    checks.push({ ok: true, label: `D1 migrations apply to an empty database (${db?.migrations_dir ?? 'migrations'}/)` })
  } catch (e) {
    checks.push({ ok: false, label: 'D1 migrations fail on an empty database', fix: failure(e) })
  } finally {
    rmSync(state, { recursive: true, force: true })
  }

  if (opts.online) {
    try {
      wrangler(opts, ['whoami'])
      checks.push({ ok: true, label: 'logged in to Cloudflare' })
      const secrets = JSON.parse(wrangler(opts, ['secret', 'list', '--format', 'json'])) as { name: string }[]
      checks.push(
        secrets.some((s) => s.name === 'SETUP_CODE')
          ? { ok: true, label: 'SETUP_CODE secret set' }
          : { ok: false, label: 'SETUP_CODE secret missing: nobody could create the root account remotely', fix: 'npx wrangler secret put SETUP_CODE' }
      )
    } catch (e) {
      checks.push({ ok: false, label: 'cannot reach Cloudflare', fix: `npx wrangler login (${failure(e)})` })
    }
  } else {
    checks.push({ ok: true, warning: true, label: 'secrets not checked offline', fix: 'set SETUP_CODE with `npx wrangler secret put SETUP_CODE` (run with --online to check)' })
  }
  return checks
}

export function formatChecks(checks: Check[]): string {
  return checks.map((c) => `${c.ok ? (c.warning ? '!' : '✓') : '✗'} ${c.label}${c.fix && (!c.ok || c.warning) ? `\n    → ${c.fix}` : ''}`).join('\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const checks = deployChecks({ cwd: path.resolve(import.meta.dirname, '../..'), online: process.argv.includes('--online') })
  console.log(formatChecks(checks))
  const blocking = checks.filter((c) => !c.ok).length
  console.log(blocking ? `\n${blocking} thing(s) to fix before \`npm run deploy\`.` : '\nReady for `npm run deploy`.')
  process.exit(blocking ? 1 : 0)
}
