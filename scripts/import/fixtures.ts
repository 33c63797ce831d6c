/**
 * Test helper: builds small one-api and one-hub databases from those projects' table layouts — a
 * one-api SQLite file (node:sqlite), a one-hub mysqldump text and a one-hub pg_dump --inserts text
 * — with users and bcrypt passwords, keys in both styles, channels whose type ids differ between
 * the projects, prices, options, redemptions, logs and Midjourney tasks. Nothing is downloaded.
 */
import bcrypt from 'bcryptjs'
import { DatabaseSync } from 'node:sqlite'

type Cell = string | number | boolean | null
interface Table {
  name: string
  /** [column, SQLite type, MySQL type, PostgreSQL type] */
  columns: [string, string, string, string][]
  rows: Cell[][]
}

export const PASSWORDS = { root: 'old-root-pass', alice: 'alice-secret-1' }
/** one-api: 48 random characters. */
export const ONE_API_KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefghijkl'
/** one-hub's new 59-character form: sqids part, '_', 43-character base64url HMAC. */
export const ONE_HUB_SIGNED_KEY = 'Xk3pQ9rT2vB8nM4_' + 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c'
export const ONE_HUB_OLD_KEY = 'ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210zyxwvutsrqpo'
export const REDEMPTION_CODE = '0123456789abcdef0123456789abcdef'

const I = (name: string): [string, string, string, string] => [name, 'integer', 'bigint', 'bigint']
const T = (name: string): [string, string, string, string] => [name, 'text', 'longtext', 'text']
const F = (name: string): [string, string, string, string] => [name, 'real', 'double', 'double precision']
const B = (name: string): [string, string, string, string] => [name, 'numeric', 'tinyint(1)', 'boolean']

const hash = (p: string) => bcrypt.hashSync(p, 4).replace(/^\$2b\$/, '$2a$') // Go's bcrypt writes $2a$

function users(kind: 'one-api' | 'one-hub'): Table {
  const extra = kind === 'one-hub'
  const columns = [
    I('id'),
    T('username'),
    T('password'),
    T('display_name'),
    I('role'),
    I('status'),
    T('email'),
    T('github_id'),
    T('wechat_id'),
    T('lark_id'),
    T('oidc_id'),
    T('access_token'),
    I('quota'),
    I('used_quota'),
    I('request_count'),
    T('group'),
    T('aff_code'),
    I('inviter_id'),
  ]
  if (extra) columns.push(I('telegram_id'), I('aff_count'), I('aff_quota'), I('created_time'), I('deleted_at'))
  const row = (r: Cell[], e: Cell[]) => (extra ? [...r, ...e] : r)
  return {
    name: 'users',
    columns,
    rows: [
      row(
        [1, 'root', hash(PASSWORDS.root), 'Root', 100, 1, 'root@example.com', '', '', '', '', 'a'.repeat(32), 450_000_000, 50_000_000, 1200, 'default', 'AFF1', 0],
        [0, 2, 1000, 1700000000, null]
      ),
      row(
        [2, 'alice', hash(PASSWORDS.alice), "Alice O'Neil", 1, 1, 'alice@example.com', 'gh-alice', '', '', '', '', 2_000_000, 123_456, 7, 'vip', 'AFF2', 1],
        [555, 0, 0, 1700000100, null]
      ),
      row(
        [3, kind === 'one-api' ? 'deleted_3f2a' : 'bob', hash('x'), 'Gone', 1, kind === 'one-api' ? 3 : 1, '', '', '', '', '', '', 10, 0, 0, 'default', 'AFF3', 0],
        [0, 0, 0, 1700000200, 1700000300]
      ),
    ],
  }
}

