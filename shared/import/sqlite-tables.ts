/**
 * A one-api / one-hub SQLite database as a SourceDatabase, whatever reads the file: node:sqlite in
 * the CLI (source.ts), sql.js in the console's planner worker (browser/planner-worker.ts). Tables
 * are looked up by lower-case name; browser-safe (no Node imports).
 */
import type { SourceDatabase } from './source-database'
import type { Row } from './sql-dump'

/** The user tables of a SQLite database. */
export const SQLITE_TABLES_SQL = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"

/** `names`: the tables as the file spells them; `selectAll` runs `SELECT * FROM <quoted name>`. */
export function sqliteTables(names: string[], selectAll: (sql: string) => Row[], close: () => void): SourceDatabase {
  const byLower = new Map(names.map((n) => [n.toLowerCase(), n]))
  return {
    format: 'sqlite',
    tables: new Set(byLower.keys()),
    rows(table) {
      const real = byLower.get(table)
      return real ? selectAll(`SELECT * FROM "${real.replace(/"/g, '""')}"`) : []
    },
    problems: [],
    close,
  }
}
