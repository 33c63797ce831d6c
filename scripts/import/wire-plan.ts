/**
 * An import plan in the shape the console sends to /api/import (wire.ts): the dry-run report, the
 * identities checked against the gateway's own rows, and the table writes with their SQL steps
 * named instead of written out, then cut into request-sized batches. Pure: the console's planner
 * (a Web Worker) and the Worker's tests both use it.
 */
import { defaultPricesWrite } from './map-settings'
import type { ImportPlan, TableWrite } from './plan'
import type { WireIdentities, WireReport, WireWrite } from './wire'

export interface WirePlan {
  report: WireReport
  identities: WireIdentities
  writes: WireWrite[]
}

/** Keeps each request under the management API's 2 MB body limit with room to spare. */
export const MAX_BATCH_BYTES = 900_000
const MAX_BATCH_ROWS = 5_000

function toWireWrite(w: TableWrite, channelIds: number[]): WireWrite {
  const out: WireWrite = { table: w.table, rows: w.rows, onConflict: w.onConflict }
  if (w.before?.length) {
    if (w.table !== 'abilities') throw new Error(`${w.table}: unexpected statements before the rows`)
    out.clearAbilitiesOf = channelIds
  }
  if (w.after?.length) {
    if (w.table === 'user_groups') out.derive = 'group-ratio'
    else if (w.table === 'logs') out.derive = 'statistics-from-logs'
    else throw new Error(`${w.table}: unexpected statements after the rows`)
  }
  return out
}

const rowsOf = (plan: ImportPlan, table: string) => plan.writes.filter((w) => w.table === table).flatMap((w) => w.rows)

export function toWirePlan(plan: ImportPlan, format: WireReport['format']): WirePlan {
  const channelIds = rowsOf(plan, 'channels').map((c) => Number(c.id))
  const keyed = (table: string) => rowsOf(plan, table).map((r) => ({ id: Number(r.id), key: String(r.key) }))
  return {
    report: {
      source: plan.source,
      format,
      tables: Object.entries(plan.report).map(([table, r]) => ({ table, ...r })),
      problems: [...plan.problems],
      notes: [...plan.notes],
    },
    identities: {
      users: rowsOf(plan, 'users').map((u) => ({ id: Number(u.id), username: String(u.username) })),
      tokens: keyed('tokens'),
      channels: keyed('channels'),
      redemptions: keyed('redemptions'),
    },
    writes: plan.writes.map((w) => toWireWrite(w, channelIds)),
  }
}

/** A gateway without prices gets the built-in table first (imported prices then win), as the CLI does. */
export function withDefaultPrices(writes: WireWrite[], hasPrices: boolean): WireWrite[] {
  if (hasPrices) return writes
  const at = writes.findIndex((w) => w.table === 'prices')
  const out = [...writes]
  out.splice(at < 0 ? out.length : at, 0, toWireWrite(defaultPricesWrite(), []))
  return out
}

/**
 * Cuts the writes into batches of at most `maxBytes` of JSON. A write split over several batches
 * clears the abilities with its first slice only; the derived steps run after each slice (they
 * recompute from the table, so the last run leaves the complete result).
 */
export function wireBatches(writes: WireWrite[], maxBytes = MAX_BATCH_BYTES): WireWrite[][] {
  const out: WireWrite[][] = []
  let current: WireWrite[] = []
  let size = 0
  const flush = () => {
    if (current.length) out.push(current)
    current = []
    size = 0
  }
  for (const w of writes) {
    const head = JSON.stringify({ ...w, rows: [] }).length
    let slice: WireWrite = { ...w, rows: [] }
    let sliceSize = head
    const push = () => {
      if (size + sliceSize > maxBytes) flush()
      current.push(slice)
      size += sliceSize
    }
    if (w.rows.length === 0) {
      push()
      continue
    }
    for (const row of w.rows) {
      const n = JSON.stringify(row).length + 1
      if (slice.rows.length > 0 && (sliceSize + n > maxBytes || slice.rows.length >= MAX_BATCH_ROWS)) {
        push()
        flush()
        const { clearAbilitiesOf: _, ...rest } = w
        slice = { ...rest, rows: [] }
        sliceSize = head
      }
      slice.rows.push(row)
      sliceSize += n
    }
    push()
  }
  flush()
  return out
}
