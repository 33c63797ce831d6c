/**
 * Applies an import plan's SQL (shared/import/statements.ts) to D1 through wrangler (`d1 execute --file`, local
 * or --remote), in batch files of bounded size. Every statement is idempotent, so a second run
 * changes nothing.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** Statements per file handed to wrangler (one file = one progress step). */
const MAX_FILE_BYTES = 4_000_000

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