function tokens(kind: 'one-api' | 'one-hub'): Table {
  const columns = [
    I('id'),
    I('user_id'),
    T('key'),
    I('status'),
    T('name'),
    I('created_time'),
    I('accessed_time'),
    I('expired_time'),
    I('remain_quota'),
    B('unlimited_quota'),
    I('used_quota'),
  ]
  if (kind === 'one-api') {
    columns.push(T('models'), T('subnet'))
    return {
      name: 'tokens',
      columns,
      rows: [
        [1, 1, ONE_API_KEY, 1, 'root key', 1700000000, 0, -1, 0, true, 0, '', ''],
        [2, 2, 'L'.repeat(48), 1, 'alice key', 1700000000, 0, -1, 1_000_000, false, 5000, 'gpt-4o-mini,gpt-4o', '10.0.0.0/8'],
        [3, 2, 'short', 1, 'broken key', 1700000000, 0, -1, 0, true, 0, '', ''],
      ],
    }
  }
  columns.push(T('group'), T('setting'), I('deleted_at'))
  return {
    name: 'tokens',
    columns,
    rows: [
      [1, 1, ONE_HUB_SIGNED_KEY, 1, 'signed key', 1700000000, 0, -1, 0, true, 0, '', '{"limits":{"limit_model_setting":{"enabled":false,"models":[]}}}', null],
      [2, 2, ONE_HUB_OLD_KEY, 1, 'old key', 1700000000, 0, -1, 3_000, false, 0, 'vip', '{"limits":{"limits_ip_setting":{"enabled":true,"whitelist":["127.0.0.1"]}}}', null],
      [3, 2, 'D'.repeat(48), 1, 'deleted key', 1700000000, 0, -1, 0, true, 0, '', '{}', 1700000500],
    ],
  }
}

function channels(kind: 'one-api' | 'one-hub', mockUrl: string): Table {
  const columns = [
    I('id'),
    I('type'),
    T('key'),
    I('status'),
    T('name'),
    I('weight'),
    I('created_time'),
    T('base_url'),
    T('other'),
    F('balance'),
    T('models'),
    T('group'),
    I('used_quota'),
    T('model_mapping'),
    I('priority'),
  ]
  if (kind === 'one-api') columns.push(T('config'))
  else columns.push(T('tag'), T('test_model'), B('only_chat'), T('plugin'), I('deleted_at'), T('disabled_stream'))
  const x = (a: Cell[], api: Cell[], hub: Cell[]) => [...a, ...(kind === 'one-api' ? api : hub)]
  return {
    name: 'channels',
    columns,
    rows: [
      x(
        [1, 1, 'sk-mock-upstream', 1, 'mock openai', 1, 1700000000, mockUrl, '', 0, 'gpt-4o-mini,gpt-4o', 'default,vip', 0, '', 5],
        [''],
        ['', 'gpt-4o-mini', false, '', null, '["o1"]']
      ),
      // one-api 24 = Gemini (one-hub 25); one-hub 25 = Gemini.
      x(
        [2, kind === 'one-api' ? 24 : 25, 'AIzaFAKE', 1, 'gemini', 1, 1700000000, '', '', 0, 'gemini-2.0-flash', 'default', 0, '{"gemini-flash":"gemini-2.0-flash"}', 0],
        [''],
        ['', '', false, '', null, '[]']
      ),
      // one-api 36 = DeepSeek (one-hub 28); one-hub 28 = DeepSeek.
      x([3, kind === 'one-api' ? 36 : 28, 'sk-deepseek', 2, 'deepseek', 1, 1700000000, '', '', 0, 'deepseek-chat', 'default', 0, '', 0], [''], ['', '', false, '', null, '[]']),
      // one-api 33 = AwsClaude with keys in config; one-hub 19 = 360 (no adapter here).
      x(
        [4, kind === 'one-api' ? 33 : 19, kind === 'one-api' ? 'unused' : 'mj-key', 1, 'misc', 1, 1700000000, '', '', 0, 'claude-3-haiku', 'default', 0, '', 0],
        ['{"region":"us-west-2","ak":"AKIAFAKE","sk":"secretFAKE"}'],
        ['', '', false, '', null, null]
      ),
    ],
  }
}

function options(kind: 'one-api' | 'one-hub'): Table {
  const rows: Cell[][] = [
    ['SystemName', 'Imported Hub'],
    ['QuotaPerUnit', '500000'],
    ['RegisterEnabled', 'false'],
    ['RetryTimes', 'not-a-number'],
    ['SomeOneApiOnlyThing', 'x'],
  ]
  if (kind === 'one-api') {
    rows.push(['ModelRatio', '{"gpt-4o-mini":0.075,"gpt-4o":1.25,"mj_imagine":50}'], ['CompletionRatio', '{"gpt-4o-mini":4}'], ['GroupRatio', '{"default":1,"vip":0.8}'])
  }
  return { name: 'options', columns: [T('key'), T('value')], rows }
}

