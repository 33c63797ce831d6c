#!/usr/bin/env node
/**
 * Production-like local server (`npm start`): bundles the Worker with wrangler, then runs it on
 * workerd through Miniflare with the bindings of wrangler.toml, local persistent D1/KV/DO state in
 * .wrangler/state (the same place `wrangler d1 migrations apply --local` writes), the console as
 * static assets, and the cron triggers fired on schedule. No dev proxy, inspector or live reload:
 * that path is `npm run dev`.
 *
 * Serve stack: the port is a direct workerd socket on the Worker itself (Miniflare's
 * `unsafeDirectSockets`), so no entry or asset-router worker runs in front of `/v1` and `/api`.
 * The Worker sends every path that is not its own to its ASSETS binding (worker/lib/self-hosted.ts),
 * which here is a second, assets-only worker with wrangler.toml's [assets] (SPA fallback, _headers).
 * Miniflare's own entry socket stays on a random loopback port for its internal use (cron,
 * bindings from Node); nothing is served there. LOG_REQUESTS=1 serves through that entry worker
 * instead, which prints a line per request (slower: two more workers on every request).
 * Relay calls to suppliers leave through workerd's own network service (directNetwork() below),
 * not through Miniflare's outbound interceptor worker; calls to URLs users supply (task hooks)
 * through one that reaches public addresses only (publicNetwork()).
 *
 * Options (env): PORT (8787), HOST (127.0.0.1), PERSIST_DIR (.wrangler/state), BASE_PATH (serve
 * the console and API under a sub-path such as /gw: worker/lib/base-path.ts),
 * VARS as JSON to override [vars] (the test server raises CRITICAL_RATE_LIMIT), NO_CRON=1,
 * LOG_REQUESTS=1, SETUP_CODE (otherwise a random one per start; printed in the setup link while
 * setup is pending), SETUP_CODE_ALWAYS=1 (require the code even from loopback; implied when HOST is
 * not loopback).
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import tls from 'node:tls'
import { fileURLToPath } from 'node:url'
import { Miniflare, Log, LogLevel, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const STOP_GRACE_MS = 500

export async function startServer({
  port = Number(process.env.PORT ?? 8787),
  host = process.env.HOST ?? '127.0.0.1',
  persistDir = process.env.PERSIST_DIR ?? path.join(root, '.wrangler/state'),
  vars = process.env.VARS ? JSON.parse(process.env.VARS) : {},
  cron = process.env.NO_CRON !== '1',
  quiet = false,
  /** Re-bundle the Worker first (false reuses .wrangler/build from an earlier start). */
  build = true,
  /** Open the V8 inspector on this port (the CPU profile script uses it, with minify off). */
  inspectorPort,
  minify = true,
  /** Serve through Miniflare's entry worker, which logs every request (off the fast path otherwise). */
  logRequests = process.env.LOG_REQUESTS === '1',
} = {}) {
  // The secret of the graceful stop (worker/lib/self-hosted.ts): new for every start.
  const drainToken = randomBytes(18).toString('base64url')
  vars = { ...vars, SELF_HOSTED_DRAIN_TOKEN: drainToken }
  const outdir = path.join(root, '.wrangler/build')
  if (build)
    execFileSync(process.execPath, [path.join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', ...(minify ? ['--minify'] : []), '--outdir', outdir], {
      cwd: root,
      stdio: quiet ? 'ignore' : ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    })
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, 'wrangler.toml'))
  const { assets, ...gatewayOptions } = workerOptions
  const direct = !logRequests
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      rootPath: root,
      // With the direct socket, Miniflare's entry only serves its own calls from Node: loopback, any port.
      host: direct ? '127.0.0.1' : host,
      port: direct ? 0 : port,
      resourcePersistencePath: path.join(persistDir, 'v3'),
      telemetry: { enabled: false },
      // No request.cf lookup from the network at start (works offline; request.cf gets Miniflare's defaults).
      cf: false,
      ...(inspectorPort ? { inspectorPort } : {}),
      log: new Log(quiet ? LogLevel.ERROR : LogLevel.INFO),
      workers: direct
        ? [
            {
              ...gatewayOptions,
              bindings: { ...gatewayOptions.bindings, ...vars },
              serviceBindings: { ...gatewayOptions.serviceBindings, [assets.binding]: ASSETS_WORKER, ...directNetwork(), ...publicNetwork() },
              modules: [{ type: 'ESModule', path: path.join(outdir, 'index.js') }],
              modulesRoot: outdir,
              unsafeDirectSockets: [{ host, port }],
            },
            assetsWorker(assets, workerOptions.compatibilityDate),
          ]
        : [
            {
              ...workerOptions,
              bindings: { ...workerOptions.bindings, ...vars },
              serviceBindings: { ...workerOptions.serviceBindings, ...directNetwork(), ...publicNetwork() },
              modules: [{ type: 'ESModule', path: path.join(outdir, 'index.js') }],
              modulesRoot: outdir,
            },
          ],
    })
  )
  const entry = await mf.ready
  const url = direct ? await mf.unsafeGetDirectURL(workerOptions.name) : entry
  let timer
  if (cron) {
    const crons = workerOptions.triggers?.crons ?? ['*/5 * * * *']
    timer = startCronTicker(mf, crons)
  }
  return {
    url,
    mf,
    async stop() {
      if (timer) clearInterval(timer)
      // Refuse new requests first (503), then give the requests in flight and the background work
      // their answers scheduled (credit-lease reports that charge them) a moment to reach the
      // Durable Objects, which keep it across the restart: nothing served goes unpaid.
      await fetch(new URL('/__serve/drain', url), { method: 'POST', headers: { 'x-serve-drain': drainToken } }).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS))
      await mf.dispose()
    },
  }
}

