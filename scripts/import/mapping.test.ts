/**
 * The importer from source to SQL: channel type ids, the mapping of every table from fixture
 * databases in all three source formats, and the generated SQL applied (twice) to a SQLite database
 * built from the gateway's real migrations.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import bcrypt from 'bcryptjs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { mapChannelType } from '../../shared/import/channel-types'
import { main } from './cli'
import { ONE_API_KEY, ONE_HUB_OLD_KEY, ONE_HUB_SIGNED_KEY, PASSWORDS, REDEMPTION_CODE, mysqlDump, oneApiTables, oneHubTables, postgresDump, writeSqlite } from './fixtures'
import { IMPORTED_UNFINISHED } from '../../shared/import/map-history'
import { defaultPricesWrite } from '../../shared/import/map-settings'
import { buildPlan } from '../../shared/import/mapping'
import { sha256Hex, type ImportPlan } from '../../shared/import/plan'
import { openSource } from './source'
import { planStatements, statementsFor } from '../../shared/import/statements'
import { batches } from './writer'

const dir = mkdtempSync(path.join(tmpdir(), 'import-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function planOf(file: string, withLogs = true): Promise<ImportPlan> {
  const db = await openSource(file)
  try {
    return buildPlan(db, { withLogs, now: 1_800_000_000 })
  } finally {
    db.close()
  }
}

const rowsOf = (plan: ImportPlan, table: string) => plan.writes.filter((w) => w.table === table).flatMap((w) => w.rows)

const oneApiFile = path.join(dir, 'one-api.db')
writeSqlite(oneApiFile, oneApiTables())
const files = {
  sqlite: path.join(dir, 'one-hub.db'),
  mysql: path.join(dir, 'one-hub.mysql.sql'),
  postgres: path.join(dir, 'one-hub.pg.sql'),
}
writeSqlite(files.sqlite, oneHubTables())
writeFileSync(files.mysql, mysqlDump(oneHubTables()))
writeFileSync(files.postgres, postgresDump(oneHubTables()))

describe('channel type ids', () => {
  it.each([
    ['one-api', 24, 25], // Gemini
    ['one-api', 25, 29], // Moonshot
    ['one-api', 28, 30], // Mistral
    ['one-api', 33, 32], // AwsClaude → Bedrock
    ['one-api', 36, 28], // DeepSeek
    ['one-api', 32, 1004], // StepFun
    ['one-api', 44, 45], // SiliconFlow
    ['one-api', 45, 56], // xAI
    ['one-api', 2, 8], // API2D, an OpenAI-compatible reseller
    ['one-api', 14, 14], // same id below 24
    ['one-hub', 25, 25],
    ['one-hub', 28, 28],
    ['one-hub', 56, 56],
  ] as const)('%s type %i → %i', (source, from, to) => {
    expect(mapChannelType(source, from)).toEqual({ type: to })
  })

  it('imports a type without an adapter here as a disabled Custom channel, saying which it was', () => {
    expect(mapChannelType('one-api', 40)).toEqual({ type: 8, unsupported: 'imported from one-api: Doubao (one-api type 40) has no adapter here' })
    expect(mapChannelType('one-hub', 19)).toEqual({ type: 8, unsupported: 'imported from one-hub: type 19 has no adapter here' })
  })
})

describe('one-api SQLite file', () => {
  it('maps users, keys, channels, prices, groups, redemptions and logs', async () => {
    const plan = await planOf(oneApiFile)
    expect(plan.source).toBe('one-api')
    const users = rowsOf(plan, 'users')
    expect(users.map((u) => [u.id, u.username, u.role, u.status, u.quota, u.used_quota, u.request_count, u.group])).toEqual([
      [1, 'root', 100, 1, 450_000_000, 50_000_000, 1200, 'default'],
      [2, 'alice', 1, 1, 2_000_000, 123_456, 7, 'vip'],
      [3, 'deleted_3f2a', 1, 2, 10, 0, 0, 'default'], // one-api status 3 = deleted: kept disabled
    ])
    expect(bcrypt.compareSync(PASSWORDS.alice, String(users[1]!.password))).toBe(true)
    expect(users[0]!.access_token).toBe(sha256Hex('a'.repeat(32)))

    const tokens = rowsOf(plan, 'tokens')
    expect(tokens.map((t) => [t.id, t.key, t.imported, t.unlimited_quota])).toEqual([
      [1, ONE_API_KEY, 1, 1],
      [2, 'L'.repeat(48), 1, 0],
    ])
    expect(JSON.parse(String(tokens[1]!.setting))).toEqual({
      limits: { limit_model_setting: { enabled: true, models: ['gpt-4o-mini', 'gpt-4o'] }, limits_ip_setting: { enabled: true, whitelist: ['10.0.0.0/8'] } },
    })
    expect(plan.problems).toContain('tokens id 3: the key is not a 48- or 59-character one-api/one-hub key (5 characters); skipped')

    const channels = rowsOf(plan, 'channels')
    expect(channels.map((c) => [c.id, c.type, c.status])).toEqual([
      [1, 1, 1],
      [2, 25, 1],
      [3, 28, 2],
      [4, 32, 1],
    ])
    expect(channels[3]!.key).toBe('us-west-2|AKIAFAKE|secretFAKE')
    expect(rowsOf(plan, 'abilities')).toContainEqual({ group: 'vip', model: 'gpt-4o', channel_id: 1, enabled: 1, priority: 5, weight: 1 })
    expect(
      rowsOf(plan, 'abilities')
        .filter((a) => a.channel_id === 3)
        .every((a) => a.enabled === 0)
    ).toBe(true)

    expect(rowsOf(plan, 'prices')).toEqual([
      { model: 'gpt-4o-mini', type: 'tokens', channel_type: 0, input: 0.075, output: 0.3, locked: 0, extra_ratios: null },
      { model: 'gpt-4o', type: 'tokens', channel_type: 0, input: 1.25, output: 1.25, locked: 0, extra_ratios: null },
      { model: 'mj_imagine', type: 'times', channel_type: 0, input: 50, output: 0, locked: 0, extra_ratios: null },
    ])
    expect(plan.problems.some((p) => p.startsWith('prices: one-api had no CompletionRatio for 2 models'))).toBe(true)
    expect(rowsOf(plan, 'user_groups').map((g) => [g.symbol, g.ratio])).toEqual([
      ['default', 1],
      ['vip', 0.8],
    ])
    expect(rowsOf(plan, 'options')).toEqual([
      { key: 'SystemName', value: 'Imported Hub' },
      { key: 'QuotaPerUnit', value: '500000' },
      { key: 'RegisterEnabled', value: 'false' },
    ])
    expect(plan.problems).toContain('options RetryTimes: RetryTimes must be an integer (value "not-a-number"); skipped')
    expect(plan.notes).toContain('options without an equivalent setting here (not imported): SomeOneApiOnlyThing')
    expect(rowsOf(plan, 'redemptions')[0]!.key).toBe(sha256Hex(REDEMPTION_CODE))

    const logs = rowsOf(plan, 'logs')
    expect(logs.slice(0, 3).map((l) => [l.id, l.type, l.request_time, l.is_stream])).toEqual([
      [1, 2, 850, 1],
      [2, 1, 0, 0],
      [3, 4, 300, 0], // one-api's "test" log type has no twin: a system row
    ])
    expect(logs[2]!.content).toBe('[one-api log type 5] channel test')
    // The ledger: one system row per user stating the imported balance.
    expect(logs.slice(3).map((l) => [l.user_id, l.type, l.quota, l.request_id])).toEqual([
      [1, 4, 450_000_000, 'import:balance:1'],
      [2, 4, 2_000_000, 'import:balance:2'],
      [3, 4, 10, 'import:balance:3'],
    ])
  })
})

describe('one-hub in all three formats', () => {
  it('gives the same rows from a SQLite file, a mysqldump and a pg_dump (bar the freshly salted hashes)', async () => {
    const plans = await Promise.all([files.sqlite, files.mysql, files.postgres].map((f) => planOf(f)))
    const comparable = (p: ImportPlan) => p.writes.map((w) => ({ ...w, rows: w.rows.map((r) => ({ ...r, password: r.password ? 'bcrypt' : r.password })) }))
    expect(plans.map((p) => p.source)).toEqual(['one-hub', 'one-hub', 'one-hub'])
    expect(comparable(plans[1]!)).toEqual(comparable(plans[0]!))
    expect(comparable(plans[2]!)).toEqual(comparable(plans[0]!))
    expect(plans[1]!.problems).toEqual(plans[0]!.problems)
  })

  it('turns one-hub key statuses 3 (expired) and 4 (exhausted) into the expiry and quota that already say so', async () => {
    const file = path.join(dir, 'statuses.sql')
    const tables = oneHubTables()
    const tokens = tables.find((t) => t.name === 'tokens')!
    tokens.rows = [
      [10, 1, 'E'.repeat(48), 3, 'expired', 1700000000, 0, 1700000100, 0, true, 0, '', '{}', null],
      [11, 1, 'X'.repeat(48), 4, 'exhausted', 1700000000, 0, -1, 0, false, 500, '', '{}', null],
      [12, 1, 'Y'.repeat(48), 2, 'disabled', 1700000000, 0, -1, 0, true, 0, '', '{}', null],
    ]
    writeFileSync(file, mysqlDump(tables))
    expect(rowsOf(await planOf(file), 'tokens').map((t) => [t.id, t.status, t.expired_time, t.remain_quota, t.unlimited_quota])).toEqual([
      [10, 1, 1700000100, 0, 1],
      [11, 1, -1, 0, 0],
      [12, 2, -1, 0, 1],
    ])
  })

  it('keeps both key styles, skips soft-deleted rows, remaps nothing and keeps Midjourney times in milliseconds', async () => {
    const plan = await planOf(files.mysql)
    expect(rowsOf(plan, 'tokens').map((t) => [t.key, t.group])).toEqual([
      [ONE_HUB_SIGNED_KEY, ''],
      [ONE_HUB_OLD_KEY, 'vip'],
    ])
    expect(ONE_HUB_SIGNED_KEY).toHaveLength(59)
    expect(JSON.parse(String(rowsOf(plan, 'tokens')[1]!.setting))).toEqual({ limits: { limits_ip_setting: { enabled: true, whitelist: ['127.0.0.1'] } } })
    expect(plan.problems).toContain('tokens id 3: deleted in the source; skipped')
    expect(plan.notes).toContain('channels id 1: disabled_stream has no equivalent here and was dropped')
    expect(plan.notes.filter((n) => n.startsWith('channels id'))).toHaveLength(1)
    expect(rowsOf(plan, 'users')[2]).toMatchObject({ username: 'bob', status: 2, telegram_id: 0 })
    expect(rowsOf(plan, 'channels').map((c) => [c.type, c.status, c.status_reason])).toEqual([
      [1, 1, ''],
      [25, 1, ''],
      [28, 2, ''],
      [8, 2, 'imported from one-hub: type 19 has no adapter here'],
    ])
    expect(rowsOf(plan, 'midjourneys')[0]).toMatchObject({ submit_time: 1700000000123, start_time: 1700000001456, finish_time: 1700000060789 })
    // A task the source left running arrives finished, so no sweep here refunds it a second time.
    expect(rowsOf(plan, 'midjourneys')[1]).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      fail_reason: `${IMPORTED_UNFINISHED} (was IN_PROGRESS at 45%)`,
      finish_time: 1700000200000,
      quota: 25_000,
    })
    expect(plan.notes).toContain('midjourneys: 1 unfinished task(s) imported as failed, without a refund (the source gateway settled them)')
    expect(rowsOf(plan, 'prices')[0]).toEqual({
      model: 'gpt-4o-mini',
      type: 'tokens',
      channel_type: 1,
      input: 0.075,
      output: 0.3,
      locked: 0,
      extra_ratios: '{"cached_tokens":0.5}',
    })
    expect(rowsOf(plan, 'user_groups')[1]).toMatchObject({ symbol: 'vip', ratio: 0.8, api_rate: 1200, public: 0 })
    // The daily rollup comes along (dashboards read it), even without --with-logs.
    expect(rowsOf(await planOf(files.mysql, false), 'statistics')).toEqual([
      { date: '2023-11-14', user_id: 2, channel_id: 1, model_name: 'gpt-4o-mini', request_count: 3, quota: 4500, prompt_tokens: 300, completion_tokens: 60, request_time: 2550 },
    ])
  })
})

describe('emails (issue 12: one account per address)', () => {
  it('imports a later user with an address already taken (any case) without the address, and says so', async () => {
    const { ImportPlan } = await import('../../shared/import/plan')
    const { mapUsers } = await import('../../shared/import/map-accounts')
    const plan = new ImportPlan('one-api')
    const users = mapUsers(plan, [
      { id: 1, username: 'first', email: 'Same@x.io' },
      { id: 2, username: 'second', email: 'same@X.io' },
      { id: 3, username: 'third', email: '' },
      { id: 4, username: 'fourth', email: '' },
    ])
    expect(users.map((u) => u.email)).toEqual(['Same@x.io', '', '', ''])
    expect(plan.problems.some((p) => p.startsWith('users id 2:') && p.includes('same@X.io'))).toBe(true)
  })
})

describe('new-api two-factor secrets', () => {
  it('keeps the TOTP secrets of imported users who had 2FA on, marked for sealing, and their unused bcrypt backup codes', async () => {
    const file = path.join(dir, 'new-api-2fa.db')
    const I = (name: string): [string, string, string, string] => [name, 'integer', 'bigint', 'bigint']
    const T = (name: string): [string, string, string, string] => [name, 'text', 'longtext', 'text']
    const twoFas = {
      name: 'two_fas',
      columns: [I('id'), I('user_id'), T('secret'), I('is_enabled'), T('deleted_at')],
      rows: [
        [1, 1, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 1, null],
        [2, 2, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 0, null],
        [3, 999, 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 1, null],
        [4, 2, 'not base32!', 1, null],
      ],
    }
    const hash = `$2a$10$${'N'.repeat(53)}`
    const backup = {
      name: 'two_fa_backup_codes',
      columns: [I('id'), I('user_id'), T('code_hash'), I('is_used'), T('deleted_at')],
      rows: [
        [1, 1, hash, 0, null],
        [2, 1, hash, 1, null],
        [3, 1, 'sha256:abc', 0, null],
        [4, 2, hash, 0, null],
        [5, 1, hash, 0, '2026-01-01'],
      ],
    }
    writeSqlite(file, [...oneApiTables(), twoFas, backup])
    const plan = await planOf(file)
    expect(rowsOf(plan, 'two_factor')).toEqual([{ user_id: 1, secret: 'plain:JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', enabled: 1, last_step: 0, created_at: 1_800_000_000 }])
    expect(plan.report.two_factor).toEqual({ read: 4, written: 1, skipped: 3 })
    // Only the unused bcrypt codes of users whose secret is kept (user 2 had 2FA off).
    expect(rowsOf(plan, 'two_factor_backup_codes')).toEqual([{ id: 1, user_id: 1, code_hash: hash, used_at: 0 }])
    expect(plan.report.two_factor_backup_codes).toEqual({ read: 5, written: 1, skipped: 4 })
    expect(plan.notes.some((n) => n.startsWith('two_fa_backup_codes'))).toBe(false)
  })
})

describe('generated SQL', () => {
  function migratedDb(): DatabaseSync {
    const db = new DatabaseSync(':memory:')
    const migrations = path.resolve(import.meta.dirname, '../../migrations')
    for (const f of readdirSync(migrations)
      .filter((n) => n.endsWith('.sql'))
      .sort())
      db.exec(readFileSync(path.join(migrations, f), 'utf8'))
    return db
  }
  const snapshot = (db: DatabaseSync) =>
    Object.fromEntries(
      ['users', 'tokens', 'channels', 'abilities', 'prices', 'user_groups', 'options', 'redemptions', 'logs', 'midjourneys'].map((t) => [
        t,
        db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all(),
      ])
    ) as { [table: string]: any[] } & { users: any[]; logs: any[]; prices: any[] }

  it('applies to the real schema, and a second run changes nothing', async () => {
    const db = migratedDb()
    const statements = planStatements(await planOf(files.postgres))
    for (const s of statements) db.exec(s)
    const first = snapshot(db)
    for (const s of planStatements(await planOf(files.postgres))) db.exec(s)
    const second = snapshot(db)
    const withoutHashes = (s: ReturnType<typeof snapshot>) => ({ ...s, users: s.users.map((u: any) => ({ ...u, password: '' })) })
    expect(withoutHashes(second)).toEqual(withoutHashes(first))
    expect(first.users).toHaveLength(3)
    expect(first.logs.filter((l: any) => l.request_id.startsWith('import:balance:'))).toHaveLength(3)
    // The ledger rows take ids above the source's history.
    expect(Math.min(...first.logs.filter((l: any) => l.request_id.startsWith('import:balance:')).map((l: any) => l.id))).toBeGreaterThan(3)
    const ratio = db.prepare("SELECT value FROM options WHERE key = 'GroupRatio'").get() as { value: string }
    expect(JSON.parse(ratio.value)).toMatchObject({ default: 1, vip: 0.8 })
    expect(db.prepare("SELECT input, output, locked FROM prices WHERE model = 'gpt-4o'").get()).toEqual({ input: 1.25, output: 5, locked: 1 })
  })

  it('the built-in price table, written before the imported prices, leaves those in place', async () => {
    const db = migratedDb()
    const plan = await planOf(oneApiFile)
    plan.writes.splice(
      plan.writes.findIndex((w) => w.table === 'prices'),
      0,
      defaultPricesWrite()
    )
    for (const s of planStatements(plan)) db.exec(s)
    expect((db.prepare('SELECT count(*) AS n FROM prices').get() as { n: number }).n).toBeGreaterThan(3)
    expect(db.prepare("SELECT input, output FROM prices WHERE model = 'gpt-4o-mini'").get()).toEqual({ input: 0.075, output: 0.3 })
    // The long-context tiers of the built-in table come along as the column's JSON.
    expect(db.prepare("SELECT tier, fee FROM prices WHERE model = 'gemini-2.5-pro'").get()).toEqual({ tier: '{"threshold_tokens":200000,"input":1.25,"output":7.5}', fee: 0 })
  })

  it('rolls the imported one-api logs up into the daily statistics the dashboards read', async () => {
    const db = migratedDb()
    for (const s of planStatements(await planOf(oneApiFile))) db.exec(s)
    expect(db.prepare('SELECT date, user_id, channel_id, model_name, request_count, quota, prompt_tokens, completion_tokens, request_time FROM statistics').all()).toEqual([
      { date: '2023-11-14', user_id: 2, channel_id: 1, model_name: 'gpt-4o-mini', request_count: 1, quota: 1500, prompt_tokens: 100, completion_tokens: 20, request_time: 850 },
    ])
  })

  it('a re-run leaves the balances the wallet has moved since the first import alone', async () => {
    const db = migratedDb()
    for (const s of planStatements(await planOf(oneApiFile))) db.exec(s)
    db.exec('UPDATE users SET quota = quota - 1000, used_quota = used_quota + 1000 WHERE id = 2')
    for (const s of planStatements(await planOf(oneApiFile))) db.exec(s)
    expect(db.prepare('SELECT quota, used_quota FROM users WHERE id = 2').get()).toEqual({ quota: 1_999_000, used_quota: 124_456 })
  })

  it('survives the statement splitter wrangler runs over the batch files, whatever the text holds', async () => {
    const statements = [
      ...planStatements(await planOf(oneApiFile)),
      ...statementsFor({ table: 'logs', rows: [{ id: 99, content: "a; b -- c /* d */ 'e' \\ \n f;" }], onConflict: 'ignore' }),
    ]
    const { unstable_splitSqlQuery } = await import('wrangler')
    expect(unstable_splitSqlQuery(statements.join(';\n') + ';\n')).toEqual(statements)
  })

  it('splits large tables into statements under D1’s size limit and files into batches', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i + 1, content: 'x'.repeat(100) }))
    const statements = statementsFor({ table: 'logs', rows, onConflict: 'ignore' })
    expect(statements.length).toBeGreaterThan(3)
    expect(statements.every((s) => s.length < 100_000)).toBe(true)
    expect(statements.reduce((n, s) => n + (s.match(/\),\(/g)?.length ?? 0) + 1, 0)).toBe(3000)
    expect(batches(statements, 100_000).length).toBeGreaterThan(1)
  })
})

describe('npm run import -- --dry-run', () => {
  it('prints the report and writes nothing', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      expect(await main([files.mysql, '--dry-run'])).toBe(0)
      const out = log.mock.calls.map((c) => String(c[0])).join('\n')
      expect(out).toMatch(/^users\s+3\s+3\s+0$/m)
      expect(out).toMatch(/^tokens\s+3\s+2\s+1$/m)
      expect(out).toContain('logs: 3 rows not imported (add --with-logs)')
      expect(out).toMatch(/Dry run: \d+ statements would be written; nothing was written\./)
    } finally {
      log.mockRestore()
    }
  })

  it('refuses a file that is not a one-api/one-hub database', async () => {
    const file = path.join(dir, 'other.sql')
    writeFileSync(file, 'CREATE TABLE things (id int);\nINSERT INTO things VALUES (1);\n')
    await expect(main([file, '--dry-run'])).rejects.toThrow(/does not look like a one-api or one-hub database/)
  })
})
