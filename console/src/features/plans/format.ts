/**
 * How plans read on screen: the USD price (formatted like the top-up page's money), the duration
 * ("1 month", "unlimited"), an allowance (quota as the console shows quota elsewhere, or a count of
 * requests), a window ("100 requests / day") and a per-model item ("not included"), and Unix-ms times.
 */
import type { TFunction } from 'i18next'
import { displayInCurrency, renderQuota, timestamp2string } from '@/lib/format'
import { formatMoney } from '@/lib/payment-amount'
import type { PlanDurationUnit, PlanModelItem, PlanPeriod } from '@contract/plans'

type T = TFunction<'plans'>

export const formatPrice = (price: number) => formatMoney(Math.round(price * 100), 'USD')

export function formatDuration(t: T, unit: PlanDurationUnit, count: number): string {
  return unit === 'unlimited' ? t('duration.unlimited') : t(`duration.${unit}`, { count })
}

/** An allowance in quota units or in requests (exactly one is set). */
export function formatAllowance(t: T, a: { quota?: number; requests?: number }): string {
  return a.quota !== undefined ? renderQuota(a.quota) : t('requests', { count: a.requests ?? 0 })
}

export function formatWindow(t: T, w: { period: PlanPeriod; quota?: number; requests?: number }): string {
  return t('perPeriod', { amount: formatAllowance(t, w), period: t(`period.${w.period}`) })
}

/** A per-model item; its allowance renews with the plan's first window (`period`). */
export function formatModelItem(t: T, item: PlanModelItem, period: PlanPeriod | undefined): string {
  if ('excluded' in item) return t('models.excluded')
  const amount = formatAllowance(t, item)
  return period ? t('perPeriod', { amount, period: t(`period.${period}`) }) : amount
}

/** Unix ms → local 'YYYY-MM-DD HH:mm'. */
export const formatTime = (ms: number) => timestamp2string(Math.floor(ms / 1000)).slice(0, 16)

/** An allowance kind in the editor; a quota is typed in dollars when the site shows currency. */
export const kindLabel = (t: T, kind: string) => (kind === 'quota' && displayInCurrency() ? t('kind.quotaUsd') : t(`kind.${kind}`))
