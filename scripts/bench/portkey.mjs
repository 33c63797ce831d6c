/**
 * Portkey's open-source gateway (`@portkey-ai/gateway`, pinned) as a benchmark target: installed on
 * demand into .bench-cache/ (gitignored; never a dependency of this project), run headless on Node
 * with the same mock upstream behind it (OpenAI provider with a custom host).
 *
 * On Node ≥ 20 its OpenAI pass-through appends headers to the `fetch` answer, whose headers undici
 * makes immutable ("TypeError: immutable", every request 500s); portkey-fetch-shim.mjs hands it a
 * copy with mutable headers instead (one extra Response object per upstream call, counted against
 * Portkey).
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const PORTKEY_VERSION = '1.15.2'
const dir = path.join(root, '.bench-cache', `portkey-${PORTKEY_VERSION}`)
const entry = path.join(dir, 'node_modules/@portkey-ai/gateway/build/start-server.js')

function ensureInstalled() {
  if (existsSync(entry)) return
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'package.json'), '{ "private": true }\n')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  execFileSync(npm, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--ignore-scripts', `@portkey-ai/gateway@${PORTKEY_VERSION}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
}

/** Starts Portkey on `port`; resolves once it answers. `headers(key)` are what a client sends it. */
export async function startPortkey(mockUrl, port) {
  ensureInstalled()
  const child = spawn(process.execPath, ['--import', path.join(root, 'scripts/bench/portkey-fetch-shim.mjs'), entry, `--port=${port}`, '--headless'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  const headers = (key) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${mockUrl}/v1` })
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/`)
      break
    } catch {
      if (i > 100) throw new Error('Portkey did not start')
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  return {
    url,
    pid: child.pid,
    headers,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve)
        child.kill('SIGTERM')
      }),
  }
}
