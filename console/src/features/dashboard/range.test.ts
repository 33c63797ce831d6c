import { describe, expect, it } from 'vitest'
import { customRangeSchema, isValidRange, MAX_RANGE_DAYS, presetRange, rangeDays, rangeLength, rangeSearchSchema, rangeTimestamps, resolveRange, shortDate } from './range'

describe('dashboard ranges', () => {
  it('builds a preset ending today, today included', () => {
    expect(presetRange(7, '2025-03-04')).toEqual({ from: '2025-02-26', to: '2025-03-04', preset: 7 })
    expect(rangeLength('2025-02-26', '2025-03-04')).toBe(7)
  })

  it('prefers a valid custom range and falls back to the preset otherwise', () => {
    expect(resolveRange({ from: '2025-01-01', to: '2025-01-31', days: 14 })).toEqual({ from: '2025-01-01', to: '2025-01-31' })
    expect(resolveRange({ from: '2025-02-01', to: '2025-01-01' }).preset).toBe(7)
    expect(resolveRange({ days: 30 }).preset).toBe(30)
  })

  it('accepts 1 to MAX_RANGE_DAYS days and refuses reversed or unparsable ranges', () => {
    expect(isValidRange('2025-01-01', '2025-01-01')).toBe(true)
    expect(isValidRange('2024-01-01', '2024-12-31')).toBe(true)
    expect(rangeLength('2024-01-01', '2024-12-31')).toBeLessThanOrEqual(MAX_RANGE_DAYS)
    expect(isValidRange('2024-01-01', '2025-01-02')).toBe(false)
    expect(isValidRange('2025-01-02', '2025-01-01')).toBe(false)
    expect(isValidRange('2025-13-45', '2025-01-01')).toBe(false)
  })

  it('turns a range into whole UTC days for the API and the chart', () => {
    expect(rangeTimestamps({ from: '2025-01-01', to: '2025-01-02' })).toEqual({ start_timestamp: 1735689600, end_timestamp: 1735689600 + 2 * 86400 - 1 })
    expect(rangeDays({ from: '2024-02-28', to: '2024-03-01' })).toEqual(['2024-02-28', '2024-02-29', '2024-03-01'])
    expect(shortDate('2025-01-09')).toBe('01-09')
  })

  it('drops bad URL params instead of failing the page', () => {
    expect(rangeSearchSchema.parse({ days: 9, from: 'yesterday', to: '2025-01-01' })).toEqual({ days: undefined, from: undefined, to: '2025-01-01' })
  })

  it('says "Invalid date" for a day that does not exist, in the form and in the URL', () => {
    const form = customRangeSchema.safeParse({ from: '2025-02-30', to: '2025-03-01' })
    expect(form.success ? null : form.error.issues[0]?.message).toBe('dashboard:range.errors.invalid')
    expect(isValidRange('2025-02-30', '2025-03-01')).toBe(false)
    expect(resolveRange({ from: '2025-02-30', to: '2025-03-01' })).toMatchObject({ preset: 7, invalid: true })
    expect(resolveRange({ days: 14 }).invalid).toBeUndefined()
  })

  it('validates the custom range form with dashboard message keys', () => {
    expect(customRangeSchema.safeParse({ from: '2025-01-01', to: '2025-01-31' }).success).toBe(true)
    const reversed = customRangeSchema.safeParse({ from: '2025-02-01', to: '2025-01-01' })
    expect(reversed.success ? null : reversed.error.issues[0]?.message).toBe('dashboard:range.errors.order')
    const long = customRangeSchema.safeParse({ from: '2020-01-01', to: '2025-01-01' })
    expect(long.success ? null : long.error.issues[0]?.message).toBe('dashboard:range.errors.tooLong')
  })
})
