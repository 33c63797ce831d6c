/**
 * The console's import planner, run in a Web Worker so a big database never freezes the page: reads
 * the chosen file — a SQLite database with sql.js (its WebAssembly bundled by Vite, no CDN) or a
 * mysqldump / pg_dump text with the CLI's dump parser — and builds the plan with the CLI's own
 * mappers (mapping.ts), answered in the wire shape the /api/import routes take.
 */
import initSqlJs, { type Database, type SqlValue as SqliteValue } from 'sql.js'
import wasmUrl from 'sql.js/dist/sql-wasm-browser.wasm?url'
import { buildPlan } from '../mapping'
import type { SourceDatabase } from '../source-database'
import { parseDump, type Row, type SqlValue } from '../sql-dump'
import { SQLITE_TABLES_SQL, sqliteTables } from '../sqlite-tables'
import { toWirePlan } from '../wire-plan'
import type { PlannerRequest, PlannerResponse } from './planner-protocol'

const SQLITE_MAGIC = 'SQLite format 3\0'

const cell = (v: SqliteValue): SqlValue => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v)

function sqliteSource(db: Database): SourceDatabase {
  const names = (db.exec(SQLITE_TABLES_SQL)[0]?.values ?? []).map((v) => String(v[0]))
  const selectAll = (sql: string): Row[] => {
    const result = db.exec(sql)[0]
    if (!result) return []
    return result.values.map((values) => Object.fromEntries(result.columns.map((c, i) => [c, cell(values[i] ?? null)])) as Row)
  }
  return sqliteTables(names, selectAll, () => db.close())
}

async function open(file: ArrayBuffer): Promise<SourceDatabase> {
  const bytes = new Uint8Array(file)
  if (new TextDecoder('latin1').decode(bytes.subarray(0, 16)) === SQLITE_MAGIC) {
    const SQL = await initSqlJs({ locateFile: () => wasmUrl })
    return sqliteSource(new SQL.Database(bytes))
  }
  const dump = parseDump(new TextDecoder().decode(bytes))
  return { format: dump.dialect, tables: new Set(dump.tables.keys()), rows: (t) => dump.tables.get(t)?.rows ?? [], problems: dump.problems, close() {} }
}

async function plan(req: PlannerRequest): Promise<PlannerResponse> {
  const started = performance.now()
  const db = await open(req.file)
  try {
    const built = buildPlan(db, { from: req.from, withLogs: req.withLogs })
    if (req.merge && req.withLogs) built.notes.push('merge with logs: a history row whose id the gateway already uses is kept as it is (the imported one is skipped)')
    return { ok: true, ms: Math.round(performance.now() - started), ...toWirePlan(built, db.format) }
  } finally {
    db.close()
  }
}

const scope = globalThis as unknown as {
  onmessage: ((e: { data: PlannerRequest }) => void) | null
  postMessage(message: PlannerResponse): void
}

scope.onmessage = (e) => {
  plan(e.data).then(scope.postMessage.bind(scope), (err: Error) => scope.postMessage({ ok: false, message: err.message }))
}
