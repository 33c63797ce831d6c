/**
 * The merged view's grouping: prices that charge the same — identical type, supplier, input and
 * output multipliers, extra ratios, long-context tier and fee — form one group that is edited as a whole.
 */
import type { PriceTier } from '@contract/pricing'
import type { ExtraRatios, Price } from './api'
import { ratiosKey } from './remote-list'
import type { PriceType } from './units'

export interface PriceGroup {
  key: string
  models: string[]
  type: PriceType
  channel_type: number
  input: number
  output: number
  extra_ratios: ExtraRatios | null
  tier: PriceTier | null
  fee: number
  /** How many of the models are locked against updates. */
  locked: number
}

export function groupPrices(prices: Price[]): PriceGroup[] {
  const groups = new Map<string, PriceGroup>()
  for (const p of prices) {
    const key = JSON.stringify([p.type, p.channel_type, p.input, p.output, ratiosKey(p.extra_ratios), p.tier, p.fee])
    let g = groups.get(key)
    if (!g) {
      g = { key, models: [], type: p.type, channel_type: p.channel_type, input: p.input, output: p.output, extra_ratios: p.extra_ratios, tier: p.tier, fee: p.fee, locked: 0 }
      groups.set(key, g)
    }
    g.models.push(p.model)
    if (p.locked) g.locked++
  }
  for (const g of groups.values()) g.models.sort((a, b) => a.localeCompare(b))
  return [...groups.values()]
}
