/**
 * The clock that limits and budgets read (relay windows, the wallet's budget periods). It is
 * Date.now() unless a test moved it: `setTestClockOffset` works only when the TEST_CLOCK var is
 * "1" (the e2e server sets it; a deployed gateway never does), so production time cannot be shifted.
 */
import { config } from './env'

let offsetMs = 0

export const clockNow = () => Date.now() + offsetMs

/** The same clock in Unix seconds (session activity and step-up times). */
export const clockSeconds = () => Math.floor(clockNow() / 1000)

/** Shift the clock by `ms` from real time (tests only); false when TEST_CLOCK is not enabled. */
export function setTestClockOffset(env: object, ms: number): boolean {
  if (!config(env).testClock || !Number.isSafeInteger(ms)) return false
  offsetMs = ms
  return true
}