function redemptions(): Table {
  return {
    name: 'redemptions',
    columns: [I('id'), I('user_id'), T('key'), I('status'), T('name'), I('quota'), I('created_time'), I('redeemed_time')],
    rows: [
      [1, 1, REDEMPTION_CODE, 1, 'welcome', 500_000, 1700000000, 0],
      [2, 2, 'fedcba9876543210fedcba9876543210', 3, 'used one', 100, 1700000000, 1700000900],
    ],
  }
}

function logs(kind: 'one-api' | 'one-hub'): Table {
  const columns = [
    I('id'),
    I('user_id'),
    I('created_at'),
    I('type'),
    T('content'),
    T('username'),
    T('token_name'),
    T('model_name'),
    I('quota'),
    I('prompt_tokens'),
    I('completion_tokens'),
    I('channel_id'),
    B('is_stream'),
  ]
  columns.push(kind === 'one-api' ? I('elapsed_time') : I('request_time'))
  return {
    name: 'logs',
    columns,
    rows: [
      [1, 2, 1700001000, 2, 'consume\nwith newline', 'alice', 'alice key', 'gpt-4o-mini', 1500, 100, 20, 1, true, 850],
      [2, 1, 1700002000, 1, 'top-up 10', 'root', '', '', 5_000_000, 0, 0, 0, false, 0],
      [3, 1, 1700003000, 5, 'channel test', 'root', '', 'gpt-4o-mini', 0, 0, 0, 1, false, 300],
    ],
  }
}

function oneHubExtras(): Table[] {
  return [
    {
      name: 'prices',
      columns: [T('model'), T('type'), I('channel_type'), F('input'), F('output'), B('locked'), T('extra_ratios')],
      rows: [
        ['gpt-4o-mini', 'tokens', 1, 0.075, 0.3, false, '{"cached_tokens":0.5}'],
        ['gpt-4o', 'tokens', 1, 1.25, 5, true, null],
        ['mj_imagine', 'times', 34, 50, 0, false, null],
      ],
    },
    {
      name: 'user_groups',
      columns: [I('id'), T('symbol'), T('name'), F('ratio'), I('api_rate'), B('public'), B('promotion'), I('min'), I('max'), B('enable')],
      rows: [
        [1, 'default', 'Default', 1, 600, true, false, 0, 0, true],
        [2, 'vip', 'VIP', 0.8, 1200, false, false, 0, 0, true],
      ],
    },
    {
      name: 'midjourneys',
      columns: [
        I('id'),
        I('code'),
        I('user_id'),
        T('action'),
        T('mj_id'),
        T('prompt'),
        T('prompt_en'),
        T('description'),
        T('state'),
        I('submit_time'),
        I('start_time'),
        I('finish_time'),
        T('image_url'),
        T('status'),
        T('progress'),
        T('fail_reason'),
        I('channel_id'),
        I('quota'),
      ],
      rows: [
        [1, 1, 2, 'IMAGINE', 'mj-123', 'a cat', 'a cat', '', '', 1700000000123, 1700000001456, 1700000060789, 'https://img/cat.png', 'SUCCESS', '100%', '', 4, 25_000],
        // Left running when the source stopped (the source settled its charge, or never will).
        [2, 1, 2, 'UPSCALE', 'mj-456', 'a dog', 'a dog', '', '', 1700000200000, 1700000201000, 0, '', 'IN_PROGRESS', '45%', '', 4, 25_000],
      ],
    },
    {
      name: 'statistics',
      columns: [
        ['date', 'text', 'date', 'date'],
        I('user_id'),
        I('channel_id'),
        T('model_name'),
        I('request_count'),
        I('quota'),
        I('prompt_tokens'),
        I('completion_tokens'),
        I('request_time'),
      ],
      rows: [['2023-11-14', 2, 1, 'gpt-4o-mini', 3, 4500, 300, 60, 2550]],
    },
    { name: 'payments', columns: [I('id'), T('type'), T('uuid')], rows: [] },
  ]
}

export function oneApiTables(mockUrl = 'http://127.0.0.1:3999'): Table[] {
  return [
    users('one-api'),
    tokens('one-api'),
    channels('one-api', mockUrl),
    options('one-api'),
    redemptions(),
    logs('one-api'),
    { name: 'abilities', columns: [T('group'), T('model'), I('channel_id'), B('enabled'), I('priority')], rows: [['default', 'gpt-4o-mini', 1, true, 5]] },
  ]
}

