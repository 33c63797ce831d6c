/**
 * Price units (one-hub ratios): ratio 1 = $0.002 per 1K tokens = $2 per 1M tokens; a
 * per-call ("times") price charges ratio × 0.002 dollars per request. Every multiplier the console
 * shows carries its dollar equivalent from here.
 */
import type { PriceType } from '@contract/pricing'

export type { PriceType }

export const USD_PER_1M_TOKENS_AT_RATIO_1 = 2
export const USD_PER_CALL_AT_RATIO_1 = 0.002

/** Dollars for one ratio: per 1M tokens for token-priced models, per call for per-call ones. */
export function ratioToUsd(type: PriceType, ratio: number): number {
  return ratio * (type === 'times' ? USD_PER_CALL_AT_RATIO_1 : USD_PER_1M_TOKENS_AT_RATIO_1)
}

/** '$1.25', '$0.075', '$0.00002': two decimals at least, more only when the value needs them. */
export function formatUsd(value: number): string {
  if (!Number.isFinite(value)) return '—'
  if (value === 0) return '$0'
  const abs = Math.abs(value)
  const digits = abs >= 1 ? 2 : Math.min(10, Math.max(2, 1 - Math.floor(Math.log10(abs)) + 2))
  const fixed = value.toFixed(digits)
  // Trim zeros beyond the second decimal: 0.150000 → 0.15, 2.50 → 2.50.
  const trimmed = fixed.replace(/(\.\d\d\d*?)0+$/, '$1')
  return `$${trimmed}`
}

/** A multiplier as typed by the admin (no float noise: 0.30000000000000004 → 0.3). */
export function formatRatio(value: number): string {
  return String(Number(value.toPrecision(12)))
}
