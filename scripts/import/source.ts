/**
 * Opens what the operator points the importer at — a SQLite database file (one-api/one-hub's
 * default store, read with node:sqlite), a mysqldump / pg_dump text file, or an http(s) URL of
 * either — as one shape: table names and their rows as plain objects.
 */
import { closeSync, openSync, readFileSync, readSync, writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { SourceDatabase } from '../../shared/import/source-database'
import { parseDump, type Row } from '../../shared/import/sql-dump'
import { SQLITE_TABLES_SQL, sqliteTables } from '../../shared/import/sqlite-tables'

const SQLITE_MAGIC = 'SQLite format 3\0'

function isSqliteFile(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(16)
    readSync(fd, head, 0, 16, 0)
    return head.toString('latin1') === SQLITE_MAGIC
  } finally {
    closeSync(fd)
  }
}

async function openSqlite(file: string): Promise<SourceDatabase> {
  // Loaded lazily: node:sqlite prints an "experimental" warning on Node 22 when imported.
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(file, { readOnly: true })
  const names = (db.prepare(SQLITE_TABLES_SQL).all() as { name: string }[]).map((n) => n.name)
  return sqliteTables(
    names,
    (sql) => db.prepare(sql).all() as Row[],
    () => db.close()
  )
}

function openDump(file: string): SourceDatabase {
  const dump = parseDump(readFileSync(file, 'utf8'))
  return {
    format: dump.dialect,
    tables: new Set(dump.tables.keys()),
    rows: (table) => dump.tables.get(table)?.rows ?? [],
    problems: dump.problems,
    close() {},
  }
}

/** Downloads an http(s) source into a temporary file and returns its path. */
async function download(url: string): Promise<string> {
  const res = await fetch(url)
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`)
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-import-'))
  const file = path.join(dir, path.basename(new URL(url).pathname) || 'source')
  writeFileSync(file, Buffer.from(await res.arrayBuffer()))
  return file
}

export async function openSource(pathOrUrl: string): Promise<SourceDatabase> {
  const file = /^https?:\/\//i.test(pathOrUrl) ? await download(pathOrUrl) : pathOrUrl
  return isSqliteFile(file) ? openSqlite(file) : openDump(file)
}
