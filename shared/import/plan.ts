/**
 * The import plan: the rows to write per target table with how a re-run treats rows already
 * present, the per-table report (read, written, skipped) and the problems found. Also the value
 * coercions every mapper shares (SQLite/MySQL 0/1 vs PostgreSQL true/false and 't'/'f', text ids).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import type { Row, SqlValue } from './sql-dump'
import type { SourceKind } from './channel-types'

export type Value = string | number | boolean | null

export interface TableWrite {
  table: string
  rows: Record<string, Value>[]
  /**
   * A row whose key already exists: `update` lists the columns a re-run refreshes (balance columns
   * are never among them — once imported, the wallet owns them); 'ignore' keeps the present row.
   */
  onConflict: { target: string[]; update: string[] } | 'ignore' | WriteOnce
  /** Statements run before the rows (e.g. clearing a derived index of the imported channels). */
  before?: string[]
  /** Statements run after the rows (e.g. deriving a setting from the written table). */
  after?: string[]
}

/**
 * Rows without a natural key (ledger rows): each is inserted only if no row with the same values in
 * `match` exists, with an id above `idAbove` (the source's highest log id, so history imported
 * later keeps its own ids).
 */
export interface WriteOnce {
  match: string[]
  idAbove: number
}

export interface TableReport {
  read: number
  written: number
  skipped: number
}

export class ImportPlan {
  readonly writes: TableWrite[] = []
  readonly problems: string[] = []
  readonly notes: string[] = []
  readonly report: Record<string, TableReport> = {}

  constructor(readonly source: SourceKind) {}

  count(table: string): TableReport {
    return (this.report[table] ??= { read: 0, written: 0, skipped: 0 })
  }

  /** A source row that cannot be imported: reported with its table and id, never dropped silently. */
  skip(table: string, row: Row, why: string) {
    this.count(table).skipped++
    this.problems.push(`${table} id ${row.id ?? '?'}: ${why}; skipped`)
  }

  add(write: TableWrite, reportAs = write.table) {
    this.writes.push(write)
    this.count(reportAs).written += write.rows.length
  }
}

export function int(v: SqlValue | undefined, fallback = 0): number {
  if (v === null || v === undefined || v === '') return fallback
  if (typeof v === 'boolean') return v ? 1 : 0
  const n = typeof v === 'number' ? v : Number(v)
  return Number.isFinite(n) ? Math.trunc(n) : fallback
}

export function num(v: SqlValue | undefined, fallback = 0): number {
  if (v === null || v === undefined || v === '') return fallback
  const n = Number(v)
  return Number.isFinite(n) ? n : fallback
}

export function str(v: SqlValue | undefined): string {
  if (v === null || v === undefined) return ''
  return String(v)
}

export function bool(v: SqlValue | undefined): boolean {
  if (typeof v === 'string') return ['1', 't', 'true', 'y', 'yes'].includes(v.toLowerCase())
  return Boolean(v)
}

/** A soft-deleted row of one-hub (GORM `deleted_at` set). */
export function softDeleted(row: Row): boolean {
  return row.deleted_at !== undefined && row.deleted_at !== null && row.deleted_at !== ''
}

/** A time in milliseconds, whether the source wrote seconds or milliseconds (0 stays 0). */
export function millis(v: SqlValue | undefined): number {
  const n = int(v)
  return n > 0 && n <= 100_000_000_000 ? n * 1000 : n
}

/** Synchronous and runtime-neutral (Node for the CLI, the browser for the console's import page). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)))
}

export function parseJson<T>(text: string): T | undefined {
  if (!text) return undefined
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}
