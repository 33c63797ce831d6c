/** Shaping of the period series: every day of the range present (missing days count as zero), averages derived. */
import type { PeriodStatistics } from '@contract/analytics'

/** One value object per day of `days`, taken from `rows` or `zero` when the day has none. */
export function fillDays<T extends { date: string }>(rows: T[], days: string[], zero: Omit<T, 'date'>): T[] {
  const byDay = new Map(rows.map((r) => [r.date, r]))
  return days.map((date) => byDay.get(date) ?? ({ ...zero, date } as T))
}

export function shapePeriod(period: PeriodStatistics | undefined, days: string[]) {
  const daily = fillDays(period?.daily ?? [], days, { request_count: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0, request_time: 0, saved_quota: 0 }).map(
    // No requests: no average (a gap in the line, not a misleading zero).
    (d) => ({ ...d, avg_time: d.request_count ? Math.round(d.request_time / d.request_count) : null })
  )
  const registrations = fillDays(period?.registrations ?? [], days, { direct: 0, invited: 0 })
  const redemptions = fillDays(period?.redemptions ?? [], days, { count: 0, quota: 0 })
  const sum = <T>(list: T[], pick: (x: T) => number) => list.reduce((s, x) => s + pick(x), 0)
  return {
    daily,
    registrations,
    redemptions,
    totals: {
      quota: sum(daily, (d) => d.quota),
      saved: sum(daily, (d) => d.saved_quota ?? 0),
      requests: sum(daily, (d) => d.request_count),
      tokens: sum(daily, (d) => d.prompt_tokens + d.completion_tokens),
      direct: sum(registrations, (r) => r.direct),
      invited: sum(registrations, (r) => r.invited),
      redeemedCount: sum(redemptions, (r) => r.count),
      redeemedQuota: sum(redemptions, (r) => r.quota),
    },
  }
}

export type ShapedPeriod = ReturnType<typeof shapePeriod>
