/**
 * Money formatting of the statistics pages on top of lib/format's renderQuota: usage of cheap
 * models is often a fraction of a cent, so amounts below $1 keep two significant digits (up to
 * six decimals) instead of collapsing to $0.00. Raw-unit display is unchanged.
 */
import { displayInCurrency, quotaPerUnit, renderQuota } from '@/lib/format'

export function renderQuotaFine(quota: number): string {
  if (!displayInCurrency() || quota === 0) return renderQuota(quota)
  const usd = Math.abs(quota / quotaPerUnit())
  const digits = Math.min(6, Math.max(2, Math.ceil(-Math.log10(usd)) + 1))
  return renderQuota(quota, digits)
}

/** Axis ticks: '$0' for zero, otherwise as renderQuotaFine. */
export const quotaTick = (quota: number) => (quota === 0 && displayInCurrency() ? '$0' : renderQuotaFine(quota))
