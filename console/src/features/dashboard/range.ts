/**
 * Date ranges of the dashboard and analytics pages. The statistics rollup buckets usage by UTC
 * date, so a range is a pair of UTC dates ('YYYY-MM-DD'): a preset (the last 7 / 14 / 30 days,
 * today included) or a custom from/to kept in the URL. Also turns a range into the API's
 * start/end timestamps and lists its days (to draw days without usage as zero).
 */
import { z } from 'zod'

export const RANGE_PRESETS = [7, 14, 30] as const
export type RangePreset = (typeof RANGE_PRESETS)[number]
export const DEFAULT_PRESET: RangePreset = 7
/** The server refuses longer ranges. */
export const MAX_RANGE_DAYS = 366

const DAY = 86400
const isoDate = /^\d{4}-\d{2}-\d{2}$/

/** URL search params of a page with a range: `?days=14` or `?from=2025-01-01&to=2025-01-31`. */
export const rangeSearchSchema = z.object({
  days: z
    .union([z.literal(7), z.literal(14), z.literal(30)])
    .optional()
    .catch(undefined),
  from: z.string().regex(isoDate).optional().catch(undefined),
  to: z.string().regex(isoDate).optional().catch(undefined),
})
export type RangeSearch = z.infer<typeof rangeSearchSchema>

export interface DayRange {
  from: string
  to: string
  /** The preset it came from; undefined for a custom range. */
  preset?: RangePreset
  /** The URL asked for a custom range that is not one (a day that does not exist, reversed, too long): the preset is shown instead. */
  invalid?: boolean
}

/** Seconds since the epoch of a UTC date's midnight. */
export const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000
export const dateOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10)
export const todayUtc = () => dateOf(Math.floor(Date.now() / 1000))

/** Inclusive number of days of a range. */
export const rangeLength = (from: string, to: string) => Math.round((dayStart(to) - dayStart(from)) / DAY) + 1

export function presetRange(days: RangePreset, today = todayUtc()): DayRange {
  return { from: dateOf(dayStart(today) - (days - 1) * DAY), to: today, preset: days }
}

/** The range a page shows for its search params (a valid custom range wins, else the preset). */
export function resolveRange(search: RangeSearch): DayRange {
  const { from, to } = search
  if (from && to && isValidRange(from, to)) return { from, to }
  const range = presetRange(search.days ?? DEFAULT_PRESET)
  return from || to ? { ...range, invalid: true } : range
}

/** 'YYYY-MM-DD' naming a day that exists (not 2025-02-30). */
export const isCalendarDate = (date: string) => !Number.isNaN(dayStart(date)) && dateOf(dayStart(date)) === date

export function isValidRange(from: string, to: string): boolean {
  if (!isCalendarDate(from) || !isCalendarDate(to)) return false
  const days = rangeLength(from, to)
  return days >= 1 && days <= MAX_RANGE_DAYS
}

/** Query params of the statistics endpoints: from the first second of `from` to the last of `to`. */
export function rangeTimestamps(range: DayRange) {
  return { start_timestamp: dayStart(range.from), end_timestamp: dayStart(range.to) + DAY - 1 }
}

/** Every date of the range, oldest first. */
export function rangeDays(range: DayRange): string[] {
  const start = dayStart(range.from)
  return Array.from({ length: rangeLength(range.from, range.to) }, (_, i) => dateOf(start + i * DAY))
}

/** 'YYYY-MM-DD' → 'MM-DD' for axis ticks. */
export const shortDate = (date: string) => date.slice(5)

/** Validation of the custom range form (messages are keys of the dashboard namespace). */
export const customRangeSchema = z
  .object({
    from: z.string().regex(isoDate, 'dashboard:range.errors.date').refine(isCalendarDate, 'dashboard:range.errors.invalid'),
    to: z.string().regex(isoDate, 'dashboard:range.errors.date').refine(isCalendarDate, 'dashboard:range.errors.invalid'),
  })
  .refine((v) => dayStart(v.from) <= dayStart(v.to), { message: 'dashboard:range.errors.order', path: ['to'] })
  .refine((v) => rangeLength(v.from, v.to) <= MAX_RANGE_DAYS, { message: 'dashboard:range.errors.tooLong', path: ['to'] })
export type CustomRangeValues = z.infer<typeof customRangeSchema>
