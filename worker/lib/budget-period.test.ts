import { describe, expect, it } from 'vitest'
import { isTimeZone } from '../../shared/contract/option-checks'
import { periodBounds, windowBounds } from './budget-period'

const iso = (ms: number) => new Date(ms).toISOString()

describe('budget periods', () => {
  it('days, ISO weeks and months in UTC', () => {
    const at = Date.UTC(2026, 10, 26, 9, 30) // Thursday 26 Nov 2026
    expect(periodBounds('day', 'UTC', at)).toEqual({ start: Date.UTC(2026, 10, 26), end: Date.UTC(2026, 10, 27) })
    expect(periodBounds('week', 'UTC', at)).toEqual({ start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 30) })
    expect(periodBounds('month', 'UTC', at)).toEqual({ start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1) })
    expect(periodBounds('month', 'UTC', Date.UTC(2026, 11, 31, 23, 59, 59))).toEqual({ start: Date.UTC(2026, 11, 1), end: Date.UTC(2027, 0, 1) })
    // A Sunday belongs to the week that began on Monday.
    expect(iso(periodBounds('week', 'UTC', Date.UTC(2026, 10, 29, 23)).start)).toBe('2026-11-23T00:00:00.000Z')
  })

  it('start at local midnight in other zones, across daylight saving', () => {
    // 26 Nov 2026 01:00 UTC is 09:00 in Shanghai: the local day began at 25 Nov 16:00 UTC.
    expect(iso(periodBounds('day', 'Asia/Shanghai', Date.UTC(2026, 10, 26, 1)).start)).toBe('2026-11-25T16:00:00.000Z')
    // 25 Nov 2026 17:00 UTC is already the 26th in Shanghai.
    expect(iso(periodBounds('day', 'Asia/Shanghai', Date.UTC(2026, 10, 25, 17)).start)).toBe('2026-11-25T16:00:00.000Z')
    // New York leaves DST on 1 Nov 2026: that day is 25 hours long.
    const ny = periodBounds('day', 'America/New_York', Date.UTC(2026, 10, 1, 12))
    expect(iso(ny.start)).toBe('2026-11-01T04:00:00.000Z')
    expect(iso(ny.end)).toBe('2026-11-02T05:00:00.000Z')
    // March 2026 in New York: starts in EST, ends in EDT.
    const march = periodBounds('month', 'America/New_York', Date.UTC(2026, 2, 15))
    expect(iso(march.start)).toBe('2026-03-01T05:00:00.000Z')
    expect(iso(march.end)).toBe('2026-04-01T04:00:00.000Z')
  })

  it('knows IANA names', () => {
    expect(isTimeZone('UTC')).toBe(true)
    expect(isTimeZone('Asia/Shanghai')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
    expect(isTimeZone('')).toBe(false)
  })

  it('hour windows start at the local :00, in whole-hour and half-hour zones', () => {
    const at = Date.UTC(2026, 2, 8, 10, 47, 12, 500)
    expect(windowBounds('hour', 'UTC', at)).toEqual({ start: Date.UTC(2026, 2, 8, 10), end: Date.UTC(2026, 2, 8, 11) })
    // India is UTC+5:30: its local hours start at :30 UTC.
    expect(windowBounds('hour', 'Asia/Kolkata', at)).toEqual({ start: Date.UTC(2026, 2, 8, 10, 30), end: Date.UTC(2026, 2, 8, 11, 30) })
    expect(windowBounds('day', 'Asia/Shanghai', at)).toEqual(periodBounds('day', 'Asia/Shanghai', at))
  })
})
