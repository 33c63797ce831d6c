/**
 * The routing table: enabled channels with parsed settings, indexed by group → model (exact names
 * and trailing-`*` wildcards). Built from D1 on change, cached per isolate and in KV
 * (cache/versioned.ts, encrypted there because it holds the keys); every channel write bumps its version.
 */
import { Snapshot, type BackgroundCtx } from '../cache/versioned'
import { poolKeys } from './key-pool'
import type { KeyMode, RoutedChannel } from './types'
import { parsePlugin } from '../../shared/contract/channel-plugins'

export interface GroupIndex {
  exact: Record<string, number[]>
  wildcards: { prefix: string; ids: number[] }[]
}

export interface RoutingTable {
  channels: Record<number, RoutedChannel>
  groups: Record<string, GroupIndex>
}

const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)

function parseJsonObject<T>(text: string): Record<string, T> {
  if (!text.trim()) return {}
  try {
    const v = JSON.parse(text)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {}
  } catch {
    return {}
  }
}

/**
 * Group and model names come from admins and clients, so every map is prototype-free when built
 * and read with own-key checks after the JSON round trip through KV (`__proto__`, `constructor`).
 */
const dict = <T>() => Object.create(null) as Record<string, T>
const own = <T>(map: Record<string, T>, key: string): T | undefined => (Object.hasOwn(map, key) ? map[key] : undefined)

/** `disabledKeys`: channel id → hashes of its auto-disabled pool keys. */
export function buildRoutingTable(rows: Record<string, any>[], disabledKeys: ReadonlyMap<number, ReadonlySet<string>> = new Map()): RoutingTable {
  const table: RoutingTable = { channels: dict(), groups: dict() }
  for (const r of rows) {
    const keyMode: KeyMode = r.key_mode === 'pool' ? 'pool' : 'batch'
    const all = poolKeys(String(r.key ?? ''), keyMode)
    const dead = disabledKeys.get(r.id)
    const live = dead ? all.filter((k) => !dead.has(k.hash)) : all
    // A pool whose keys are all disabled is about to be disabled itself; until then it keeps them all.
    const keys = live.length ? live : all
    const ch: RoutedChannel = {
      id: r.id,
      type: r.type,
      name: r.name,
      key: keys[0]?.key ?? '',
      keyMode,
      keys,
      autoDisableThreshold: Number(r.auto_disable_threshold ?? 0),
      autoDisableWindow: Number(r.auto_disable_window ?? 0),
      baseUrl: String(r.base_url ?? '').replace(/\/+$/, ''),
      other: r.other ?? '',
      priority: r.priority ?? 0,
      weight: r.weight ?? 1,
      onlyChat: Boolean(r.only_chat),
      autoBan: Boolean(r.auto_ban ?? 1),
      modelMapping: parseJsonObject<string>(r.model_mapping ?? ''),
      headers: parseJsonObject<string>(r.model_headers ?? ''),
      customParameter: parseJsonObject<unknown>(r.custom_parameter ?? ''),
      plugin: parsePlugin(String(r.plugin ?? '')),
      models: splitList(r.models ?? ''),
      ...(r.proxy ? { proxy: String(r.proxy) } : {}),
      ...(r.tag ? { tag: String(r.tag) } : {}),
    }
    table.channels[ch.id] = ch
    for (const group of splitList(r.group ?? '')) {
      const index = (table.groups[group] ??= { exact: dict(), wildcards: [] })
      for (const model of ch.models) {
        if (model.endsWith('*')) {
          const prefix = model.slice(0, -1)
          const w = index.wildcards.find((x) => x.prefix === prefix)
          if (w) w.ids.push(ch.id)
          else index.wildcards.push({ prefix, ids: [ch.id] })
        } else (index.exact[model] ??= []).push(ch.id)
      }
    }
  }
  return table
}

async function loadRoutingTable(env: Env): Promise<RoutingTable> {
  const [channels, dead] = await env.DB.batch<Record<string, any>>([
    env.DB.prepare('SELECT * FROM channels WHERE status = 1'),
    env.DB.prepare("SELECT channel_id, key_hash FROM channel_key_states WHERE status = 3 AND key_hash != ''"),
  ])
  const disabled = new Map<number, Set<string>>()
  for (const row of dead!.results) {
    const set = disabled.get(row.channel_id) ?? new Set<string>()
    set.add(row.key_hash)
    disabled.set(row.channel_id, set)
  }
  return buildRoutingTable(channels!.results, disabled)
}

/**
 * Sealed in KV: the table carries every channel's supplier key. Format 2: every channel carries its
 * `tag` (plans limited to channel tags); a copy written without it is rebuilt from D1.
 */
export const routingSnapshot = new Snapshot('channels', loadRoutingTable, { sealed: true, format: 2 })

export const getRoutingTable = (env: Env, ctx?: BackgroundCtx) => routingSnapshot.get(env, ctx)

/** Channels of a group serving a model: exact entries plus every matching wildcard. */
export function candidatesFor(table: RoutingTable, group: string, model: string): RoutedChannel[] {
  const index = own(table.groups, group)
  if (!index) return []
  const ids = new Set(own(index.exact, model) ?? [])
  for (const w of index.wildcards) if (model.startsWith(w.prefix)) for (const id of w.ids) ids.add(id)
  return [...ids].map((id) => own(table.channels, String(id))!).filter(Boolean)
}

/** Model names a group can call (wildcard patterns are not listable). */
export function modelsOfGroup(table: RoutingTable, group: string): string[] {
  return Object.keys(own(table.groups, group)?.exact ?? {}).sort()
}

/**
 * The models `channelId` serves (by name; wildcards are not listable) that no other enabled channel
 * serves in one of its groups: what disabling it leaves unavailable there.
 */
export async function modelsOnlyOn(env: Env, channelId: number): Promise<string[]> {
  const row = await env.DB.prepare('SELECT models, "group" AS groups FROM channels WHERE id = ?').bind(channelId).first<{ models: string; groups: string }>()
  if (!row) return []
  const table = await routingSnapshot.get(env)
  const left = new Set<string>()
  for (const group of splitList(row.groups ?? '')) {
    for (const model of splitList(row.models ?? '')) {
      if (!model.endsWith('*') && !candidatesFor(table, group, model).some((c) => c.id !== channelId)) left.add(model)
    }
  }
  return [...left].sort()
}
