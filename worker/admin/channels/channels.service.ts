/**
 * Channel administration: filtered lists, one channel (its key in clear for root only), batch creation (one channel
 * per key line under one tag) or one key-pool channel, updates, inline edits, copies, batch deletes and batch edits.
 * Every write rebuilds the channel's rows in the `abilities` index and bumps the routing table
 * version so every relay isolate picks the change up.
 */
import { and, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { abilities, channels, type Channel } from '../../db/schema'
import { notFound } from '../../lib/errors'
import { nowSeconds } from '../../lib/time'
import { routingSnapshot } from '../../channels/routing-table'
import { historyStatement } from '../../channels/status'
import { splitKeys } from '../../channels/key-pool'
import { contains, orderBy } from '../../lib/paging'
import type { z } from 'zod'
import type { ChannelFields, channelListQuery } from './channels.schema'
import type { ChannelKeyMode, Channel as ChannelView } from '../../../shared/contract/channels'
import { CHANNEL_STATUS } from '../../../shared/contract/enums'

/** `sk-a…wxyz` per key line: what administrators below root see of a supplier key. */
export const maskChannelKey = (key: string) =>
  key
    .split('\n')
    .map((k) => (k.length > 12 ? `${k.slice(0, 4)}…${k.slice(-4)}` : '…'))
    .join('\n')

/** `withKey`: the key in clear (root only); otherwise the masked key when asked for (`masked`). */
export function channelView(ch: Channel, withKey = false, masked = false) {
  return {
    id: ch.id,
    type: ch.type,
    name: ch.name,
    ...(withKey ? { key: ch.key } : {}),
    ...(masked ? { key_masked: maskChannelKey(ch.key) } : {}),
    status: ch.status,
    status_reason: ch.statusReason,
    weight: ch.weight,
    priority: ch.priority,
    group: ch.group,
    models: ch.models,
    tag: ch.tag,
    base_url: ch.baseUrl,
    other: ch.other,
    balance: ch.balance,
    balance_updated_time: ch.balanceUpdatedTime,
    test_time: ch.testTime,
    response_time: ch.responseTime,
    test_model: ch.testModel,
    used_quota: ch.usedQuota,
    model_mapping: ch.modelMapping,
    model_headers: ch.modelHeaders,
    custom_parameter: ch.customParameter,
    proxy: ch.proxy,
    only_chat: ch.onlyChat,
    auto_ban: ch.autoBan,
    created_time: ch.createdTime,
    // The column is text; writes accept only 'batch' or 'pool' (channels.schema.ts).
    key_mode: ch.keyMode as ChannelKeyMode,
    key_count: splitKeys(ch.key, ch.keyMode).length,
    auto_disable_threshold: ch.autoDisableThreshold,
    auto_disable_window: ch.autoDisableWindow,
    plugin: ch.plugin,
  } satisfies ChannelView
}

const columns = (f: ChannelFields) => ({
  type: f.type,
  name: f.name,
  key: f.key,
  baseUrl: f.base_url,
  other: f.other,
  models: f.models.join(','),
  group: f.group.join(','),
  tag: f.tag,
  modelMapping: f.model_mapping,
  modelHeaders: f.model_headers,
  customParameter: f.custom_parameter,
  priority: f.priority,
  weight: f.weight,
  testModel: f.test_model,
  proxy: f.proxy,
  onlyChat: f.only_chat,
  autoBan: f.auto_ban,
  keyMode: f.key_mode,
  autoDisableThreshold: f.auto_disable_threshold,
  autoDisableWindow: f.auto_disable_window,
  plugin: f.plugin,
})

const sortable = {
  id: channels.id,
  name: channels.name,
  type: channels.type,
  status: channels.status,
  group: channels.group,
  response_time: channels.responseTime,
  balance: channels.balance,
  priority: channels.priority,
  weight: channels.weight,
  used_quota: channels.usedQuota,
  test_time: channels.testTime,
}

export async function listChannels(env: Env, q: z.infer<typeof channelListQuery>) {
  const db = createDb(env.DB)
  const filters: (SQL | undefined)[] = [
    q.name ? contains(channels.name, q.name) : undefined,
    q.type !== undefined ? eq(channels.type, q.type) : undefined,
    q.status !== undefined ? eq(channels.status, q.status) : undefined,
    q.tag ? eq(channels.tag, q.tag) : undefined,
    q.key ? contains(channels.key, q.key) : undefined,
    q.group ? sql`EXISTS (SELECT 1 FROM abilities a WHERE a.channel_id = ${channels.id} AND a."group" = ${q.group})` : undefined,
    q.model ? sql`EXISTS (SELECT 1 FROM abilities a WHERE a.channel_id = ${channels.id} AND a.model = ${q.model})` : undefined,
  ]
  const where = and(...filters)
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(channels)
      .where(where)
      .orderBy(orderBy(q.order, sortable, desc(channels.id)))
      .limit(q.page_size)
      .offset((q.p - 1) * q.page_size),
    db.select({ n: count() }).from(channels).where(where),
  ])
  return { data: rows.map((r) => channelView(r)), page: q.p, size: q.page_size, total_count: total?.n ?? 0 }
}

