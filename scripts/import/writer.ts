/**
 * Turns an import plan into SQL and applies it to D1 through wrangler (`d1 execute --file`, local
 * or --remote), in batch files of bounded size. Every statement is idempotent: upserts on the
 * row's key that never touch wallet-owned balance columns, INSERT OR IGNORE for history, and
 * insert-unless-present for the ledger rows, so a second run changes nothing.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ImportPlan, TableWrite, Value } from './plan'

/** D1 refuses statements over 100 KB; stay well below. */
const MAX_STATEMENT_BYTES = 90_000
/** Statements per file handed to wrangler (one file = one progress step). */
const MAX_FILE_BYTES = 4_000_000

const q = (name: string) => `"${name.replace(/"/g, '""')}"`

export function sqlLiteral(v: Value): string {
  if (v === null) return 'NULL'
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`)
    return String(v)
  }
  return `'${v.replace(/'/g, "''")}'`
}

function tuple(columns: string[], row: Record<string, Value>) {
  return `(${columns.map((c) => sqlLiteral(row[c] ?? null)).join(',')})`
}

/** The statements of one table write, multi-row where the conflict rule allows. */
export function statementsFor(w: TableWrite): string[] {
  const out = [...(w.before ?? [])]
  if (w.rows.length > 0) {
    const columns = Object.keys(w.rows[0]!)
    const cols = columns.map(q).join(',')
    const rule = w.onConflict
    if (rule !== 'ignore' && 'match' in rule) {
      for (const row of w.rows) {
        const values = columns.map((c) => sqlLiteral(row[c] ?? null)).join(',')
        const match = rule.match.map((c) => `${q(c)} = ${sqlLiteral(row[c] ?? null)}`).join(' AND ')
        out.push(
          `INSERT INTO ${q(w.table)} (${cols},"id") SELECT ${values}, max((SELECT coalesce(max(id), 0) FROM ${q(w.table)}), ${rule.idAbove}) + 1 ` +
            `WHERE NOT EXISTS (SELECT 1 FROM ${q(w.table)} WHERE ${match})`
        )
      }
    } else {
      const head = rule === 'ignore' ? `INSERT OR IGNORE INTO ${q(w.table)} (${cols}) VALUES ` : `INSERT INTO ${q(w.table)} (${cols}) VALUES `
      const tail =
        rule === 'ignore'
          ? ''
          : ` ON CONFLICT(${rule.target.map(q).join(',')}) DO ` +
            (rule.update.length ? `UPDATE SET ${rule.update.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}` : 'NOTHING')
      let values: string[] = []
      let size = head.length + tail.length
      for (const row of w.rows) {
        const t = tuple(columns, row)
        if (values.length > 0 && size + t.length + 1 > MAX_STATEMENT_BYTES) {
          out.push(head + values.join(',') + tail)
          values = []
          size = head.length + tail.length
        }
        values.push(t)
        size += t.length + 1
      }
      if (values.length) out.push(head + values.join(',') + tail)
    }
  }
  out.push(...(w.after ?? []))
  return out
}

export function planStatements(plan: ImportPlan): string[] {
  return plan.writes.flatMap(statementsFor)
}

/** Groups statements into file-sized batches. */
export function batches(statements: string[], maxBytes = MAX_FILE_BYTES): string[][] {
  const out: string[][] = []
  let current: string[] = []
  let size = 0
  for (const s of statements) {
    if (current.length > 0 && size + s.length > maxBytes) {
      out.push(current)
      current = []
      size = 0
    }
    current.push(s)
    size += s.length + 2
  }
  if (current.length) out.push(current)
  return out
}

export interface Target {
  remote: boolean
  /** Local state directory (wrangler's --persist-to); the default is .wrangler/state. */
  persistTo?: string
  /** wrangler.toml to read the D1 binding from. */
  config?: string
  cwd: string
}

function wrangler(target: Target, args: string[]): string {
  const bin = path.join(target.cwd, 'node_modules/wrangler/bin/wrangler.js')
  const where = target.remote ? ['--remote'] : ['--local', ...(target.persistTo ? ['--persist-to', target.persistTo] : [])]
  return execFileSync(process.execPath, [bin, 'd1', 'execute', 'DB', ...where, ...(target.config ? ['--config', target.config] : []), '--yes', ...args], {
    cwd: target.cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  })
}

/** Runs one read query against the target and returns its rows. */
export function queryTarget<T = Record<string, unknown>>(target: Target, sql: string): T[] {
  const out = wrangler(target, ['--json', '--command', sql])
  const parsed = JSON.parse(out.slice(out.indexOf('['))) as { results: T[] }[]
  return parsed[0]?.results ?? []
}

/** Applies the statements batch by batch, reporting progress; stops at the first failing batch. */
export function applyStatements(target: Target, statements: string[], progress: (done: number, total: number) => void = () => {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-import-sql-'))
  try {
    const all = batches(statements)
    all.forEach((batch, i) => {
      const file = path.join(dir, `batch-${i}.sql`)
      writeFileSync(file, batch.join(';\n') + ';\n')
      try {
        wrangler(target, ['--file', file])
      } catch (e) {
        const err = e as { stderr?: string; stdout?: string; message: string }
        throw new Error(`batch ${i + 1} of ${all.length} failed (earlier batches are written; fix and re-run, it is idempotent):\n${err.stderr || err.stdout || err.message}`)
      }
      progress(i + 1, all.length)
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
