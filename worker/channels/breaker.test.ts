/**
 * The half-open breaker (issue 34): closed → open → half-open → closed on a success; a failed probe
 * re-opens it with the cool-down doubled, capped at an hour; a failure while open does not double.
 */
import { describe, expect, it } from 'vitest'
import { breakerState, closeBreaker, cooldownSeconds, dropStale, MAX_COOLDOWN_SECONDS, openBreaker, STALE_MS, type Breakers } from './breaker'

const T = 1_000_000_000

describe('half-open breaker', () => {
  it('goes closed → open → half-open → closed on a success, and the streak starts again', () => {
    const b: Breakers = { frozen: {} }
    expect(breakerState(b.frozen.m, T)).toBe('closed')
    expect(openBreaker(b, 'm', 60, T)).toBe(T + 60_000)
    expect(breakerState(b.frozen.m, T + 59_999)).toBe('open')
    expect(breakerState(b.frozen.m, T + 60_000)).toBe('half-open')
    closeBreaker(b, 'm')
    expect(breakerState(b.frozen.m, T + 60_000)).toBe('closed')
    expect(b.opens).toEqual({})
    expect(openBreaker(b, 'm', 60, T + 70_000)).toBe(T + 130_000)
  })

  it('a failed probe re-opens with the cool-down doubled each time', () => {
    const b: Breakers = { frozen: {} }
    let now = T
    const ends: number[] = []
    for (let i = 0; i < 4; i++) {
      const until = openBreaker(b, 'm', 60, now)
      ends.push((until - now) / 1000)
      now = until // half-open: the probe fails at once
    }
    expect(ends).toEqual([60, 120, 240, 480])
    expect(b.opens!.m).toBe(4)
  })

  it('stops doubling at the cap (an hour), never below the base', () => {
    const b: Breakers = { frozen: {} }
    let now = T
    let last = 0
    for (let i = 0; i < 12; i++) {
      const until = openBreaker(b, 'm', 60, now)
      last = (until - now) / 1000
      now = until
    }
    expect(last).toBe(MAX_COOLDOWN_SECONDS)
    expect(cooldownSeconds(60, 7)).toBe(3600)
    expect(cooldownSeconds(60, 99)).toBe(3600)
    expect(cooldownSeconds(7200, 3)).toBe(7200)
  })

  it('a failure while open keeps the later end without doubling', () => {
    const b: Breakers = { frozen: {} }
    openBreaker(b, 'm', 60, T)
    expect(openBreaker(b, 'm', 60, T + 30_000)).toBe(T + 90_000)
    expect(b.opens!.m).toBe(1)
  })

  it('keeps prototype names as own entries and forgets half-open breakers nobody probed', () => {
    const b: Breakers = { frozen: {} }
    openBreaker(b, '__proto__', 60, T)
    expect(Object.keys(b.frozen)).toEqual(['__proto__'])
    dropStale(b, T + 60_000 + STALE_MS - 1)
    expect(Object.keys(b.frozen)).toEqual(['__proto__'])
    dropStale(b, T + 60_000 + STALE_MS)
    expect(b.frozen).toEqual({})
    expect(b.opens).toEqual({})
  })
})
