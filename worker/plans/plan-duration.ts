/**
 * Plan durations (issue 33): when a subscription of `count` × `unit` that starts at an instant ends,
 * by the calendar of the BudgetTimezone setting. Hours are exact; days and weeks are local calendar
 * days (the same local time, whatever DST does); months and years add calendar months (clamped to
 * the month's last day). `unlimited` never ends (0).
 */
import { addLocalCalendar } from '../lib/budget-period'
import type { PlanDurationUnit } from '../../shared/contract/plans'

export function expiryAfter(fromMs: number, unit: PlanDurationUnit, count: number, tz: string): number {
  switch (unit) {
    case 'unlimited':
      return 0
    case 'hour':
      return fromMs + count * 3_600_000
    case 'day':
      return addLocalCalendar(fromMs, tz, 0, count)
    case 'week':
      return addLocalCalendar(fromMs, tz, 0, 7 * count)
    case 'month':
      return addLocalCalendar(fromMs, tz, count, 0)
    case 'year':
      return addLocalCalendar(fromMs, tz, 12 * count, 0)
  }
}