const ASSETS_WORKER = 'console-assets'

/**
 * This Miniflare sends a Worker's global `fetch` through an outbound interceptor, a JS worker that
 * copies every request's headers and fetches again: a quarter of a relay request's CPU on the
 * benchmark. The relay's calls to suppliers use this binding instead (worker/env.ts): workerd's own
 * network service, allowed the same addresses and trusting the same certificates as Miniflare's
 * default outbound (Node's roots on Windows, where workerd finds none; NODE_EXTRA_CA_CERTS for a
 * company proxy), read when the server starts. Exported so the benchmark's bare pass-through
 * Worker gets the same stack.
 */
export function directNetwork() {
  return {
    DIRECT_NETWORK: { network: { allow: ['public', 'private', '240.0.0.0/4'], tlsOptions: { trustBrowserCas: true, trustedCertificates: trustedCertificates() } } },
  }
}

/**
 * The binding the gateway calls URLs its users supply through (task hooks, worker/tasks/client-hook.ts):
 * workerd's network service limited to public addresses, so a hook whose DNS name resolves to a
 * loopback, private or link-local address is refused by workerd itself, whatever the URL guard let
 * through. Same certificates as directNetwork().
 */
export function publicNetwork() {
  return { PUBLIC_NETWORK: { network: { allow: ['public'], tlsOptions: { trustBrowserCas: true, trustedCertificates: trustedCertificates() } } } }
}

