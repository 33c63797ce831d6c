/**
 * The server half of the console's import (the browser reads the one-api/one-hub file and builds
 * the plan with the CLI's own mappers): the target check (same rule as `npm run import`: a gateway
 * with users of its own needs merge, and no imported row may take an own row's id or key), a
 * per-import session in KV, and the batches — each table write turned into the CLI's idempotent
 * SQL (shared/import/statements.ts) and applied with one D1 batch. Table and column names are
 * checked against the database, balance columns are never updated, options are validated like the
 * settings page; a batch the database refuses is retried row by row and each refused row is
 * reported with its table and id.
 */
import { statisticsFromLogs } from '../../../shared/import/map-history'
import { ImportPlan, type TableWrite } from '../../../shared/import/plan'
import { GROUP_RATIO_SQL, clearAbilitiesSql, statementsFor } from '../../../shared/import/statements'
import { TARGET_STATE_SQL, parseTargetState, targetConflicts } from '../../../shared/import/target-check'
import type { WireBatchResult, WireCheck, WireIdentities, WireImportStarted, WireWrite } from '../../../shared/import/wire'
import { priceSnapshot } from '../../billing/pricing'
import { cacheKeys } from '../../cache/keys'
import { randomString } from '../../lib/crypto'
import { badRequest, conflict } from '../../lib/errors'
import { groupLimitsSnapshot } from '../../access/group-limits'
import { routingSnapshot } from '../../channels/routing-table'
import { forgetImportedKeysPresence } from '../../access/imported-keys'
import { checkOptionValue, isOptionKey } from '../../../shared/contract/option-checks'
import { OPTIONS } from '../../settings/registry'
import { reloadSettings } from '../../settings/store'

/** The tables an import writes (everything else is refused). */
export const IMPORT_TABLES = [
  'options',
  'user_groups',
  'users',
  'two_factor',
  'two_factor_backup_codes',
  'tokens',
  'channels',
  'abilities',
  'prices',
  'redemptions',
  'midjourneys',
  'logs',
  'statistics',
] as const
/** Owned by the wallet once imported: never refreshed by a re-run. */
const WALLET_COLUMNS: Record<string, string[]> = { users: ['quota', 'used_quota', 'request_count'] }
const SESSION_TTL = 3600

interface ImportSession {
  by: number
  merge: boolean
  /** The gateway's own users when the import started (no imported row may take their ids). */
  ownUserIds: number[]
}

const sessionKey = cacheKeys.importSession

async function targetState(env: Env) {
  return parseTargetState((await env.DB.prepare(TARGET_STATE_SQL).first<Record<string, unknown>>()) ?? undefined)
}

function identityPlan(ids: WireIdentities): ImportPlan {
  const plan = new ImportPlan('one-api')
  plan.writes.push(
    { table: 'users', rows: ids.users, onConflict: 'ignore' },
    { table: 'tokens', rows: ids.tokens, onConflict: 'ignore' },
    { table: 'channels', rows: ids.channels, onConflict: 'ignore' },
    { table: 'redemptions', rows: ids.redemptions, onConflict: 'ignore' }
  )
  return plan
}

export async function checkTarget(env: Env, ids: WireIdentities, merge: boolean): Promise<WireCheck> {
  const state = await targetState(env)
  const conflicts = targetConflicts(identityPlan(ids), state, merge)
  return { conflicts, ownUsers: state.users.filter(([, , imported]) => !imported).length, hasPrices: state.prices > 0 }
}

export async function startImport(env: Env, by: number, ids: WireIdentities, merge: boolean): Promise<WireImportStarted> {
  const state = await targetState(env)
  const conflicts = targetConflicts(identityPlan(ids), state, merge)
  if (conflicts.length) throw conflict(`Nothing was written: ${conflicts.slice(0, 5).join('; ')}`)
  const importId = randomString(24)
  const session: ImportSession = { by, merge, ownUserIds: state.users.filter(([, , imported]) => !imported).map(([id]) => id) }
  await env.CACHE.put(sessionKey(importId), JSON.stringify(session), { expirationTtl: SESSION_TTL })
  return { importId, hasPrices: state.prices > 0 }
}

async function loadSession(env: Env, importId: string, by: number): Promise<ImportSession> {
  const session = await env.CACHE.get<ImportSession>(sessionKey(importId), 'json')
  if (!session || session.by !== by) throw badRequest('Unknown or expired import; start it again (a re-run changes nothing)')
  return session
}

/** Columns of each table, read once per batch from the database itself. */
async function columnsOf(env: Env, table: string, cache: Map<string, Set<string>>): Promise<Set<string>> {
  let cols = cache.get(table)
  if (!cols) {
    const { results } = await env.DB.prepare(`SELECT name FROM pragma_table_info(?)`).bind(table).all<{ name: string }>()
    cols = new Set(results.map((r) => r.name))
    cache.set(table, cols)
  }
  return cols
}

