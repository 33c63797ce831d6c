/**
 * Budget periods: the start and end (Unix ms) of the day, ISO week (Monday) or calendar month that
 * contains an instant, in an IANA time zone (the BudgetTimezone setting; UTC by default). Daylight
 * saving shifts are handled: a period starts at local midnight, whatever the offset is that day.
 */
export type BudgetPeriod = '' | 'day' | 'week' | 'month'
export const BUDGET_PERIODS = ['', 'day', 'week', 'month'] as const

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(tz, f)
  }
  return f
}

/** Local wall-clock parts of `ms` in `tz`. */
function localParts(ms: number, tz: string) {
  const parts: Record<string, number> = {}
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return { y: parts.year!, m: parts.month!, d: parts.day!, h: parts.hour!, min: parts.minute!, s: parts.second! }
}

/** Offset of `tz` from UTC at `ms` (local − UTC, ms). */
function offsetAt(ms: number, tz: string): number {
  const p = localParts(ms, tz)
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000
}

/** The UTC instant of local midnight of (y, m, d) in `tz` (Date.UTC normalises overflowing days and months). */
function localMidnight(y: number, m: number, d: number, tz: string): number {
  const wall = Date.UTC(y, m - 1, d)
  let at = wall - offsetAt(wall, tz)
  // Across a DST change the offset at the guess may differ from the offset at midnight itself.
  const again = wall - offsetAt(at, tz)
  if (again !== at) at = again
  return at
}

/** Start (inclusive) and end (exclusive) of the period containing `ms`. */
export function periodBounds(period: Exclude<BudgetPeriod, ''>, tz: string, ms: number): { start: number; end: number } {
  const p = localParts(ms, tz)
  if (period === 'day') return { start: localMidnight(p.y, p.m, p.d, tz), end: localMidnight(p.y, p.m, p.d + 1, tz) }
  if (period === 'month') return { start: localMidnight(p.y, p.m, 1, tz), end: localMidnight(p.y, p.m + 1, 1, tz) }
  const weekday = new Date(Date.UTC(p.y, p.m - 1, p.d)).getUTCDay()
  const back = (weekday + 6) % 7
  return { start: localMidnight(p.y, p.m, p.d - back, tz), end: localMidnight(p.y, p.m, p.d - back + 7, tz) }
}

/**
 * Bounds of a plan window (issue 33): the periods above, and the local hour (which starts at the
 * local :00, so zones with half-hour offsets roll at their own hour).
 */
export function windowBounds(period: 'hour' | Exclude<BudgetPeriod, ''>, tz: string, ms: number): { start: number; end: number } {
  if (period !== 'hour') return periodBounds(period, tz, ms)
  const p = localParts(ms, tz)
  const start = Math.floor(ms / 1000) * 1000 - (p.min * 60 + p.s) * 1000
  return { start, end: start + 3_600_000 }
}

/** The UTC instant of a local wall-clock time in `tz` (given as if it were UTC), across DST changes. */
function localToUtc(wall: number, tz: string): number {
  const at = wall - offsetAt(wall, tz)
  return wall - offsetAt(at, tz)
}

/**
 * `ms` moved by whole local calendar months and days in `tz` (plan durations, issue 33): the same
 * local time of day on the target date; a day past the end of the target month is clamped to its
 * last day (31 Jan + 1 month = 28/29 Feb), and a day is 23 or 25 hours across a DST change.
 */
export function addLocalCalendar(ms: number, tz: string, months: number, days: number): number {
  const p = localParts(ms, tz)
  const monthIndex = p.m - 1 + months
  const lastDay = new Date(Date.UTC(p.y, monthIndex + 1, 0)).getUTCDate()
  const wall = Date.UTC(p.y, monthIndex, Math.min(p.d, lastDay) + days, p.h, p.min, p.s) + (((ms % 1000) + 1000) % 1000)
  return localToUtc(wall, tz)
}
