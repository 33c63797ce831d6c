/**
 * An import plan in the shape the console sends to /api/import (wire.ts): the dry-run report, the
 * identities checked against the gateway's own rows, and the table writes with their SQL steps
 * named instead of written out (batches: wire-batches.ts). Pure: the console's planner (a Web
 * Worker) and the Worker's tests both use it.
 */
import { defaultPricesWrite } from './map-settings'
import type { ImportPlan, TableWrite } from './plan'
import type { WirePlan, WireReport, WireWrite } from './wire'
import { insertDefaultPrices } from './wire-batches'

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
    defaultPrices: toWireWrite(defaultPricesWrite(), []),
  }
}

/** A gateway without prices gets the built-in table first (imported prices then win), as the CLI does. */
export function withDefaultPrices(writes: WireWrite[], hasPrices: boolean): WireWrite[] {
  return hasPrices ? writes : insertDefaultPrices(writes, toWireWrite(defaultPricesWrite(), []))
}
