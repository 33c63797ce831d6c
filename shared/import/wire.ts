/**
 * What the console's import page and the Worker's /api/import routes exchange: the dry-run report
 * the browser computes from the source file, the identities checked against the gateway's own rows,
 * and the table writes sent in batches. No imports, so the console, the Worker and the import
 * scripts all type-check the same file.
 */
export type WireValue = string | number | boolean | null

export interface WireReport {
  source: 'one-api' | 'one-hub'
  format: 'sqlite' | 'mysql' | 'postgres'
  tables: { table: string; read: number; written: number; skipped: number }[]
  problems: string[]
  notes: string[]
}

/** The rows of the plan that may collide with the gateway's own (ids and keys; see target-check). */
export interface WireIdentities {
  users: { id: number; username: string }[]
  tokens: { id: number; key: string }[]
  channels: { id: number; key: string }[]
  redemptions: { id: number; key: string }[]
}

/**
 * One table write (or a slice of one). The SQL around the rows is never sent: the server knows the
 * two derived steps by name and the one clean-up by its channel ids.
 */
export interface WireWrite {
  table: string
  rows: Record<string, WireValue>[]
  onConflict: { target: string[]; update: string[] } | 'ignore' | { match: string[]; idAbove: number }
  /** Delete the routing rows of these channels first (a re-run must not keep removed models). */
  clearAbilitiesOf?: number[]
  /** Derived after the rows: the GroupRatio setting from user_groups, or the daily statistics from the imported logs. */
  derive?: 'group-ratio' | 'statistics-from-logs'
}

/** Answer of POST /api/import/start: the import's id, and whether the target already has prices (else the plan's default prices go in). */
export interface WireImportStarted {
  importId: string
  hasPrices: boolean
}

export interface WireBatchResult {
  /** Rows written (or found unchanged). */
  applied: number
  /** Rows refused by the database, with their table and id; they were skipped. */
  problems: string[]
}

export interface WireCheck {
  /** Reasons the plan must not be written (empty = go ahead). */
  conflicts: string[]
  /** The gateway's users that are not from an earlier import. */
  ownUsers: number
  /** Whether the gateway has prices (without any, the built-in table is written first, as the CLI does). */
  hasPrices: boolean
}

/** A plan as the browser holds it before sending it. */
export interface WirePlan {
  report: WireReport
  identities: WireIdentities
  writes: WireWrite[]
  /** The built-in price table, written first when the gateway has no prices. */
  defaultPrices: WireWrite
}
