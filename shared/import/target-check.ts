/**
 * What the target gateway already holds, and whether the plan may be written into it: a gateway
 * with users of its own needs --merge, and even then no imported row may take the id (or the
 * username) of a row that is the gateway's own — that would hand one account's keys or balance to
 * another. Rows written by an earlier run of the same import are not "own": a re-run is allowed.
 */
import type { ImportPlan } from './plan'

export interface TargetState {
  /** [id, username, imported before (has an import ledger row)] */
  users: [number, string, number][]
  /** Tokens not imported: [id, key] */
  tokens: [number, string][]
  channels: [number, string][]
  redemptions: [number, string][]
  prices: number
}

/** One read (each wrangler call costs seconds). */
export const TARGET_STATE_SQL = `SELECT
  (SELECT json_group_array(json_array(u.id, u.username, EXISTS (SELECT 1 FROM logs l WHERE l.user_id = u.id AND l.request_id = 'import:balance:' || u.id))) FROM users u) AS users,
  (SELECT json_group_array(json_array(id, "key")) FROM tokens WHERE imported = 0) AS tokens,
  (SELECT json_group_array(json_array(id, "key")) FROM channels) AS channels,
  (SELECT json_group_array(json_array(id, "key")) FROM redemptions) AS redemptions,
  (SELECT count(*) FROM prices) AS prices`

export function parseTargetState(row: Record<string, unknown> | undefined): TargetState {
  const list = (v: unknown) => JSON.parse(typeof v === 'string' ? v : '[]')
  return { users: list(row?.users), tokens: list(row?.tokens), channels: list(row?.channels), redemptions: list(row?.redemptions), prices: Number(row?.prices ?? 0) }
}

const incoming = (plan: ImportPlan, table: string) => plan.writes.filter((w) => w.table === table).flatMap((w) => w.rows)

/** The reasons the plan must not be written (empty = go ahead). */
export function targetConflicts(plan: ImportPlan, state: TargetState, merge: boolean): string[] {
  const problems: string[] = []
  const own = state.users.filter(([, , imported]) => !imported)
  if (own.length && !merge) {
    return [
      `The gateway already has ${own.length} user(s) of its own (e.g. ${own[0]![1]}, id ${own[0]![0]}). ` +
        'Import into a fresh gateway (before the first setup), or merge (--merge, or the merge switch of the import page) when the ids do not overlap.',
    ]
  }
  const ownIds = new Map(own.map(([id, name]) => [id, name]))
  const ownNames = new Map(own.map(([id, name]) => [name.toLowerCase(), id]))
  for (const u of incoming(plan, 'users')) {
    const id = Number(u.id)
    if (ownIds.has(id)) problems.push(`users id ${id} (${String(u.username)}) would replace the gateway's own user ${ownIds.get(id)}`)
    else if (ownNames.has(String(u.username).toLowerCase()))
      problems.push(`users id ${id}: the username ${String(u.username)} is taken by the gateway's user id ${ownNames.get(String(u.username).toLowerCase())}`)
  }
  const sameKey = (table: string, present: [number, string][], keyOf: (r: Record<string, unknown>) => string) => {
    const byId = new Map(present)
    for (const r of incoming(plan, table)) {
      const have = byId.get(Number(r.id))
      if (have !== undefined && have !== keyOf(r)) problems.push(`${table} id ${String(r.id)} would replace a different ${table.slice(0, -1)} of the gateway`)
    }
  }
  sameKey('tokens', state.tokens, (r) => String(r.key))
  sameKey('channels', state.channels, (r) => String(r.key))
  sameKey('redemptions', state.redemptions, (r) => String(r.key))
  return problems
}
