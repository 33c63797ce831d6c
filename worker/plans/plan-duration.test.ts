import { describe, expect, it } from 'vitest'
import { expiryAfter } from './plan-duration'

const iso = (ms: number) => new Date(ms).toISOString()

describe('plan durations', () => {
  it('adds calendar months in the local zone, clamped to the month end', () => {
    // 31 Jan 2027 10:00 in Shanghai (02:00 UTC) + 1 month = 28 Feb 10:00 local.
    const start = Date.UTC(2027, 0, 31, 2)
    expect(iso(expiryAfter(start, 'month', 1, 'Asia/Shanghai'))).toBe('2027-02-28T02:00:00.000Z')
    expect(iso(expiryAfter(start, 'month', 3, 'Asia/Shanghai'))).toBe('2027-04-30T02:00:00.000Z')
    // 31 Jan 2027 20:00 UTC is already 1 Feb 04:00 in Shanghai: one month later is 1 Mar 04:00 local
    // (no clamping there), while UTC clamps 31 Jan to 28 Feb; both land on 28 Feb 20:00 UTC.
    const late = Date.UTC(2027, 0, 31, 20)
    expect(iso(expiryAfter(late, 'month', 1, 'Asia/Shanghai'))).toBe('2027-02-28T20:00:00.000Z')
    expect(iso(expiryAfter(late, 'month', 1, 'UTC'))).toBe('2027-02-28T20:00:00.000Z')
    expect(iso(expiryAfter(Date.UTC(2027, 0, 31, 17), 'month', 1, 'Asia/Shanghai'))).toBe('2027-02-28T17:00:00.000Z')
    // A leap day plus a year is 28 Feb.
    expect(iso(expiryAfter(Date.UTC(2028, 1, 29, 12), 'year', 1, 'UTC'))).toBe('2029-02-28T12:00:00.000Z')
  })

  it('keeps the local time of day across daylight saving; hours are exact; unlimited never ends', () => {
    // 7 Mar 2027 09:00 EST (14:00 UTC) + 1 day = 8 Mar 09:00 EST; + 1 week crosses the 14 Mar switch to EDT.
    const ny = Date.UTC(2027, 2, 7, 14)
    expect(iso(expiryAfter(ny, 'day', 1, 'America/New_York'))).toBe('2027-03-08T14:00:00.000Z')
    expect(iso(expiryAfter(ny, 'week', 1, 'America/New_York'))).toBe('2027-03-14T13:00:00.000Z')
    expect(iso(expiryAfter(ny, 'month', 1, 'America/New_York'))).toBe('2027-04-07T13:00:00.000Z')
    expect(expiryAfter(ny, 'hour', 5, 'America/New_York')).toBe(ny + 5 * 3_600_000)
    expect(expiryAfter(ny, 'unlimited', 1, 'America/New_York')).toBe(0)
  })
})