/** Refuses anything that is not a plain import write of a known table and its real columns. */
async function checkWrite(env: Env, w: WireWrite, session: ImportSession, cache: Map<string, Set<string>>): Promise<{ rows: WireWrite['rows']; refused: string[] }> {
  if (!(IMPORT_TABLES as readonly string[]).includes(w.table)) throw badRequest(`${w.table}: not a table an import writes`)
  const cols = await columnsOf(env, w.table, cache)
  const rule = w.onConflict
  const named = new Set<string>(w.rows.flatMap((r) => Object.keys(r)))
  if (rule !== 'ignore') for (const c of 'match' in rule ? rule.match : [...rule.target, ...rule.update]) named.add(c)
  const unknown = [...named].filter((c) => !cols.has(c))
  if (unknown.length) throw badRequest(`${w.table}: unknown column(s) ${unknown.join(', ')}`)
  if (rule !== 'ignore' && 'update' in rule) {
    const owned = rule.update.filter((c) => WALLET_COLUMNS[w.table]?.includes(c))
    if (owned.length) throw badRequest(`${w.table}: ${owned.join(', ')} belong to the wallet and are never updated by an import`)
  }
  if (w.derive === 'group-ratio' && w.table !== 'user_groups') throw badRequest('group-ratio follows user_groups only')
  if (w.derive === 'statistics-from-logs' && w.table !== 'logs') throw badRequest('statistics-from-logs follows logs only')
  if (w.clearAbilitiesOf && w.table !== 'abilities') throw badRequest('clearAbilitiesOf goes with abilities only')
  const refused: string[] = []
  // Nor may it touch their second factor (new-api's TOTP secrets arrive keyed by user_id).
  const secondFactor = w.table === 'two_factor' || w.table === 'two_factor_backup_codes'
  const own = new Set(w.table === 'users' || secondFactor ? session.ownUserIds : [])
  const rows = w.rows.filter((r) => {
    if (secondFactor && own.has(Number(r.user_id))) {
      refused.push(`${w.table} user_id ${String(r.user_id)}: would change the sign-in of the gateway's own user; skipped`)
      return false
    }
    if (w.table === 'users' && own.has(Number(r.id))) {
      refused.push(`users id ${String(r.id)}: would replace the gateway's own user; skipped`)
      return false
    }
    if (w.table !== 'options') return true
    const key = String(r.key)
    // Internal options (e.g. the key-signing secret) are the gateway's own state, never imported.
    const checked = isOptionKey(key) && !OPTIONS[key].internal ? checkOptionValue(key, String(r.value ?? '')) : { ok: false as const, message: 'not a setting an import may write' }
    if (!checked.ok) refused.push(`options ${key}: ${checked.message}; skipped`)
    return checked.ok
  })
  return { rows, refused }
}

const rowLabel = (table: string, row: Record<string, unknown>) => `${table} ${row.id !== undefined ? `id ${String(row.id)}` : (row.key ?? row.model ?? row.symbol ?? '?')}`

/** Applies one batch of writes: all in one D1 batch, or row by row when the database refuses it. */
export async function applyBatch(env: Env, by: number, importId: string, writes: WireWrite[]): Promise<WireBatchResult> {
  const session = await loadSession(env, importId, by)
  const cache = new Map<string, Set<string>>()
  const problems: string[] = []
  const planned: { w: TableWrite; before: string[]; after: string[] }[] = []
  for (const w of writes) {
    const { rows, refused } = await checkWrite(env, w, session, cache)
    problems.push(...refused)
    const before = w.clearAbilitiesOf ? clearAbilitiesSql(w.clearAbilitiesOf) : []
    const after = w.derive === 'group-ratio' ? [GROUP_RATIO_SQL] : w.derive === 'statistics-from-logs' ? statisticsFromLogs(rows) : []
    planned.push({ w: { table: w.table, rows, onConflict: w.onConflict }, before, after })
  }
  const all = planned.flatMap((p) => [...p.before, ...statementsFor(p.w), ...p.after])
  const rowCount = planned.reduce((n, p) => n + p.w.rows.length, 0)
  if (all.length === 0) return { applied: 0, problems }
  try {
    await env.DB.batch(all.map((s) => env.DB.prepare(s)))
    return { applied: rowCount, problems }
  } catch {
    // Some row broke the batch (and D1 rolled it back): write row by row and report the refused ones.
    let applied = 0
    for (const p of planned) {
      for (const s of p.before) await env.DB.prepare(s).run()
      for (const row of p.w.rows) {
        try {
          await env.DB.batch(statementsFor({ ...p.w, rows: [row] }).map((s) => env.DB.prepare(s)))
          applied++
        } catch (e) {
          problems.push(`${rowLabel(p.w.table, row)}: ${(e as Error).message.replace(/^D1_ERROR:\s*/, '').slice(0, 200)}; skipped`)
        }
      }
      for (const s of p.after) await env.DB.prepare(s).run()
    }
    return { applied, problems }
  }
}

/** Ends an import: the caches of channels, prices, groups and settings are rebuilt from D1. */
export async function finishImport(env: Env, by: number, importId: string): Promise<void> {
  await loadSession(env, importId, by)
  await Promise.all([routingSnapshot.invalidate(env), priceSnapshot.invalidate(env), groupLimitsSnapshot.invalidate(env), reloadSettings(env)])
  // Imported keys work at once on this isolate (the whole server under `npm start`); others look
  // again within a minute (access/imported-keys.ts).
  forgetImportedKeysPresence()
  await env.CACHE.delete(sessionKey(importId))
}
