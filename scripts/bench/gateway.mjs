/**
 * The gateway as the benchmarks run it: fresh local state with the real migrations, the bundled
 * Worker on workerd (no dev proxy), a root account, one channel per mock-upstream delay, a price,
 * and unlimited keys of a well-funded user.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from '../serve.mjs'
import { api } from './console-api.mjs'
import { pidListeningOn } from './measure.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const MODEL = 'gpt-4o-mini'

export const chatBody = (stream) =>
  JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Say hello to the benchmark' }], stream, ...(stream ? {} : { max_tokens: 32 }) })

/**
 * `vars` adds Worker variables (e.g. the test-only DO latency); `build: false` reuses the last bundle;
 * `setup(call)` adds what a bench needs more (channels, prices) through the logged-in management API.
 */
export async function startBenchGateway(mockUrl, { inspectorPort, minify, vars = {}, build = true, setup } = {}) {
  const persistDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'))
  execFileSync(process.execPath, [path.join(root, 'node_modules/wrangler/bin/wrangler.js'), 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
  })
  const options = { persistDir, quiet: true, cron: false, inspectorPort, minify, vars: { CRITICAL_RATE_LIMIT: '100000', ...vars } }
  let server = await startServer({ ...options, port: 0, build })
  const url = server.url.href.replace(/\/$/, '')
  const jar = new Map()
  const keys = await prepareGateway(url, mockUrl, jar)
  await setup?.((method, p, body) => api(url, jar, method, p, body))
  return {
    url,
    keys,
    get mf() {
      return server.mf
    },
    /** The workerd process serving it (CPU and memory are read from the kernel's accounting). */
    pid: pidListeningOn(Number(new URL(url).port)),
    /** Stop the server as `npm start` stops (background work gets its grace period) and start it again on the same state and port. */
    async restart() {
      await server.stop()
      server = await startServer({ ...options, port: Number(new URL(url).port), build: false })
      this.pid = pidListeningOn(Number(new URL(url).port))
    },
    async stop() {
      await server.stop()
      rmSync(persistDir, { recursive: true, force: true })
    },
  }
}

/** Root account, a channel per upstream delay, a price, and an unlimited key for a well-funded user. */
export async function prepareGateway(base, mockUrl, jar) {
  await api(base, jar, 'GET', '/api/status')
  await api(base, jar, 'POST', '/api/setup', { username: 'bench', password: 'bench-password-1' })
  await api(base, jar, 'POST', '/api/prices/single', { model: MODEL, type: 'tokens', channel_type: 1, input: 0.075, output: 0.3 }).catch(() => {})
  // No requests-per-minute cap for the benchmark user (the default group allows 600/min).
  const groups = await api(base, jar, 'GET', '/api/user_group/')
  const def = groups.find((g) => g.symbol === 'default')
  await api(base, jar, 'PUT', '/api/user_group/', { id: def.id, symbol: 'default', name: def.name, ratio: 1, api_rate: 0, public: false, enable: true })
  await api(base, jar, 'POST', '/api/user_group/', { symbol: 'slow', name: 'Slow upstream', ratio: 1, api_rate: 0 })
  await api(base, jar, 'POST', '/api/channel/', { type: 8, name: 'fast', key: 'bench-fast', base_url: mockUrl, models: [MODEL], group: ['default'] })
  await api(base, jar, 'POST', '/api/channel/', { type: 8, name: 'slow', key: 'mock-delay-60', base_url: mockUrl, models: [MODEL], group: ['slow'] })
  const me = await api(base, jar, 'GET', '/api/user/self')
  await api(base, jar, 'POST', `/api/user/quota/${me.id}`, { quota: 1e15, remark: 'benchmark' })
  const fast = await api(base, jar, 'POST', '/api/token/', { name: 'bench-fast', unlimited_quota: true })
  const slow = await api(base, jar, 'POST', '/api/token/', { name: 'bench-slow', unlimited_quota: true, group: 'slow' })
  return { fast: fast.key, slow: slow.key }
}