export async function getChannel(env: Env, id: number): Promise<Channel> {
  const [row] = await createDb(env.DB).select().from(channels).where(eq(channels.id, id)).limit(1)
  if (!row) throw notFound('Channel not found')
  return row
}

/** Rebuild the group × model rows of these channels (D1 caps a statement at 100 bound values). */
async function syncAbilities(env: Env, rows: Channel[]) {
  if (rows.length === 0) return
  const db = createDb(env.DB)
  const statements = [
    db.delete(abilities).where(
      inArray(
        abilities.channelId,
        rows.map((r) => r.id)
      )
    ),
  ] as const
  const values = rows.flatMap((r) =>
    r.group
      .split(',')
      .filter(Boolean)
      .flatMap((group) =>
        r.models
          .split(',')
          .filter(Boolean)
          .map((model) => ({ group, model, channelId: r.id, enabled: r.status === CHANNEL_STATUS.ENABLED, priority: r.priority, weight: r.weight }))
      )
  )
  const inserts = []
  for (let i = 0; i < values.length; i += 16)
    inserts.push(
      db
        .insert(abilities)
        .values(values.slice(i, i + 16))
        .onConflictDoNothing()
    )
  await db.batch([...statements, ...inserts])
}

export async function afterChannelWrite(env: Env, rows: Channel[]) {
  await syncAbilities(env, rows)
  await routingSnapshot.invalidate(env)
}

/**
 * Batch mode: one channel per key line (names get _2, _3…), all under one tag; base URLs may be
 * given per line. Pool mode: one channel holding every key line.
 */
export async function createChannels(env: Env, f: ChannelFields): Promise<Channel[]> {
  const lines = f.key
    .split('\n')
    .map((k) => k.trim())
    .filter(Boolean)
  const keys = f.key_mode === 'pool' ? [splitKeys(f.key, 'pool').join('\n')] : lines
  const baseUrls = f.base_url.split('\n').map((u) => u.trim().replace(/\/+$/, ''))
  const batch = keys.length > 1
  const db = createDb(env.DB)
  const now = nowSeconds()
  const created: Channel[] = []
  for (const [i, key] of keys.entries()) {
    const [row] = await db
      .insert(channels)
      .values({
        ...columns(f),
        key,
        name: batch && i > 0 ? `${f.name}_${i + 1}` : f.name,
        baseUrl: baseUrls[i] ?? baseUrls[0] ?? '',
        tag: f.tag || (batch ? f.name : ''),
        createdTime: now,
      })
      .returning()
    created.push(row!)
  }
  await afterChannelWrite(env, created)
  return created
}

type PoolFields = 'key_mode' | 'auto_disable_threshold' | 'auto_disable_window' | 'plugin'
export type ChannelUpdate = Omit<ChannelFields, PoolFields> & Partial<Pick<ChannelFields, PoolFields>>

/** An empty key keeps the channel's current key; pool fields and plugins left out keep their values. */
export async function updateChannel(env: Env, id: number, update: ChannelUpdate) {
  const current = await getChannel(env, id)
  const f: ChannelFields = {
    ...update,
    key_mode: update.key_mode ?? (current.keyMode === 'pool' ? 'pool' : 'batch'),
    auto_disable_threshold: update.auto_disable_threshold ?? current.autoDisableThreshold,
    auto_disable_window: update.auto_disable_window ?? current.autoDisableWindow,
    plugin: update.plugin ?? current.plugin,
  }
  const key = f.key_mode === 'pool' && f.key ? splitKeys(f.key, 'pool').join('\n') : f.key || current.key
  const [row] = await createDb(env.DB)
    .update(channels)
    .set({ ...columns(f), key, baseUrl: f.base_url.split('\n')[0]!.trim() })
    .where(eq(channels.id, id))
    .returning()
  await afterChannelWrite(env, [row!])
  return row!
}

