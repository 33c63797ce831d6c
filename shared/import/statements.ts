/**
 * The SQL of an import plan, shared by the CLI (wrangler files) and the console's import endpoint
 * (D1 batches): idempotent upserts on each row's key that never touch wallet-owned balance columns,
 * INSERT OR IGNORE for history, and insert-unless-present for the ledger rows. Values are always
 * literals (quoted here); table and column names are quoted identifiers.
 */
import type { ImportPlan, TableWrite, Value } from './plan'

/** D1 refuses statements over 100 KB; stay well below. */
export const MAX_STATEMENT_BYTES = 90_000
export const q = (name: string) => `"${name.replace(/"/g, '""')}"`

export function sqlLiteral(v: Value): string {
  if (v === null) return 'NULL'
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a finite number: ${v}`)
    return String(v)
  }
  return `'${v.replace(/'/g, "''")}'`
}

function tuple(columns: string[], row: Record<string, Value>) {
  return `(${columns.map((c) => sqlLiteral(row[c] ?? null)).join(',')})`
}

/** The statements of one table write, multi-row where the conflict rule allows. */
export function statementsFor(w: TableWrite): string[] {
  const out = [...(w.before ?? [])]
  if (w.rows.length > 0) {
    const columns = Object.keys(w.rows[0]!)
    const cols = columns.map(q).join(',')
    const rule = w.onConflict
    if (rule !== 'ignore' && 'match' in rule) {
      for (const row of w.rows) {
        const values = columns.map((c) => sqlLiteral(row[c] ?? null)).join(',')
        const match = rule.match.map((c) => `${q(c)} = ${sqlLiteral(row[c] ?? null)}`).join(' AND ')
        out.push(
          `INSERT INTO ${q(w.table)} (${cols},"id") SELECT ${values}, max((SELECT coalesce(max(id), 0) FROM ${q(w.table)}), ${rule.idAbove}) + 1 ` +
            `WHERE NOT EXISTS (SELECT 1 FROM ${q(w.table)} WHERE ${match})`
        )
      }
    } else {
      const head = rule === 'ignore' ? `INSERT OR IGNORE INTO ${q(w.table)} (${cols}) VALUES ` : `INSERT INTO ${q(w.table)} (${cols}) VALUES `
      const tail =
        rule === 'ignore'
          ? ''
          : ` ON CONFLICT(${rule.target.map(q).join(',')}) DO ` + (rule.update.length ? `UPDATE SET ${rule.update.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}` : 'NOTHING')
      let values: string[] = []
      let size = head.length + tail.length
      for (const row of w.rows) {
        const t = tuple(columns, row)
        if (values.length > 0 && size + t.length + 1 > MAX_STATEMENT_BYTES) {
          out.push(head + values.join(',') + tail)
          values = []
          size = head.length + tail.length
        }
        values.push(t)
        size += t.length + 1
      }
      if (values.length) out.push(head + values.join(',') + tail)
    }
  }
  out.push(...(w.after ?? []))
  return out
}

export function planStatements(plan: ImportPlan): string[] {
  return plan.writes.flatMap(statementsFor)
}

/** The relay reads group ratios from the GroupRatio setting, kept equal to the enabled groups. */
export const GROUP_RATIO_SQL = `INSERT INTO options (key, value) SELECT 'GroupRatio', json_group_object(symbol, ratio) FROM user_groups WHERE enable = 1 ON CONFLICT(key) DO UPDATE SET value = excluded.value`

/** Removes the routing rows of these channels (rebuilt from the imported channels right after). */
export function clearAbilitiesSql(channelIds: number[]): string[] {
  const out: string[] = []
  for (let i = 0; i < channelIds.length; i += 1000) {
    out.push(
      `DELETE FROM abilities WHERE channel_id IN (${channelIds
        .slice(i, i + 1000)
        .map((id) => Math.trunc(Number(id)))
        .join(',')})`
    )
  }
  return out
}
