/**
 * Model prices as the relay reads them: the `prices` table in an isolate snapshot fed by KV
 * (cache/versioned.ts), resolved by exact name first, then by the longest trailing-`*` wildcard,
 * then the admin's DefaultModelPrice option. An unpriced model is refused, never billed silently.
 * Lookups by a client's model or group name are own-key only (`constructor` is not a price).
 */
import { createDb } from '../db/client'
import { prices } from '../db/schema'
import { Snapshot, type BackgroundCtx } from '../cache/versioned'
import type { Settings } from '../settings/store'
import type { ModelPrice, PriceType } from './formula'

export interface PriceTable {
  exact: Record<string, ModelPrice>
  /** Wildcards sorted by prefix length, longest first. */
  wildcards: { prefix: string; price: ModelPrice }[]
}

async function loadPrices(env: Env): Promise<PriceTable> {
  const rows = await createDb(env.DB).select().from(prices)
  const table: PriceTable = { exact: {}, wildcards: [] }
  for (const r of rows) {
    const price: ModelPrice = {
      model: r.model,
      type: r.type as PriceType,
      input: r.input,
      output: r.output,
      extraRatios: r.extraRatios,
      ...(r.tier ? { tier: { threshold: r.tier.threshold_tokens, input: r.tier.input, output: r.tier.output } } : {}),
      ...(r.fee ? { fee: r.fee } : {}),
    }
    if (r.model.endsWith('*')) table.wildcards.push({ prefix: r.model.slice(0, -1), price })
    else table.exact[r.model] = price
  }
  table.wildcards.sort((a, b) => b.prefix.length - a.prefix.length)
  return table
}

export const priceSnapshot = new Snapshot('prices', loadPrices)

export function resolvePrice(table: PriceTable, model: string, settings?: Settings): ModelPrice | undefined {
  const exact = Object.hasOwn(table.exact, model) ? table.exact[model] : undefined
  if (exact) return exact
  for (const w of table.wildcards) if (model.startsWith(w.prefix)) return w.price
  const fallback = settings?.str('DefaultModelPrice')
  if (fallback) {
    const p = JSON.parse(fallback) as { type: PriceType; input: number; output: number }
    return { model: '(default price)', type: p.type, input: p.input, output: p.output }
  }
  return undefined
}

export async function getPriceTable(env: Env, ctx?: BackgroundCtx): Promise<PriceTable> {
  return priceSnapshot.get(env, ctx)
}

/** Group ratio from the GroupRatio setting (kept in sync with user groups); undefined = unknown group. */
export function groupRatio(settings: Settings, group: string): number | undefined {
  const ratios = settings.json<Record<string, number>>('GroupRatio')
  const r = Object.hasOwn(ratios, group) ? ratios[group] : undefined
  return typeof r === 'number' && r >= 0 ? r : undefined
}