function trustedCertificates() {
  const certs = process.platform === 'win32' ? [...tls.rootCertificates] : []
  const extra = process.env.NODE_EXTRA_CA_CERTS
  if (extra) {
    try {
      certs.push(...(readFileSync(extra, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []))
    } catch {
      // An unreadable file: Node itself only warns, and the browser CAs still apply.
    }
  }
  return certs
}

/**
 * The target of the gateway's ASSETS binding: a worker with wrangler.toml's [assets] whose own code
 * only hands requests to the asset server (what the binding does on Cloudflare).
 */
function assetsWorker(assets, compatibilityDate) {
  // No run_worker_first here: every request this worker gets is meant for the assets.
  const { run_worker_first: _ignored, routerConfig: _router, ...rest } = assets
  return {
    name: ASSETS_WORKER,
    compatibilityDate,
    modules: true,
    script: 'export default { fetch: (request, env) => env.ASSETS.fetch(request) }',
    assets: rest,
  }
}

/** Fires the scheduled handler for each cron expression whose minute matches (minute/hour fields only). */
function startCronTicker(mf, crons) {
  const matches = (field, value) =>
    field === '*' ||
    field.split(',').some((part) => {
      const step = part.match(/^\*\/(\d+)$/)
      return step ? value % Number(step[1]) === 0 : Number(part) === value
    })
  let lastMinute = -1
  return setInterval(async () => {
    const now = new Date()
    const minute = Math.floor(now.getTime() / 60000)
    if (minute === lastMinute) return
    lastMinute = minute
    for (const cron of crons) {
      const [m, h] = cron.split(/\s+/)
      if (matches(m, now.getUTCMinutes()) && matches(h, now.getUTCHours())) {
        try {
          const worker = await mf.getWorker()
          await worker.scheduled({ cron, scheduledTime: now })
        } catch (err) {
          console.error(`cron ${cron} failed:`, err)
        }
      }
    }
  }, 5000)
}

/** Loopback hosts: only processes on this machine can reach the server. */
const isLoopbackHost = (host) => host === 'localhost' || host === '::1' || /^127\./.test(host)

/**
 * The lines a newcomer needs: console, API base URL and, while nobody is root yet, the setup link
 * with this run's setup code and a pointer to the README's offline trial.
 */
async function printWelcome(base, setupCode) {
  let setupNeeded = false
  try {
    const res = await fetch(`${base}/api/status`)
    setupNeeded = Boolean((await res.json()).data?.setup_needed)
  } catch (err) {
    console.error(`Could not read ${base}/api/status:`, err)
  }
  console.log(`Gateway and console ready on ${base}`)
  console.log(`  Console:       ${base}/`)
  console.log(`  API base URL:  ${base}/v1   (OpenAI-compatible; keys are created under Tokens)`)
  if (setupNeeded) {
    console.log(`  Create root:   ${base}/setup?code=${encodeURIComponent(setupCode)}`)
    console.log('  First time? README.md → "Try the relay offline" gets you to a first answer from a local mock supplier.')
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const host = process.env.HOST ?? '127.0.0.1'
  // A one-time setup code per start (or env SETUP_CODE): a setup request that does not come from
  // this machine needs it. On a public interface the loopback address cannot be trusted (a client
  // could claim it), so every setup then needs the code.
  const setupCode = process.env.SETUP_CODE || randomBytes(12).toString('base64url')
  const vars = {
    ...(process.env.VARS ? JSON.parse(process.env.VARS) : {}),
    SETUP_CODE: setupCode,
    // The sub-path to serve under, from the environment like the other options (worker/lib/base-path.ts).
    ...(process.env.BASE_PATH ? { BASE_PATH: process.env.BASE_PATH } : {}),
    // Also on request (SETUP_CODE_ALWAYS=1), e.g. behind a reverse proxy on this machine.
    ...(isLoopbackHost(host) && process.env.SETUP_CODE_ALWAYS !== '1' ? {} : { SETUP_CODE_ALWAYS: '1' }),
    // The direct socket passes a client's CF-Connecting-IP through and knows no peer address: the
    // Worker replaces the header with what is known (worker/lib/self-hosted.ts). Tests leave this
    // unset to play remote clients with the header.
    SELF_HOSTED_CLIENT_IP: isLoopbackHost(host) ? '127.0.0.1' : 'unknown',
  }
  const server = await startServer({ host, vars })
  const basePath = (process.env.BASE_PATH ?? '').trim().replace(/\/+$/, '')
  await printWelcome(`${server.url.href.replace(/\/$/, '')}${basePath}`, setupCode)
  const shutdown = async () => {
    await server.stop()
    process.exit(0)
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}
