/**
 * Vitest globalSetup of the e2e project: applies the real migrations once into a template of fresh
 * local state (scripts/test-state.ts; tests copy it for their own servers through
 * `inject('migratedState')`), starts the mock upstream and the real gateway (bundled Worker on
 * workerd with a copy of that fresh state), and provides their URLs to tests through
 * `inject('gatewayUrl')` / `inject('mockUrl')`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
// @ts-expect-error plain ESM script without types
import { startServer } from './serve.mjs'
// @ts-expect-error plain ESM script without types
import { startMockUpstream } from './mock-upstream.mjs'
import { applyMigrations, copyState } from './test-state'

declare module 'vitest' {
  export interface ProvidedContext {
    gatewayUrl: string
    mockUrl: string
  }
}

export default async function setup(project: TestProject) {
  const template = mkdtempSync(path.join(tmpdir(), 'gateway-e2e-migrated-'))
  applyMigrations(template)
  project.provide('migratedState', template)
  const persistDir = copyState(template, 'gateway-e2e-')
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
    rmSync(template, { recursive: true, force: true })
  }
}