export async function patchChannel(env: Env, id: number, patch: { priority?: number; weight?: number; status?: 1 | 2 }, admin = 'an administrator') {
  await getChannel(env, id)
  const set: Partial<typeof channels.$inferInsert> = {}
  if (patch.priority !== undefined) set.priority = patch.priority
  if (patch.weight !== undefined) set.weight = patch.weight
  if (patch.status !== undefined) {
    set.status = patch.status
    set.statusReason = patch.status === CHANNEL_STATUS.MANUAL_DISABLED ? 'disabled manually' : ''
  }
  const [row] = await createDb(env.DB).update(channels).set(set).where(eq(channels.id, id)).returning()
  if (patch.status !== undefined) await manualStatusChange(env, id, patch.status, admin)
  await afterChannelWrite(env, [row!])
  return row!
}

/** A status set by hand goes to the history and ends any automatic retest schedule of the channel. */
async function manualStatusChange(env: Env, channelId: number, status: number, admin: string) {
  await env.DB.batch([
    historyStatement(env, { channelId, status, reason: `${status === CHANNEL_STATUS.ENABLED ? 'enabled' : 'disabled'} by ${admin}` }),
    env.DB.prepare("DELETE FROM channel_key_states WHERE channel_id = ? AND key_hash = ''").bind(channelId),
  ])
}

export async function copyChannel(env: Env, id: number) {
  const src = await getChannel(env, id)
  const { id: _id, usedQuota: _u, balance: _b, responseTime: _r, testTime: _t, balanceUpdatedTime: _bt, ...rest } = src
  const [row] = await createDb(env.DB)
    .insert(channels)
    .values({ ...rest, name: `${src.name}_copy`, createdTime: nowSeconds() })
    .returning()
  await afterChannelWrite(env, [row!])
  return row!
}

export async function deleteChannels(env: Env, where: SQL): Promise<number> {
  const db = createDb(env.DB)
  const doomed = await db.select({ id: channels.id }).from(channels).where(where)
  if (doomed.length === 0) return 0
  const ids = doomed.map((d) => d.id)
  await db.batch([db.delete(abilities).where(inArray(abilities.channelId, ids)), db.delete(channels).where(inArray(channels.id, ids))])
  await routingSnapshot.invalidate(env)
  return ids.length
}

export const disabledChannels = ne(channels.status, CHANNEL_STATUS.ENABLED)
export const channelIdsIn = (ids: number[]) => inArray(channels.id, ids)
export const channelIdIs = (id: number) => eq(channels.id, id)

/** Remove one model from many channels (channels left without models keep the rest of their data). */
export async function removeModel(env: Env, ids: number[], model: string): Promise<number> {
  const db = createDb(env.DB)
  const rows = await db.select().from(channels).where(inArray(channels.id, ids))
  const changed: Channel[] = []
  for (const r of rows) {
    const models = r.models.split(',').filter((m) => m && m !== model)
    if (models.length === r.models.split(',').filter(Boolean).length) continue
    const [row] = await db
      .update(channels)
      .set({ models: models.join(',') })
      .where(eq(channels.id, r.id))
      .returning()
    changed.push(row!)
  }
  await afterChannelWrite(env, changed)
  return changed.length
}

export async function setAzureVersion(env: Env, ids: number[], version: string): Promise<number> {
  const rows = await createDb(env.DB)
    .update(channels)
    .set({ other: version })
    .where(and(inArray(channels.id, ids), eq(channels.type, 3)))
    .returning()
  await afterChannelWrite(env, rows)
  return rows.length
}

export async function listTags(env: Env): Promise<string[]> {
  const rows = await createDb(env.DB).selectDistinct({ tag: channels.tag }).from(channels).where(ne(channels.tag, '')).orderBy(channels.tag)
  return rows.map((r) => r.tag)
}
