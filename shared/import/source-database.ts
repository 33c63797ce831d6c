/**
 * The one shape every reader of a one-api / one-hub database gives the mappers: the CLI's SQLite
 * file and dump reader (scripts/import/source.ts) and the console's planner worker.
 */
import type { Row } from './sql-dump'

export interface SourceDatabase {
  format: 'sqlite' | 'mysql' | 'postgres'
  /** Lower-case table names. */
  tables: Set<string>
  rows(table: string): Row[]
  /** Problems met while reading (unparseable statements, short rows). */
  problems: string[]
  close(): void
}
