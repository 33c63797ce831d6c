/**
 * Model prices: CRUD (single and merged "multiple" edits), applying a remote list with add /
 * update / overwrite (locked rows are never touched; overwrite removes unlocked local rows the
 * list does not have), the model catalogue (priced models ∪ channel models) and the unpriced
 * warning. Every write invalidates the price snapshot the relay reads, and `audited` wraps a write
 * to leave one manage-log row saying which models it added, changed (old → new) or removed.
 */
import type { ModelCatalogue, Price as PriceView, RemotePrice, SyncResult } from '../../../shared/contract/pricing'
import { and, eq, inArray } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { channels, prices, type Price } from '../../db/schema'
import { priceSnapshot } from '../../billing/pricing'
import { isUniqueViolation } from '../../db/errors'
import { conflict, notFound } from '../../lib/errors'
import type { SessionUser } from '../../env'
import { auditLog } from '../../logs/audit-log'
import type { PriceFields } from './prices.schema'

export const priceView = (p: Price) =>
  ({
    id: p.id,
    model: p.model,
    // Writes accept only tokens|times (prices.schema.ts); the column itself is plain text.
    type: p.type === 'times' ? 'times' : 'tokens',
    channel_type: p.channelType,
    input: p.input,
    output: p.output,
    locked: p.locked,
    extra_ratios: p.extraRatios ?? null,
    tier: p.tier ?? null,
    fee: p.fee,
  }) satisfies PriceView

const columns = (f: Omit<PriceFields, 'model'>) => ({
  type: f.type,
  channelType: f.channel_type,
  input: f.input,
  output: f.output,
  locked: f.locked,
  extraRatios: f.extra_ratios ?? null,
  tier: f.tier ?? null,
  fee: f.fee,
})

export async function listPrices(env: Env) {
  return (await createDb(env.DB).select().from(prices).orderBy(prices.model)).map(priceView)
}

async function changed(env: Env) {
  await priceSnapshot.invalidate(env)
}

