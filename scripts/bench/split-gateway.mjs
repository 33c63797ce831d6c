/**
 * The benchmark gateway split over two workerd processes, so the gateway's own CPU can be read from
 * the kernel apart from its state: a "state" process runs the same bundle with every Durable Object
 * (wallet, channel health, rate limiter, config version, metrics store, …) and owns D1, KV and R2;
 * the "gateway" process serves /v1 and /api on a direct socket like `npm start`, with its Durable
 * Object bindings pointing at the state process's script and its D1/KV/R2 calls sent there too.
 * Both join a private Miniflare dev registry (a temp directory, not the user's global one) with
 * shared storage: the state process starts first, so it is the storage owner. Calls cross between
 * the processes over workerd's debug port (Miniflare's dev-registry proxy worker in the caller).
 * Bench-only wiring; `npm start` and the tests run one process.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare, Log, LogLevel, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { directNetwork, publicNetwork } from '../serve.mjs'
import { prepareGateway } from './gateway.mjs'
import { pidListeningOn } from './measure.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const STATE_SCRIPT = 'gateway-state'
const GATEWAY_SCRIPT = 'edge-ai-gateway'
const outdir = path.join(root, '.wrangler/build')

/** Neither process serves the console: ASSETS answers 404 (the bench only calls /v1 and /api). */
const NO_ASSETS = { name: 'no-assets', modules: true, script: 'export default { fetch: () => new Response(null, { status: 404 }) }' }

function instance({ persistDir, registryDir, isolated, worker, inspectorPort }) {
  return new Miniflare({
    ...convertV4MiniflareOptions({
      rootPath: root,
      host: '127.0.0.1',
      port: 0,
      cf: false,
      telemetry: { enabled: false },
      log: new Log(LogLevel.ERROR),
      ...(inspectorPort ? { inspectorPort } : {}),
      unsafeDevRegistryPath: registryDir,
      resourcePersistencePath: path.join(persistDir, 'v3'),
      isolatedResourcePersistencePath: path.join(persistDir, isolated),
      workers: [worker, NO_ASSETS],
    }),
    // Not carried by the v4 option converter: D1, KV and R2 of every instance on this registry and
    // persistence path go to one owner, the instance registered first.
    unsafeEnableSharedStorage: true,
  })
}

/**
 * Starts both processes on fresh state (real migrations), prepares the gateway like
 * bench/gateway.mjs (root, channels, price, funded user, keys) through the gateway process, and
 * returns its URL, keys and the pids of both workerd processes.
 */
export async function startSplitGateway(mockUrl, { vars = {}, build = true, inspectorPort } = {}) {
  const persistDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-split-'))
  const registryDir = path.join(persistDir, 'registry')
  mkdirSync(registryDir)
  const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js')
  const env = { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' }
  execFileSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], { cwd: root, stdio: 'ignore', env })
  if (build) execFileSync(process.execPath, [wrangler, 'deploy', '--dry-run', '--minify', '--outdir', outdir], { cwd: root, stdio: 'ignore', env })
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, 'wrangler.toml'))
  const { assets: _assets, ...options } = workerOptions
  const common = {
    ...options,
    bindings: { ...options.bindings, CRITICAL_RATE_LIMIT: '100000', ...vars },
    serviceBindings: { ...options.serviceBindings, [_assets.binding]: NO_ASSETS.name, ...directNetwork(), ...publicNetwork() },
    modules: [{ type: 'ESModule', path: path.join(outdir, 'index.js') }],
    modulesRoot: outdir,
  }
  const state = instance({ persistDir, registryDir, isolated: 'state', worker: { ...common, name: STATE_SCRIPT, cronTriggers: [] } })
  await state.ready
  const gateway = instance({
    persistDir,
    registryDir,
    isolated: 'gateway',
    inspectorPort,
    worker: {
      ...common,
      name: GATEWAY_SCRIPT,
      cronTriggers: [],
      // Every namespace lives in the state process; this one holds only stubs to it.
      durableObjects: Object.fromEntries(Object.entries(options.durableObjects).map(([binding, d]) => [binding, { ...d, scriptName: STATE_SCRIPT }])),
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    },
  })
  await gateway.ready
  const url = (await gateway.unsafeGetDirectURL(GATEWAY_SCRIPT)).href.replace(/\/$/, '')
  const keys = await prepareGateway(url, mockUrl, new Map())
  return {
    url,
    keys,
    /** The workerd process serving /v1: the gateway isolate and the runtime around it. */
    pid: pidListeningOn(Number(new URL(url).port)),
    /** The workerd process holding the Durable Objects and D1 (found by its loopback entry socket). */
    statePid: pidListeningOn(Number((await state.ready).port)),
    d1: () => state.getD1Database('DB'),
    async stop() {
      await gateway.dispose()
      await state.dispose()
      rmSync(persistDir, { recursive: true, force: true })
    },
  }
}
