/**
 * `npm run import` end to end: a one-api SQLite database (built by the fixture helper, its OpenAI
 * channel pointing at the mock upstream) is imported into a fresh local D1; a dry run writes
 * nothing and a second import changes nothing; then the real gateway serves that state: the
 * imported key answers through the official openai SDK and is billed from the imported balance,
 * and the imported user signs in with the old one-api password. A one-hub mysqldump goes the same
 * way, and both of its key styles (59-character signed, 48-character old) answer.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../serve.mjs'
import type {} from '../test-server' // inject('mockUrl') typing
import type {} from '../test-state' // inject('migratedState') typing
import { main } from './cli'
import { writeFileSync } from 'node:fs'
import { ONE_API_KEY, ONE_HUB_OLD_KEY, ONE_HUB_SIGNED_KEY, PASSWORDS, mysqlDump, oneApiTables, oneHubTables, writeSqlite } from './fixtures'
import { queryTarget, type Target } from './writer'

const root = path.resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(path.join(tmpdir(), 'import-e2e-'))
const persistDir = path.join(dir, 'state')
const target: Target = { remote: false, persistTo: persistDir, cwd: root }
const source = path.join(dir, 'one-api.db')
let server: { url: URL; stop(): Promise<void> } | undefined

/** Runs the CLI in-process with its console output captured. */
async function runImport(...args: string[]): Promise<{ code: number; out: string; ms: number }> {
  return runImportOf(source, persistDir, args)
}

async function runImportOf(file: string, into: string, args: string[]): Promise<{ code: number; out: string; ms: number }> {
  const lines: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)))
  const started = Date.now()
  try {
    const code = await main([file, '--persist-to', into, ...args])
    return { code, out: lines.join('\n'), ms: Date.now() - started }
  } finally {
    log.mockRestore()
  }
}

const state = () =>
  queryTarget(
    target,
    `SELECT (SELECT json_group_array(json_array(id, username, quota, used_quota, request_count, role, status)) FROM users) AS users,
            (SELECT count(*) FROM tokens) AS tokens, (SELECT count(*) FROM channels) AS channels, (SELECT count(*) FROM abilities) AS abilities,
            (SELECT count(*) FROM logs) AS logs, (SELECT count(*) FROM prices) AS prices, (SELECT count(*) FROM redemptions) AS redemptions,
            (SELECT count(*) FROM options) AS options`
  )[0]

/** Freshly migrated local state in `dir` (a copy of the global setup's template, scripts/test-state.ts). */
const migrate = (dir: string) => cpSync(inject('migratedState'), dir, { recursive: true })

beforeAll(() => {
  writeSqlite(source, oneApiTables(inject('mockUrl')))
  migrate(persistDir)
})

afterAll(async () => {
  await server?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe('npm run import (one-api SQLite → local D1 → gateway)', () => {
  it('writes nothing on a dry run, imports, and changes nothing on a second run', async () => {
    const dry = await runImport('--dry-run', '--with-logs')
    expect(dry.code).toBe(0)
    expect(dry.out).toContain('nothing was written')
    expect(state()).toMatchObject({ users: '[]', tokens: 0, channels: 0, logs: 0 })

    const first = await runImport('--with-logs')
    expect(first.code).toBe(0)
    console.info(`import of the one-api fixture into local D1: ${first.ms} ms`)
    const after = state()!
    expect(JSON.parse(String(after.users))).toEqual([
      [1, 'root', 450_000_000, 50_000_000, 1200, 100, 1],
      [2, 'alice', 2_000_000, 123_456, 7, 1, 1],
      [3, 'deleted_3f2a', 10, 0, 0, 1, 2],
    ])
    // 3 history rows + one ledger row per user.
    expect(after).toMatchObject({ tokens: 2, channels: 4, abilities: 7, logs: 6, redemptions: 2 })

    const second = await runImport('--with-logs')
    expect(second.code).toBe(0)
    expect(state()).toEqual(after)
  }, 240_000)

  it('serves the imported state: the old key answers through the SDK and is billed, the old password signs in', async () => {
    server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
    const url = server!.url.href.replace(/\/$/, '')

    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: `sk-${ONE_API_KEY}`, maxRetries: 0 })
    const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello after the move' }] })
    expect(reply.choices[0]!.message.content).toMatch(/\S/)
    await expect(new OpenAI({ baseURL: `${url}/v1`, apiKey: `sk-${'x'.repeat(48)}`, maxRetries: 0 }).models.list()).rejects.toMatchObject({ status: 401 })

    const status = await fetch(`${url}/api/status`)
    const xsrfPair = status.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('XSRF-TOKEN='))!
    const headers = { 'Content-Type': 'application/json', Cookie: xsrfPair, 'X-XSRF-TOKEN': xsrfPair.slice('XSRF-TOKEN='.length) }
    const wrong = await fetch(`${url}/api/user/login`, { method: 'POST', headers, body: JSON.stringify({ username: 'root', password: 'not-the-password' }) })
    expect(wrong.status).toBe(401)
    const login = await fetch(`${url}/api/user/login`, { method: 'POST', headers, body: JSON.stringify({ username: 'root', password: PASSWORDS.root }) })
    expect(login.status).toBe(200)
    const session = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('session='))!
    const authed = { ...headers, Cookie: `${xsrfPair}; ${session}` }

    // Billed from the imported balance (the wallet read it from D1 on first use).
    let quota = 450_000_000
    for (let i = 0; i < 40 && quota === 450_000_000; i++) {
      const self = (await (await fetch(`${url}/api/user/self`, { headers: authed })).json()) as { data: { quota: number; used_quota: number } }
      quota = self.data.quota
      if (quota === 450_000_000) await new Promise((r) => setTimeout(r, 250))
    }
    expect(quota).toBeLessThan(450_000_000)
    expect(quota).toBeGreaterThan(449_000_000)
    // The imported price applies: gpt-4o-mini at one-api's ratio 0.075 (input) × 4 (completion).
    const prices = (await (await fetch(`${url}/api/prices`, { headers: authed })).json()) as { data: { model: string; input: number; output: number }[] }
    expect(Array.isArray(prices.data) ? prices.data.find((p) => p.model === 'gpt-4o-mini') : undefined).toMatchObject({ input: 0.075, output: 0.3 })

    // The password was upgraded to the gateway's own hash on that first sign-in.
    const stored = queryTarget<{ password: string }>(target, 'SELECT password FROM users WHERE id = 1')[0]!.password
    expect(stored).toMatch(/^pbkdf2_sha256\$/)
  }, 120_000)

  it('takes a one-hub mysqldump too: its 59-character signed keys and old 48-character keys keep working', async () => {
    await server?.stop()
    server = undefined
    const hubDir = path.join(dir, 'hub-state')
    const dump = path.join(dir, 'one-hub.sql')
    writeFileSync(dump, mysqlDump(oneHubTables(inject('mockUrl'))))
    migrate(hubDir)
    expect((await runImportOf(dump, hubDir, [])).code).toBe(0)
    server = await startServer({ port: 0, persistDir: hubDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
    const url = server!.url.href.replace(/\/$/, '')
    for (const key of [ONE_HUB_SIGNED_KEY, ONE_HUB_OLD_KEY]) {
      const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: `sk-${key}`, maxRetries: 0 })
      const reply = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] })
      expect(reply.choices[0]!.message.content).toMatch(/\S/)
    }
  }, 240_000)
})
