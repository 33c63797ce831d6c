#!/usr/bin/env node
/**
 * Serve stack (`node scripts/bench-stack.mjs`): the bare pass-through Worker and the gateway, each
 * served (a) through Miniflare's entry worker and asset router — the old `npm start`, still what
 * LOG_REQUESTS=1 gives — and (b) on a direct workerd socket, the current `npm start`; all four make
 * their upstream call through the direct network binding (serve.mjs directNetwork).
 * Medians of alternating rounds (c=32 req/s, c=1 p50, non-stream, 0 ms mock). Writes the "stack"
 * block of BENCHMARKS.md. Option (env): STACK_ROUNDS (3).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Miniflare, Log, LogLevel, convertV4MiniflareOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { startMockUpstream } from './mock-upstream.mjs'
import { directNetwork } from './serve.mjs'
import { load } from './bench/measure.mjs'
import { chatBody, startBenchGateway } from './bench/gateway.mjs'
import { writeBlock } from './bench/report.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const ROUNDS = Number(process.env.STACK_ROUNDS ?? 3)
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function passthrough(upstream, direct) {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      log: new Log(LogLevel.ERROR),
      telemetry: { enabled: false },
      workers: [
        {
          name: 'passthrough',
          modules: true,
          scriptPath: path.join(root, 'scripts/bench/passthrough-worker.js'),
          compatibilityDate: '2026-11-01',
          bindings: { UPSTREAM: upstream },
          serviceBindings: directNetwork(),
          ...(direct
            ? { unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] }
            : { assets: unstable_getMiniflareWorkerOptions(path.join(root, 'wrangler.toml')).workerOptions.assets }),
        },
      ],
    })
  )
  const entry = await mf.ready
  const url = (direct ? await mf.unsafeGetDirectURL('passthrough') : entry).href.replace(/\/$/, '')
  return { url, stop: () => mf.dispose() }
}

async function main() {
  const mock = await startMockUpstream({ port: 0 })
  const json = (key) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` })
  const bareEntry = await passthrough(mock.url, false)
  const bareDirect = await passthrough(mock.url, true)
  process.env.LOG_REQUESTS = '1'
  const gwEntry = await startBenchGateway(mock.url)
  delete process.env.LOG_REQUESTS
  const gwDirect = await startBenchGateway(mock.url, { build: false })
  const targets = [
    { name: 'bare Worker, entry + asset router', url: bareEntry.url, key: 'bench-fast' },
    { name: 'bare Worker, direct socket', url: bareDirect.url, key: 'bench-fast' },
    { name: 'gateway, entry + asset router (LOG_REQUESTS=1)', url: gwEntry.url, key: gwEntry.keys.fast },
    { name: 'gateway, direct socket (npm start)', url: gwDirect.url, key: gwDirect.keys.fast },
  ]
  for (const t of targets.slice(2))
    for (let i = 0; i < 50; i++) await fetch(`${t.url}/v1/chat/completions`, { method: 'POST', headers: json(t.key), body: chatBody(false) }).then((r) => r.text())
  const raw = Object.fromEntries(targets.map((t) => [t.name, { rps: [], p50: [] }]))
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length])
    for (const t of order) {
      const url = `${t.url}/v1/chat/completions`
      const r32 = await load({ url, connections: 32, duration: 3, headers: json(t.key), body: chatBody(false) })
      const r1 = await load({ url, connections: 1, duration: 2, headers: json(t.key), body: chatBody(false) })
      raw[t.name].rps.push(r32.rps)
      raw[t.name].p50.push(r1.p50)
      console.log(`${t.name.padEnd(40)} ${r32.rps} req/s c=32, p50 c=1 ${r1.p50.toFixed(2)} ms`)
    }
  }
  for (const s of [gwEntry, gwDirect, bareEntry, bareDirect]) await s.stop()
  await mock.stop()
  const L = ['## Serve stack: entry worker or direct socket', '']
  L.push(
    `Measured by \`node scripts/bench-stack.mjs\` on ${new Date().toISOString().slice(0, 10)}: medians of ${ROUNDS} rounds, targets alternating (3 s at c=32, 2 s at c=1; non-stream chat, 0 ms mock). Same noisy shared machine as above: read the ratios.`,
    ''
  )
  L.push('| served as | req/s c=32 | p50 c=1 (ms) |', '|---|---|---|')
  for (const t of targets) L.push(`| ${t.name} | ${median(raw[t.name].rps).toFixed(0)} | ${median(raw[t.name].p50).toFixed(2)} |`)
  L.push('')
  writeBlock('stack', L.join('\n'))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
