#!/usr/bin/env node
/**
 * CPU profile of the gateway under load (`npm run bench:profile`): the benchmark gateway (bundled
 * without minification) runs with the V8 inspector open; after a warm-up, the V8 sampling profiler
 * records every isolate workerd exposes while autocannon drives non-stream chat at c=32 against the
 * 0 ms mock. Self time is grouped by function and by module of the bundle, and written to the
 * "profile" block of BENCHMARKS.md: where the CPU of a gateway request goes.
 *
 * Options (env): PROFILE_SECONDS (8), PROFILE_CONCURRENCY (32), PROFILE_STREAM_EVENTS (N: profile
 * streamed chat answers of N events instead, a `bench-events-<N>` prompt; printed, BENCHMARKS.md
 * left alone).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMockUpstream } from './mock-upstream.mjs'
import { load } from './bench/measure.mjs'
import { chatBody, MODEL, startBenchGateway } from './bench/gateway.mjs'
import { writeBlock } from './bench/report.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 8)
const CONCURRENCY = Number(process.env.PROFILE_CONCURRENCY ?? 32)
const INSPECTOR_PORT = 9239
const STREAM_EVENTS = Number(process.env.PROFILE_STREAM_EVENTS ?? 0)

/** A minimal Chrome DevTools Protocol session over the inspector WebSocket. */
async function cdp(wsUrl) {
  const ws = new WebSocket(wsUrl)
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  let id = 0
  const waiting = new Map()
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data)
    if (msg.id && waiting.has(msg.id)) {
      const { resolve, reject } = waiting.get(msg.id)
      waiting.delete(msg.id)
      if (msg.error) reject(new Error(msg.error.message))
      else resolve(msg.result)
    }
  }
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        waiting.set(++id, { resolve, reject })
        ws.send(JSON.stringify({ id, method, params }))
      }),
    close: () => ws.close(),
  }
}

/** The module a bundled function came from: esbuild's `// worker/relay/tokenizer.ts` markers. */
function moduleIndex(bundle) {
  const marks = []
  const lines = bundle.split('\n')
  lines.forEach((line, i) => {
    const m = line.match(/^\/\/ (\S+\.(?:ts|js|mjs|json))$/)
    if (m) marks.push({ line: i, module: m[1].replace(/^.*node_modules\//, 'node_modules/') })
  })
  return (line) => {
    let lo = 0
    let hi = marks.length - 1
    let found = '(bundle)'
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      if (marks[mid].line <= line) {
        found = marks[mid].module
        lo = mid + 1
      } else hi = mid - 1
    }
    return found
  }
}

function summarise(profile, moduleOf) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map()
  let total = 0
  const deltas = profile.timeDeltas ?? []
  profile.samples.forEach((nodeId, i) => {
    const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000
    self.set(nodeId, (self.get(nodeId) ?? 0) + dt)
    total += dt
  })
  const fns = new Map()
  const modules = new Map()
  for (const [nodeId, ms] of self) {
    const { callFrame: f } = byNode.get(nodeId)
    const special = /^\((idle|program|garbage collector|root)\)$/.test(f.functionName)
    const mod = special ? f.functionName : f.url.endsWith('index.js') ? moduleOf(f.lineNumber) : f.url ? 'runtime' : 'native'
    const key = special ? f.functionName : `${f.functionName || '(anonymous)'} — ${mod}`
    fns.set(key, (fns.get(key) ?? 0) + ms)
    modules.set(mod, (modules.get(mod) ?? 0) + ms)
  }
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n)
  return { total, fns: top(fns, 25), modules: top(modules, 20) }
}

async function main() {
  if (!STREAM_EVENTS || !existsSync(path.join(root, 'console/dist/tokenizer')))
    execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'console/vite.config.ts', '--logLevel', 'error'], {
      cwd: root,
      stdio: 'inherit',
    })
  const mock = await startMockUpstream({ port: 0 })
  const gateway = await startBenchGateway(mock.url, { inspectorPort: INSPECTOR_PORT, minify: false })
  const moduleOf = moduleIndex(readFileSync(path.join(root, '.wrangler/build/index.js'), 'utf8'))
  const request = {
    url: `${gateway.url}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.keys.fast}` },
    body: STREAM_EVENTS
      ? JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: `bench-events-${STREAM_EVENTS}` }], stream: true, stream_options: { include_usage: true } })
      : chatBody(false),
  }
  try {
    await load({ ...request, connections: CONCURRENCY, duration: 3 })
    const targets = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json`)).json()
    const sessions = []
    for (const t of targets.filter((t) => t.webSocketDebuggerUrl)) {
      const s = await cdp(t.webSocketDebuggerUrl.replace('localhost', '127.0.0.1'))
      await s.send('Profiler.enable')
      await s.send('Profiler.setSamplingInterval', { interval: 200 })
      await s.send('Profiler.start')
      sessions.push({ title: t.title, s })
    }
    const run = await load({ ...request, connections: CONCURRENCY, duration: SECONDS })
    const lines = [
      '## CPU profile of the gateway under load',
      '',
      `Measured by \`npm run bench:profile\` (scripts/bench-profile.mjs) on ${new Date().toISOString().slice(0, 10)}: V8 sampling profiler on every workerd isolate while autocannon drove non-stream chat at c=${CONCURRENCY} for ${SECONDS} s against the 0 ms mock (${Math.round(run.rps)} req/s${STREAM_EVENTS ? `, streams of ${STREAM_EVENTS} events` : ''}, unminified bundle). Self time; "(idle)" is time the isolate waited. Isolates idle for more than 95 % of the run are left out. Samples of one isolate can include time the shared thread spent in another, so read the gateway isolate's JS rows, not the native ones, as its CPU.`,
      '',
    ]
    for (const { title, s } of sessions) {
      const { profile } = await s.send('Profiler.stop')
      s.close()
      const sum = summarise(profile, moduleOf)
      // Isolates that slept through the run (KV, cache, mail…) have nothing to say.
      const idle = sum.modules.find(([m]) => m === '(idle)')?.[1] ?? 0
      if (sum.total === 0 || idle / sum.total > 0.95) continue
      const share = (ms) => `${((ms / sum.total) * 100).toFixed(1)} %`
      const perRequest = (ms) => `${((ms / (run.rps * SECONDS)) * 1000).toFixed(0)} µs`
      lines.push(`### Isolate \`${title}\``, '', '| module | self time | per request |', '|---|---|---|')
      for (const [m, ms] of sum.modules) lines.push(`| ${m} | ${share(ms)} | ${perRequest(ms)} |`)
      lines.push('', '| function — module | self time |', '|---|---|')
      for (const [f, ms] of sum.fns) lines.push(`| ${f.replace(/\|/g, '\\|')} | ${share(ms)} |`)
      lines.push('')
      console.log(`\n${title}`)
      for (const [m, ms] of sum.modules.slice(0, 12)) console.log(`  ${share(ms).padStart(7)}  ${perRequest(ms).padStart(7)}  ${m}`)
    }
    if (STREAM_EVENTS) console.log(`\n${lines.join('\n')}`)
    else {
      writeBlock('profile', lines.join('\n'))
      console.log('\nBENCHMARKS.md updated (profile block)')
    }
  } finally {
    await gateway.stop()
    await mock.stop()
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
