/**
 * Vitest globalSetup of the e2e project: starts the mock upstream and the real gateway (bundled
 * Worker on workerd with fresh local state and the real migrations), and provides their URLs to
 * tests through `inject('gatewayUrl')` / `inject('mockUrl')`.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
// @ts-expect-error plain ESM script without types
import { startServer } from './serve.mjs'
// @ts-expect-error plain ESM script without types
import { startMockUpstream } from './mock-upstream.mjs'

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string
    mockUrl: string
  }
}

export default async function setup(project: TestProject) {
  const root = path.resolve(import.meta.dirname, '..')
  const persistDir = mkdtempSync(path.join(tmpdir(), 'gateway-e2e-'))
  execFileSync(process.execPath, [path.join(root, 'node_modules/wrangler/bin/wrangler.js'), 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistDir], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  })
  const mock = await startMockUpstream({ port: 0 })
  const server = await startServer({
    port: 0,
    persistDir,
    quiet: true,
    cron: false,
    // TEST_CLOCK lets tests move the limits' and budgets' clock (root-only POST /api/test/clock, worker/lib/clock.ts).
    vars: { CRITICAL_RATE_LIMIT: '100000', TEST_CLOCK: '1' },
  })
  project.provide('gatewayUrl', server.url.href.replace(/\/$/, ''))
  project.provide('mockUrl', mock.url)
  return async () => {
    await server.stop()
    await mock.stop()
    rmSync(persistDir, { recursive: true, force: true })
  }
}
