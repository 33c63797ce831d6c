/**
 * The console's import endpoints with a plan built by the CLI's own mappers from a small one-api
 * source: root only and CSRF-checked, the merge rule of the CLI, batches written idempotently (a
 * re-run changes nothing, not even a balance the wallet has moved since), rows the database refuses
 * reported with their table and id, malformed writes refused with {success:false,message}, and an
 * unfinished task imported as settled (the cron sweep never refunds it a second time).
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { IMPORTED_UNFINISHED } from '../../../shared/import/map-history'
import { buildPlan } from '../../../shared/import/mapping'
import type { SourceDatabase } from '../../../shared/import/source-database'
import type { Row } from '../../../shared/import/sql-dump'
import type { WireWrite } from '../../../shared/import/wire'
import { wireBatches } from '../../../shared/import/wire-batches'
import { toWirePlan, withDefaultPrices } from '../../../shared/import/wire-plan'
import { TestClient, setupRoot, signedInUser } from '../../test/client'
import { ledger, send } from '../../test/factories'
import { pollUnfinishedTasks } from '../../tasks/task-poller'

const BCRYPT = '$2a$10$' + 'abcdefghijklmnopqrstuv'.repeat(2).slice(0, 22) + 'A'.repeat(31)

function source(): SourceDatabase {
  const tables: Record<string, Row[]> = {
    users: [
      {
        id: 20,
        username: 'carol',
        password: BCRYPT,
        display_name: 'Carol',
        role: 1,
        status: 1,
        quota: 7_000_000,
        used_quota: 5,
        request_count: 2,
        group: 'default',
        aff_code: 'C1',
      },
      { id: 21, username: 'dave', password: BCRYPT, display_name: 'Dave', role: 10, status: 1, quota: 300, used_quota: 0, request_count: 0, group: 'default', aff_code: 'D1' },
    ],
    tokens: [
      { id: 30, user_id: 20, key: 'Q'.repeat(48), status: 1, name: 'carol key', expired_time: -1, remain_quota: 0, unlimited_quota: 1 },
      { id: 31, user_id: 99, key: 'R'.repeat(48), status: 1, name: 'orphan', expired_time: -1, remain_quota: 0, unlimited_quota: 1 },
    ],
    channels: [
      {
        id: 40,
        type: 1,
        key: 'sk-imported',
        name: 'imported openai',
        models: 'gpt-4o-mini',
        group: 'default',
        status: 1,
        base_url: 'http://127.0.0.1:3999',
        priority: 0,
        weight: 1,
      },
    ],
    options: [],
    // Carol's upscale was still running when the source stopped; the source settled its 25,000.
    midjourneys: [
      {
        id: 50,
        code: 1,
        user_id: 20,
        action: 'UPSCALE',
        mj_id: 'mj-left-running',
        prompt: 'a dog',
        submit_time: 1_700_000_200_000,
        start_time: 1_700_000_201_000,
        finish_time: 0,
        status: 'IN_PROGRESS',
        progress: '45%',
        fail_reason: '',
        channel_id: 40,
        quota: 25_000,
        token_id: 30,
      },
    ],
  }
  return { format: 'sqlite', tables: new Set(Object.keys(tables)), rows: (t) => tables[t] ?? [], problems: [], close() {} }
}

const plan = () => toWirePlan(buildPlan(source(), { from: 'one-api', now: 1_700_000_000 }), 'sqlite')

async function runImport(root: TestClient, merge = true) {
  const { identities, writes } = plan()
  const start = await root.post('/api/import/start', { merge, identities })
  if (start.status !== 200) return { start, problems: [] as string[] }
  const problems: string[] = []
  for (const batch of wireBatches(withDefaultPrices(writes, start.body.data.hasPrices), 20_000)) {
    const res = await root.post('/api/import/batch', { import_id: start.body.data.importId, writes: batch })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    problems.push(...res.body.data.problems)
  }
  expect((await root.post('/api/import/finish', { import_id: start.body.data.importId })).status).toBe(200)
  return { start, problems }
}

const state = async () => ({
  users: (await env.DB.prepare('SELECT id, username, quota, used_quota, request_count, role FROM users WHERE id >= 20 ORDER BY id').all()).results,
  tokens: (await env.DB.prepare('SELECT id, user_id, key, imported FROM tokens ORDER BY id').all()).results,
  channels: (await env.DB.prepare('SELECT id, type, name FROM channels ORDER BY id').all()).results,
  abilities: (await env.DB.prepare('SELECT count(*) AS n FROM abilities').first())!.n,
  logs: (await env.DB.prepare('SELECT count(*) AS n FROM logs').first())!.n,
  prices: (await env.DB.prepare('SELECT count(*) AS n FROM prices').first())!.n,
})

describe('console import endpoints', () => {
  it('are root only and refuse a missing CSRF token', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('importer')
    const { identities } = plan()
    const anon = new TestClient()
    await anon.get('/api/status')
    for (const path of ['/api/import/check', '/api/import/start', '/api/import/batch', '/api/import/finish']) {
      expect((await anon.post(path, {})).status).toBe(401)
      expect((await user.post(path, {})).status).toBe(403)
    }
    const noCsrf = await root.post('/api/import/check', { merge: true, identities }, { csrf: false })
    expect(noCsrf.status).toBe(403)
    expect(noCsrf.body.success).toBe(false)
  })

  it('needs merge on a gateway with users of its own, then imports idempotently', async () => {
    const root = await setupRoot()
    const { identities } = plan()
    const check = await root.post('/api/import/check', { merge: false, identities })
    expect(check.body.data.ownUsers).toBe(1)
    expect(check.body.data.conflicts[0]).toMatch(/already has 1 user/)
    const refused = await runImport(root, false)
    expect(refused.start.status).toBe(409)
    expect(refused.start.body).toMatchObject({ success: false, message: expect.stringMatching(/Nothing was written/) })
    expect((await root.post('/api/import/check', { merge: true, identities })).body.data.conflicts).toEqual([])

    // An imported key tried before the import is refused; right after it, it works on this isolate.
    const models = () => send('/v1/models', { key: 'Q'.repeat(48) })
    expect((await models()).status).toBe(401)
    const first = await runImport(root)
    expect(first.start.status).toBe(200)
    expect((await models()).status).toBe(200)
    const after = await state()
    expect(after.users).toEqual([
      { id: 20, username: 'carol', quota: 7_000_000, used_quota: 5, request_count: 2, role: 1 },
      { id: 21, username: 'dave', quota: 300, used_quota: 0, request_count: 0, role: 10 },
    ])
    expect(after.tokens).toContainEqual({ id: 30, user_id: 20, key: 'Q'.repeat(48), imported: 1 })
    expect(after.tokens.find((t) => t.id === 31)).toBeUndefined()
    expect(after.channels).toContainEqual({ id: 40, type: 1, name: 'imported openai' })
    expect(after.abilities).toBeGreaterThan(0)
    expect(after.prices).toBeGreaterThan(0)
    const ledger = await env.DB.prepare("SELECT user_id, quota FROM logs WHERE request_id LIKE 'import:balance:%' ORDER BY user_id").all()
    expect(ledger.results.map((r) => r.user_id)).toEqual([20, 21])

    // The wallet moves carol's balance; a re-run changes nothing, that balance included.
    await env.DB.prepare('UPDATE users SET quota = 6_000_000 WHERE id = 20').run()
    const moved = await state()
    const second = await runImport(root)
    expect(second.start.status).toBe(200)
    expect(await state()).toEqual(moved)
  })

  it('imports an unfinished task as settled, so the first cron sweep refunds nothing', async () => {
    const root = await setupRoot()
    expect((await runImport(root)).start.status).toBe(200)
    const task = await env.DB.prepare('SELECT status, progress, fail_reason, quota FROM midjourneys WHERE id = 50').first()
    expect(task).toEqual({ status: 'FAILURE', progress: '100%', fail_reason: `${IMPORTED_UNFINISHED} (was IN_PROGRESS at 45%)`, quota: 25_000 })
    const before = await ledger(20)
    expect(before.quota).toBe(7_000_000)
    const sweep = await pollUnfinishedTasks(env)
    expect(sweep.mj).toBe(0)
    expect(await ledger(20)).toEqual(before)
    const refunds = await env.DB.prepare("SELECT count(*) AS n FROM logs WHERE user_id = 20 AND metadata LIKE '%task_refund%'").first<{ n: number }>()
    expect(refunds!.n).toBe(0)
  })

  it("writes new-api TOTP secrets of imported users, never one for the gateway's own user (issue 36)", async () => {
    const root = await setupRoot()
    const { identities } = plan()
    const { importId } = (await root.post('/api/import/start', { merge: true, identities })).body.data
    const user: WireWrite = {
      table: 'users',
      rows: [{ id: 70, username: 'totpuser', password: '', display_name: 'T', role: 1, status: 1, quota: 0, group: 'default' }],
      onConflict: { target: ['id'], update: ['username'] },
    }
    const secrets: WireWrite = {
      table: 'two_factor',
      rows: [
        { user_id: 70, secret: 'plain:JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', enabled: 1, last_step: 0, created_at: 1 },
        { user_id: 1, secret: 'plain:GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', enabled: 1, last_step: 0, created_at: 1 },
      ],
      onConflict: { target: ['user_id'], update: ['secret', 'enabled', 'last_step'] },
    }
    const res = await root.post('/api/import/batch', { import_id: importId, writes: [user, secrets] })
    expect(res.status).toBe(200)
    expect(res.body.data.problems).toEqual(["two_factor user_id 1: would change the sign-in of the gateway's own user; skipped"])
    const rows = await env.DB.prepare('SELECT user_id, enabled FROM two_factor ORDER BY user_id').all()
    expect(rows.results).toEqual([{ user_id: 70, enabled: 1 }])
  })

  it('reports a row the database refuses with its table and id, and writes the others', async () => {
    const root = await setupRoot()
    const { identities } = plan()
    const { importId } = (await root.post('/api/import/start', { merge: true, identities })).body.data
    const users: WireWrite = {
      table: 'users',
      rows: [
        { id: 60, username: 'twin', password: '', display_name: 'A', role: 1, status: 1, quota: 0, group: 'default' },
        { id: 61, username: 'twin', password: '', display_name: 'B', role: 1, status: 1, quota: 0, group: 'default' },
        { id: 62, username: 'single', password: '', display_name: 'C', role: 1, status: 1, quota: 0, group: 'default' },
        { id: 1, username: 'not-root', password: '', display_name: 'X', role: 100, status: 1, quota: 0, group: 'default' },
      ],
      onConflict: { target: ['id'], update: ['username', 'display_name'] },
    }
    const res = await root.post('/api/import/batch', { import_id: importId, writes: [users] })
    expect(res.status).toBe(200)
    expect(res.body.data.applied).toBe(2)
    expect(res.body.data.problems).toEqual(["users id 1: would replace the gateway's own user; skipped", expect.stringMatching(/^users id 61: .*UNIQUE.*; skipped$/)])
    const options: WireWrite = {
      table: 'options',
      rows: [
        { key: 'TokenSecret', value: 'stolen' },
        { key: 'RetryTimes', value: 'many' },
        { key: 'RetryTimes', value: '2' },
      ],
      onConflict: { target: ['key'], update: ['value'] },
    }
    const opt = await root.post('/api/import/batch', { import_id: importId, writes: [options] })
    expect(opt.body.data.problems).toEqual(['options TokenSecret: not a setting an import may write; skipped', expect.stringMatching(/^options RetryTimes: .*; skipped$/)])
    const secret = await env.DB.prepare("SELECT value FROM options WHERE key = 'TokenSecret'").first<{ value: string }>()
    expect(secret?.value).not.toBe('stolen')
    expect((await env.DB.prepare("SELECT value FROM options WHERE key = 'RetryTimes'").first<{ value: string }>())?.value).toBe('2')
    const names = (await env.DB.prepare('SELECT id, username FROM users ORDER BY id').all()).results
    expect(names).toEqual([
      { id: 1, username: 'root' },
      { id: 60, username: 'twin' },
      { id: 62, username: 'single' },
    ])
  })

  it('refuses malformed writes with {success:false,message}', async () => {
    const root = await setupRoot()
    const { identities } = plan()
    const { importId } = (await root.post('/api/import/start', { merge: true, identities })).body.data
    const send = (w: Partial<WireWrite>, id = importId) => root.post('/api/import/batch', { import_id: id, writes: [{ table: 'users', rows: [], onConflict: 'ignore', ...w }] })
    const cases: [Promise<Awaited<ReturnType<typeof send>>>, RegExp][] = [
      [send({ table: 'sessions' }), /not a table an import writes/],
      [send({ rows: [{ id: 70, nickname: 'x' }] }), /unknown column\(s\) nickname/],
      [send({ rows: [{ 'id; DROP TABLE users': 1 }] }), /Invalid key/],
      [send({ onConflict: { target: ['id'], update: ['quota'] } }), /belong to the wallet/],
      [send({ table: 'tokens', derive: 'group-ratio' }), /group-ratio follows user_groups only/],
      [send({}, 'A'.repeat(24)), /Unknown or expired import/],
    ]
    for (const [pending, message] of cases) {
      const res = await pending
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ success: false, message: expect.stringMatching(message) })
    }
    expect((await root.post('/api/import/batch', { import_id: importId, writes: 'nope' })).body.success).toBe(false)
  })
})
