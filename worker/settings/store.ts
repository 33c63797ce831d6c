/**
 * Settings as the code reads them: the options table merged over registry defaults, cached per
 * isolate and in KV (see cache/versioned.ts), with typed getters. `saveOptions` validates, writes
 * D1 and invalidates the snapshot so the change takes effect on the next request.
 */
import { inArray, sql } from 'drizzle-orm'
import { createDb } from '../db/client'
import { options } from '../db/schema'
import { Snapshot, type BackgroundCtx } from '../cache/versioned'
import { badRequest } from '../lib/errors'
import { randomString } from '../lib/crypto'
import { checkOptionValue, isOptionKey } from '../../shared/contract/option-checks'
import { OPTIONS, OPTION_KEYS } from './registry'
import type { OptionItem } from '../../shared/contract/settings'
import type { OptionKey } from '../../shared/contract/settings'

export class Settings {
  constructor(readonly raw: Readonly<Record<OptionKey, string>>) {}

  str(key: OptionKey): string {
    return this.raw[key]
  }
  bool(key: OptionKey): boolean {
    return this.raw[key] === 'true'
  }
  int(key: OptionKey): number {
    const n = Number.parseInt(this.raw[key], 10)
    return Number.isFinite(n) ? n : Number.parseInt(OPTIONS[key].default, 10)
  }
  num(key: OptionKey): number {
    const n = Number(this.raw[key])
    return Number.isFinite(n) ? n : Number(OPTIONS[key].default)
  }
  json<T>(key: OptionKey): T {
    try {
      return JSON.parse(this.raw[key]) as T
    } catch {
      return JSON.parse(OPTIONS[key].default) as T
    }
  }
}

async function loadSettings(env: Env): Promise<Record<OptionKey, string>> {
  const rows = await createDb(env.DB).select().from(options)
  const raw = Object.fromEntries(OPTION_KEYS.map((k) => [k, OPTIONS[k].default])) as Record<OptionKey, string>
  for (const row of rows) if (isOptionKey(row.key)) raw[row.key] = row.value
  return raw
}

/** Sealed in KV: settings hold SMTP/OAuth secrets and TokenSecret. */
const snapshot = new Snapshot('settings', loadSettings, { sealed: true })

export async function getSettings(env: Env, ctx?: BackgroundCtx): Promise<Settings> {
  return new Settings(await snapshot.get(env, ctx))
}

/** Validate and persist several options at once (all or nothing). */
export async function saveOptions(env: Env, values: Record<string, string>): Promise<Settings> {
  const entries: { key: OptionKey; value: string }[] = []
  for (const [key, raw] of Object.entries(values)) {
    if (!isOptionKey(key) || OPTIONS[key].internal) throw badRequest(`Unknown option: ${key}`)
    const checked = checkOptionValue(key, raw)
    if (!checked.ok) throw badRequest(checked.message, { fields: { [key]: checked.message } })
    entries.push({ key, value: checked.value })
  }
  if (entries.length === 0) return getSettings(env)
  await writeOptions(env, entries)
  return new Settings(await snapshot.invalidate(env))
}

async function writeOptions(env: Env, entries: { key: string; value: string }[]) {
  const db = createDb(env.DB)
  const [first, ...rest] = entries.map((e) =>
    db
      .insert(options)
      .values(e)
      .onConflictDoUpdate({ target: options.key, set: { value: sql`excluded.value` } })
  )
  if (first) await db.batch([first, ...rest])
}

/** Re-reads every option from D1 (after rows were written outside saveOptions, e.g. an import). */
export async function reloadSettings(env: Env): Promise<void> {
  await snapshot.invalidate(env)
}

/** Write an internal option (state kept by the code, not an operator setting) and refresh the snapshot. */
export async function saveInternalOption(env: Env, key: OptionKey, value: string): Promise<void> {
  if (!OPTIONS[key].internal) throw new Error(`${key} is not an internal option`)
  await writeOptions(env, [{ key, value }])
  await snapshot.invalidate(env)
}

/** The secret that signs API keys: env TOKEN_SECRET, else generated once and kept in D1. */
export async function getTokenSecret(env: Env, ctx?: BackgroundCtx): Promise<string> {
  const fromEnv = (env as unknown as { TOKEN_SECRET?: string }).TOKEN_SECRET
  if (fromEnv) return fromEnv
  const settings = await getSettings(env, ctx)
  const existing = settings.str('TokenSecret')
  if (existing) return existing
  const db = createDb(env.DB)
  await db
    .insert(options)
    .values({ key: 'TokenSecret', value: randomString(48) })
    .onConflictDoNothing()
  const [row] = await db
    .select()
    .from(options)
    .where(inArray(options.key, ['TokenSecret']))
  await snapshot.invalidate(env)
  return row!.value
}

/** Options safe to show to root (secrets masked as empty). */
export function publicOptionList(settings: Settings) {
  return OPTION_KEYS.filter((k) => !OPTIONS[k].internal).map(
    (key) =>
      ({
        key,
        value: OPTIONS[key].secret ? '' : settings.raw[key],
        secret: Boolean(OPTIONS[key].secret),
        configured: OPTIONS[key].secret ? settings.raw[key] !== '' : undefined,
      }) satisfies OptionItem
  )
}
