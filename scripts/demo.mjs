#!/usr/bin/env node
/**
 * `npm run demo`: against a running local `npm start`, signs in as root and seeds what the README's
 * "Try the relay offline" does by hand — a channel at the mock upstream (`npm run mock-upstream`),
 * the price of its model and an API key — then prints a ready curl command and an `openai` SDK
 * snippet. Local only: it refuses any gateway or mock address that is not loopback.
 *
 * Root credentials: ROOT_USERNAME / ROOT_PASSWORD, or `npm run demo -- <username> <password>`.
 * Options (env): GATEWAY_URL (http://127.0.0.1:8787), MOCK_URL (http://127.0.0.1:3999).
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const MODEL = 'gpt-4o-mini'
const CHANNEL_NAME = 'Local mock (demo)'
const CUSTOM_TYPE = 8 // Custom (OpenAI-compatible)

/** Only this machine: the demo never seeds a deployed instance. */
export function isLoopbackUrl(value) {
  const { hostname } = new URL(value)
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}

/** A cookie-keeping client of the management API (XSRF cookie echoed as X-XSRF-TOKEN). */
function session(base) {
  const cookies = new Map()
  return async function call(method, route, body) {
    const headers = {}
    if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    if (cookies.has('XSRF-TOKEN')) headers['X-XSRF-TOKEN'] = cookies.get('XSRF-TOKEN')
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';')
      const i = pair.indexOf('=')
      cookies.set(pair.slice(0, i), pair.slice(i + 1))
    }
    const json = await res.json().catch(() => ({ success: false, message: `HTTP ${res.status}` }))
    return { status: res.status, ...json }
  }
}

function must(res, what) {
  if (!res.success) throw new Error(`${what} failed: ${res.status} ${res.message}`)
  return res.data
}

export async function runDemo({ gateway, mock, username, password, log = console.log }) {
  for (const url of [gateway, mock]) if (!isLoopbackUrl(url)) throw new Error(`${url} is not on this machine: the demo only seeds a local gateway`)
  const call = session(gateway)
  const status = must(await call('GET', '/api/status'), 'Reading /api/status')
  if (status.setup_needed) throw new Error(`Nobody is root yet: create the root account at ${gateway}/setup first`)
  must(await call('POST', '/api/user/login', { username, password }), 'Signing in as root')

  const prices = must(await call('GET', '/api/prices'), 'Listing prices')
  if (!prices.some((p) => p.model === MODEL)) {
    must(await call('POST', '/api/prices/single', { model: MODEL, type: 'tokens', channel_type: 1, input: 0.075, output: 0.3 }), `Pricing ${MODEL}`)
    log(`Priced ${MODEL} ($0.15 / $0.60 per 1M input / output tokens)`)
  } else log(`${MODEL} already has a price`)

  const existing = must(await call('GET', `/api/channel/?name=${encodeURIComponent(CHANNEL_NAME)}`), 'Listing channels')
  if (!existing.data.some((c) => c.name === CHANNEL_NAME && c.base_url === mock)) {
    must(
      await call('POST', '/api/channel/', { type: CUSTOM_TYPE, name: CHANNEL_NAME, key: 'sk-mock', base_url: mock, models: [MODEL], group: ['default'], test_model: MODEL }),
      'Creating the mock channel'
    )
    log(`Added channel "${CHANNEL_NAME}" → ${mock}`)
  } else log(`Channel "${CHANNEL_NAME}" already points at ${mock}`)

  const token = must(await call('POST', '/api/token/', { name: `demo ${new Date().toISOString().slice(0, 16)}`, unlimited_quota: true, expired_time: -1 }), 'Creating an API key')
  const mockUp = await fetch(`${mock}/v1/models`).then(
    (r) => r.ok,
    () => false
  )
  return { key: token.key, mockUp }
}

export function snippets(gateway, key) {
  const curl = `curl ${gateway}/v1/chat/completions -H "Authorization: Bearer ${key}" \\
  -H 'content-type: application/json' -d '{"model":"${MODEL}","messages":[{"role":"user","content":"hi"}]}'`
  const sdk = `import OpenAI from 'openai'

const client = new OpenAI({ baseURL: '${gateway}/v1', apiKey: '${key}' })
const reply = await client.chat.completions.create({ model: '${MODEL}', messages: [{ role: 'user', content: 'hi' }] })
console.log(reply.choices[0].message.content)`
  return { curl, sdk }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [argUser, argPassword] = process.argv.slice(2)
  const username = argUser ?? process.env.ROOT_USERNAME
  const password = argPassword ?? process.env.ROOT_PASSWORD
  const gateway = (process.env.GATEWAY_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '')
  const mock = (process.env.MOCK_URL ?? 'http://127.0.0.1:3999').replace(/\/+$/, '')
  if (!username || !password) {
    console.error('Root credentials needed: ROOT_USERNAME=… ROOT_PASSWORD=… npm run demo  (or npm run demo -- <username> <password>)')
    process.exit(2)
  }
  try {
    const { key, mockUp } = await runDemo({ gateway, mock, username, password })
    const { curl, sdk } = snippets(gateway, key)
    if (!mockUp) console.log(`\nThe mock upstream does not answer on ${mock}: start it with  npm run mock-upstream`)
    console.log(`\nA ready request:\n\n${curl}\n\nWith the openai SDK (npm install openai):\n\n${sdk}\n`)
  } catch (err) {
    console.error(err instanceof Error ? err.message : err)
    process.exit(1)
  }
}
