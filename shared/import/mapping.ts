/**
 * From a source database to an import plan: tells one-api from one-hub by its tables, runs every
 * table mapper in dependency order and adds the opening-balance ledger rows.
 */
import type { SourceKind } from './channel-types'
import { balanceRows, mapGroups, mapRedemptions, mapTokens, mapTwoFactor, mapTwoFactorBackupCodes, mapUsers } from './map-accounts'
import { mapAbilities, mapChannels } from './map-channels'
import { mapLogs, mapMidjourneys, mapStatistics, statisticsFromLogs } from './map-history'
import { mapOptions, mapPrices } from './map-settings'
import { ImportPlan, int } from './plan'
import type { SourceDatabase } from './source-database'
import { GROUP_RATIO_SQL } from './statements'

/** one-hub has `prices` / `user_groups` / `payments`; one-api has `abilities` and no `prices`. */
export function detectSource(tables: Set<string>): SourceKind | undefined {
  if (tables.has('prices') || tables.has('user_groups') || tables.has('payments')) return 'one-hub'
  if (tables.has('users') && tables.has('tokens')) return 'one-api'
  return undefined
}

/** Source tables read and not imported (the report lists them, so nothing disappears unseen). */
const KNOWN_SKIPPED: Record<string, string> = {
  abilities: 'rebuilt from channels',
  migrations: 'bookkeeping of the source',
  statistics_months: 'monthly totals; the daily statistics are imported',
}

export interface MapOptions {
  from?: SourceKind
  withLogs?: boolean
  now?: number
}

export function buildPlan(db: SourceDatabase, opts: MapOptions = {}): ImportPlan {
  const detected = detectSource(db.tables)
  const source = opts.from ?? detected
  if (!source) throw new Error('This does not look like a one-api or one-hub database (no users and tokens tables).')
  const plan = new ImportPlan(source)
  plan.problems.push(...db.problems)
  if (opts.from && detected && opts.from !== detected) plan.notes.push(`--from ${opts.from} given, but the tables look like ${detected}`)
  const rows = (t: string) => (db.tables.has(t) ? db.rows(t) : [])

  const options = mapOptions(plan, rows('options'))
  mapGroups(plan, db.tables.has('user_groups') ? rows('user_groups') : undefined, options.get('GroupRatio'))
  plan.writes.at(-1)!.after = [GROUP_RATIO_SQL]
  const users = mapUsers(plan, rows('users'))
  const knownGroups = new Set(plan.writes.find((w) => w.table === 'user_groups')!.rows.map((g) => String(g.symbol)))
  const missing = [...new Set(users.map((u) => String(u.group)))].filter((g) => !knownGroups.has(g) && !['default', 'vip', 'svip'].includes(g))
  if (missing.length) plan.problems.push(`users: groups without a definition in the source (add them under Groups): ${missing.join(', ')}`)
  const userIds = new Set(users.map((u) => Number(u.id)))
  mapTokens(plan, rows('tokens'), userIds)
  // new-api keeps TOTP secrets in `two_fas` (GORM's name for its TwoFA model).
  if (db.tables.has('two_fas')) {
    const twoFactorUsers = mapTwoFactor(plan, rows('two_fas'), userIds, opts.now ?? Math.floor(Date.now() / 1000))
    if (db.tables.has('two_fa_backup_codes')) mapTwoFactorBackupCodes(plan, rows('two_fa_backup_codes'), twoFactorUsers)
  }
  const channels = mapChannels(plan, rows('channels'))
  mapAbilities(plan, channels)
  mapPrices(plan, db.tables.has('prices') ? rows('prices') : undefined, options)
  mapRedemptions(plan, rows('redemptions'))
  if (db.tables.has('midjourneys')) mapMidjourneys(plan, rows('midjourneys'))
  if (opts.withLogs) {
    mapLogs(plan, rows('logs'))
    const logWrite = plan.writes.at(-1)!
    if (!db.tables.has('statistics')) logWrite.after = statisticsFromLogs(logWrite.rows)
  } else if (db.tables.has('logs')) plan.notes.push(`logs: ${rows('logs').length} rows not imported (add --with-logs)`)
  if (db.tables.has('statistics')) mapStatistics(plan, rows('statistics'))
  // After the history, with ids above it: every imported balance gets the ledger row explaining it.
  const maxLogId = rows('logs').reduce((m, r) => Math.max(m, int(r.id)), 0)
  plan.add(
    { table: 'logs', rows: balanceRows(plan, users, opts.now ?? Math.floor(Date.now() / 1000)), onConflict: { match: ['user_id', 'request_id'], idAbove: maxLogId } },
    'balance ledger rows'
  )

  const handled = new Set(['options', 'user_groups', 'users', 'two_fas', 'two_fa_backup_codes', 'tokens', 'channels', 'prices', 'redemptions', 'midjourneys', 'logs', 'statistics'])
  for (const t of [...db.tables].sort()) {
    if (handled.has(t)) continue
    const n = rows(t).length
    if (n === 0) continue
    plan.notes.push(`${t}: ${n} rows not imported (${KNOWN_SKIPPED[t] ?? 'no equivalent here'})`)
  }
  const maxUser = Math.max(0, ...users.map((u) => int(u.id as number)))
  if (maxUser > 0) plan.notes.push(`users: highest id ${maxUser}`)
  return plan
}