export function oneHubTables(mockUrl = 'http://127.0.0.1:3999'): Table[] {
  return [users('one-hub'), tokens('one-hub'), channels('one-hub', mockUrl), options('one-hub'), redemptions(), logs('one-hub'), ...oneHubExtras()]
}

export function writeSqlite(file: string, tables: Table[]) {
  const db = new DatabaseSync(file)
  for (const t of tables) {
    db.exec(`CREATE TABLE "${t.name}" (${t.columns.map(([c, type]) => `"${c}" ${type}`).join(', ')})`)
    const insert = db.prepare(`INSERT INTO "${t.name}" VALUES (${t.columns.map(() => '?').join(',')})`)
    for (const r of t.rows) insert.run(...r.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)))
  }
  db.close()
}

const mysqlString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\0/g, '\\0')}'`

/** A dump as mysqldump writes it: conditional comments, backticks, LOCK TABLES, multi-row INSERTs without column lists. */
export function mysqlDump(tables: Table[]): string {
  const out = [
    '-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)',
    '--',
    '-- Host: localhost    Database: one-hub',
    '',
    '/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;',
    '/*!50503 SET NAMES utf8mb4 */;',
    '',
  ]
  for (const t of tables) {
    out.push(`--\n-- Table structure for table \`${t.name}\`\n--\n`, `DROP TABLE IF EXISTS \`${t.name}\`;`)
    out.push(
      `CREATE TABLE \`${t.name}\` (\n${t.columns.map(([c, , my]) => `  \`${c}\` ${my} DEFAULT NULL`).join(',\n')},\n  PRIMARY KEY (\`${t.columns[0]![0]}\`),\n  KEY \`idx_x\` (\`${t.columns[0]![0]}\`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;`
    )
    if (!t.rows.length) continue
    const values = t.rows.map(
      (r) => `(${r.map((v) => (v === null ? 'NULL' : typeof v === 'string' ? mysqlString(v) : typeof v === 'boolean' ? (v ? '1' : '0') : String(v))).join(',')})`
    )
    out.push(`LOCK TABLES \`${t.name}\` WRITE;`, `/*!40000 ALTER TABLE \`${t.name}\` DISABLE KEYS */;`, `INSERT INTO \`${t.name}\` VALUES ${values.join(',')};`, 'UNLOCK TABLES;')
  }
  return out.join('\n') + '\n-- Dump completed\n'
}

/** A dump as `pg_dump --inserts` writes it (and one table as COPY, pg_dump's default). */
export function postgresDump(tables: Table[], copyTable = 'logs'): string {
  const out = [
    '--',
    '-- PostgreSQL database dump',
    '--',
    '',
    'SET statement_timeout = 0;',
    'SET standard_conforming_strings = on;',
    "SELECT pg_catalog.set_config('search_path', '', false);",
    '',
  ]
  for (const t of tables) {
    out.push(
      `CREATE TABLE public.${t.name === 'group' ? '"group"' : t.name} (\n${t.columns.map(([c, , , pg]) => `    ${c === 'group' || c === 'key' ? `"${c}"` : c} ${pg}`).join(',\n')}\n);`,
      ''
    )
  }
  for (const t of tables) {
    if (t.name === copyTable) {
      out.push(`COPY public.${t.name} (${t.columns.map(([c]) => (c === 'group' || c === 'key' ? `"${c}"` : c)).join(', ')}) FROM stdin;`)
      for (const r of t.rows) {
        out.push(
          r.map((v) => (v === null ? '\\N' : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t'))).join('\t')
        )
      }
      out.push('\\.', '')
      continue
    }
    for (const r of t.rows) {
      const vals = r.map((v, i) => {
        if (v === null) return 'NULL'
        if (typeof v === 'boolean') return v ? 'true' : 'false'
        if (typeof v === 'number') return String(v)
        const lit = `'${v.replace(/'/g, "''")}'`
        return t.columns[i]![0] === 'setting' ? `${lit}::jsonb` : lit
      })
      out.push(`INSERT INTO public.${t.name} VALUES (${vals.join(', ')});`)
    }
  }
  return out.join('\n') + '\n--\n-- PostgreSQL database dump complete\n--\n'
}
