/**
 * The price of one call under a `times` price name (an asynchronous task's action, an MCP tool):
 * the named price × the group ratio, or why it cannot be priced. Tasks and MCP tool calls both
 * price here, then hold and settle through the one Charge (charge.ts).
 */
import type { Settings } from '../settings/store'
import { computeQuota } from './formula'
import { groupRatio, type PriceTable, resolvePrice } from './pricing'

export type CallPrice = { quota: number } | { refused: 'group_not_found' | 'not_priced' }

export interface CallPriceOptions {
  /** The call costs nothing (it is still held at 0 and logged). */
  free?: boolean
  /** Fall back to the DefaultModelPrice setting when `names` have no price (tasks do; MCP tools do not). */
  defaultPrice?: boolean
}

/** The quota of one call priced by the first of `names` that has a price. */
export function perCallQuota(settings: Settings, prices: PriceTable, group: string, names: [string, ...string[]], opts: CallPriceOptions = {}): CallPrice {
  const ratio = groupRatio(settings, group)
  if (ratio === undefined) return { refused: 'group_not_found' }
  let price = names.map((n) => resolvePrice(prices, n)).find(Boolean)
  if (!price && opts.defaultPrice) price = resolvePrice(prices, names[0], settings)
  if (!price) return opts.free ? { quota: 0 } : { refused: 'not_priced' }
  if (opts.free) return { quota: 0 }
  return { quota: computeQuota({ ...price, type: 'times' }, { promptTokens: 0, completionTokens: 0, calls: 1 }, ratio).quota }
}