/** Runs the write of price `f` and drops the snapshots; 409 when another price already has its model name. */
async function writePrice(env: Env, f: PriceFields, write: () => Promise<(typeof prices.$inferSelect)[]>) {
  try {
    const [row] = await write()
    await changed(env)
    return row!
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A price for "${f.model}" already exists`)
    throw err
  }
}

export async function createPrice(env: Env, f: PriceFields) {
  return writePrice(env, f, () =>
    createDb(env.DB)
      .insert(prices)
      .values({ model: f.model, ...columns(f) })
      .returning()
  )
}

export async function updatePrice(env: Env, model: string, f: PriceFields) {
  const db = createDb(env.DB)
  const [current] = await db.select().from(prices).where(eq(prices.model, model)).limit(1)
  if (!current) throw notFound(`No price for "${model}"`)
  return writePrice(env, f, () =>
    db
      .update(prices)
      .set({ model: f.model, ...columns(f) })
      .where(eq(prices.id, current.id))
      .returning()
  )
}

export async function deletePrices(env: Env, models: string[]) {
  const rows = await createDb(env.DB).delete(prices).where(inArray(prices.model, models)).returning()
  await changed(env)
  return rows.length
}

/** Set one price for a list of models: removed from the list are deleted, the rest upserted. */
export async function setMultiple(env: Env, originals: string[], models: string[], f: Omit<PriceFields, 'model'>) {
  const db = createDb(env.DB)
  const removed = originals.filter((m) => !models.includes(m))
  const ops = [
    ...(removed.length ? [db.delete(prices).where(inArray(prices.model, removed))] : []),
    ...models.map((model) =>
      db
        .insert(prices)
        .values({ model, ...columns(f) })
        .onConflictDoUpdate({ target: prices.model, set: columns(f) })
    ),
  ]
  const [first, ...rest] = ops
  if (first) await db.batch([first, ...rest])
  await changed(env)
}

export type { SyncResult }

/** Apply a remote list. add: only missing models; update: only existing unlocked; overwrite: replace all unlocked. */
export async function syncPrices(env: Env, mode: 'add' | 'update' | 'overwrite', list: RemotePrice[]): Promise<SyncResult> {
  const db = createDb(env.DB)
  const local = new Map((await db.select().from(prices)).map((p) => [p.model, p]))
  const remote = new Map(list.map((p) => [p.model, p]))
  const result: SyncResult = { added: 0, updated: 0, removed: 0, skipped_locked: 0 }
  const ops: any[] = []
  for (const p of remote.values()) {
    const cur = local.get(p.model)
    // A list without tier or fee (one-hub's) leaves the row's own unchanged.
    const values = {
      type: p.type,
      channelType: p.channel_type,
      input: p.input,
      output: p.output,
      extraRatios: p.extra_ratios ?? null,
      ...(p.tier !== undefined ? { tier: p.tier } : {}),
      ...(p.fee !== undefined ? { fee: p.fee } : {}),
    }
    if (!cur) {
      if (mode === 'update') continue
      ops.push(db.insert(prices).values({ model: p.model, ...values, locked: false }))
      result.added++
    } else if (cur.locked) {
      if (mode !== 'add') result.skipped_locked++
    } else if (mode !== 'add') {
      ops.push(db.update(prices).set(values).where(eq(prices.id, cur.id)))
      result.updated++
    }
  }
  if (mode === 'overwrite') {
    const gone = [...local.values()].filter((p) => !p.locked && !remote.has(p.model)).map((p) => p.id)
    if (gone.length) ops.push(db.delete(prices).where(and(inArray(prices.id, gone), eq(prices.locked, false))))
    result.removed = gone.length
  }
  for (let i = 0; i < ops.length; i += 50) {
    const [first, ...rest] = ops.slice(i, i + 50)
    await db.batch([first, ...rest])
  }
  await changed(env)
  return result
}

/** Every model a channel serves or a price names, with whether it is priced. */
export async function modelCatalogue(env: Env) {
  const db = createDb(env.DB)
  const [priceRows, channelRows] = await Promise.all([db.select({ model: prices.model }).from(prices), db.select({ models: channels.models }).from(channels)])
  const priced = new Set(priceRows.map((p) => p.model))
  const served = new Set(
    channelRows.flatMap((c) =>
      c.models
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
    )
  )
  const wildcards = [...priced].filter((m) => m.endsWith('*')).map((m) => m.slice(0, -1))
  const isPriced = (m: string) => priced.has(m) || wildcards.some((w) => m.startsWith(w))
  const all = [...new Set([...priced, ...served])].sort()
  return { models: all, unpriced: [...served].filter((m) => !isPriced(m)).sort() } satisfies ModelCatalogue
}

/** How many models of each kind a price audit row lists in full (the counts are always exact). */
const AUDIT_LIST_MAX = 50
const priceText = (p: PriceView) =>
  `${p.type} ${p.input}/${p.output}${p.tier ? ` above ${p.tier.threshold_tokens} ${p.tier.input}/${p.tier.output}` : ''}${p.fee ? ` fee ${p.fee}` : ''}${p.locked ? ' locked' : ''}${p.extra_ratios ? ` extra ${JSON.stringify(p.extra_ratios)}` : ''}`
const sameTerms = (a: PriceView, b: PriceView) => priceText(a) === priceText(b) && a.channel_type === b.channel_type

/** Run a price write, then log one manage row with what it changed (none when nothing did). */
export async function audited<T>(env: Env, actor: SessionUser, sourceIp: string, action: string, write: () => Promise<T>): Promise<T> {
  const before = new Map((await listPrices(env)).map((p) => [p.model, p]))
  const result = await write()
  const after = await listPrices(env)
  const added = after.filter((p) => !before.has(p.model)).map((p) => `${p.model}: ${priceText(p)}`)
  const changedRows = after.flatMap((p) => {
    const old = before.get(p.model)
    return old && !sameTerms(old, p) ? [`${p.model}: ${priceText(old)} → ${priceText(p)}`] : []
  })
  const kept = new Set(after.map((p) => p.model))
  const removed = [...before.values()].filter((p) => !kept.has(p.model)).map((p) => `${p.model}: ${priceText(p)}`)
  if (added.length + changedRows.length + removed.length === 0) return result
  const head = [...added.map((x) => `+${x}`), ...changedRows.map((x) => `~${x}`), ...removed.map((x) => `-${x}`)].slice(0, 3)
  const more = added.length + changedRows.length + removed.length - head.length
  await auditLog(
    env,
    actor,
    actor,
    `price.${action}: ${added.length} added, ${changedRows.length} changed, ${removed.length} removed (${head.join('; ')}${more > 0 ? `; ${more} more` : ''})`,
    {
      added_count: added.length,
      changed_count: changedRows.length,
      removed_count: removed.length,
      added: added.slice(0, AUDIT_LIST_MAX),
      changed: changedRows.slice(0, AUDIT_LIST_MAX),
      removed: removed.slice(0, AUDIT_LIST_MAX),
    },
    sourceIp
  )
  return result
}
