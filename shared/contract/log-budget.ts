/**
 * The size budget of the log table, shared by the worker (retention, settings default) and the
 * console (the settings page shows where the default comes from): the bytes D1 may give the logs
 * and what one row takes, measured on 20,002 rows (10.3 MB table + 2.7 MB for its seven indexes ≈ 650
 * bytes a row). Also the wire shapes of /api/log/retention and /api/log/archive.
 */

/** Bytes of the 10 GB D1 database the log table may take (the rest stays for everything else). */
export const LOG_BUDGET_BYTES = 8_000_000_000
/** Measured bytes per log row, its indexes included. */
export const LOG_ROW_BYTES = 650
/** The default of LogMaxRows: the budget divided by the row size (12,307,692). */
export const DEFAULT_LOG_MAX_ROWS = Math.floor(LOG_BUDGET_BYTES / LOG_ROW_BYTES)
/** Share of LogMaxRows (or of the byte budget) at which root is told. */
export const LOG_BUDGET_WARN_SHARE = 0.8

/** What one retention run did (POST /api/log/retention/run). */
export interface RetentionResult {
  archived: number
  deleted: number
  batches: number
  /** Rows the LogCleanupDays rule and the LogMaxRows rule selected. */
  by_age: number
  by_count: number
  /** false when there is no LOG_ARCHIVE binding: rows were deleted without an archive. */
  archive_enabled: boolean
  /** true when the run stopped at its time budget with rows still to go (the next run continues). */
  more: boolean
  ms: number
}

/** The state of the log table against its budget (GET /api/log/retention). */
export interface RetentionStatus {
  /** Rows in the table by id range (max id − min id + 1): an upper bound of the count, read from the primary key. */
  rows: number
  max_rows: number
  cleanup_days: number
  /** The whole D1 database in bytes, as D1 reports it. */
  db_bytes: number
  budget_bytes: number
  row_bytes: number
  /** The larger of rows / max_rows and db_bytes / budget_bytes. */
  usage: number
  warning: boolean
  archive: { enabled: boolean; objects: number; rows: number; bytes: number; from_ts: number | null; to_ts: number | null }
}

/** One archived object (GET /api/log/archive). */
export interface ArchiveObject {
  key: string
  from_ts: number
  to_ts: number
  min_id: number
  max_id: number
  rows: number
  bytes: number
  created_at: number
}
