/**
 * The half-open circuit breaker of a (channel, model) freeze or a pool key's rest, as pure
 * functions shared by the ChannelHealth object (channel-health.do.ts) and the isolate view
 * (health.ts). A breaker entry is `until` (ms): absent = closed; `until > now` = open (the pair is
 * skipped); `until <= now` = half-open: one probe request may try the pair, a success closes it
 * (the entry and its open count go), a failure opens it again with the cool-down doubled per
 * consecutive opening, capped at MAX_COOLDOWN_SECONDS (one hour; never below the base cool-down).
 * A half-open entry nobody probed for STALE_MS is forgotten (closed). Also the names freezes
 * travel under: a model, or a user's personal rest of it (pool keys: key-pool.ts keyFreezeName).
 */

/** The longest a failed probe can re-freeze a pair: doubling stops here. */
export const MAX_COOLDOWN_SECONDS = 3600

/** A half-open breaker nobody probed for this long (past its `until`) is dropped (closed). */
export const STALE_MS = 24 * 3600 * 1000

export type BreakerState = 'closed' | 'open' | 'half-open'

export function breakerState(until: number | undefined, now: number): BreakerState {
  if (until === undefined) return 'closed'
  return until > now ? 'open' : 'half-open'
}

/** The cool-down (seconds) of the `opens`-th consecutive opening: the base doubled each time, capped. */
export function cooldownSeconds(baseSeconds: number, opens: number): number {
  const cap = Math.max(MAX_COOLDOWN_SECONDS, baseSeconds)
  return Math.min(cap, baseSeconds * 2 ** Math.min(Math.max(0, opens - 1), 30))
}

/** Per-name breaker state as the object stores it (records with own keys only). */
export interface Breakers {
  /** name → open until (ms); past `until` the breaker is half-open. */
  frozen: Record<string, number>
  /** name → consecutive openings without a success between (drives the doubling). */
  opens?: Record<string, number>
}

export const own = (rec: Record<string, number> | undefined, name: string) => (rec && Object.hasOwn(rec, name) ? rec[name]! : undefined)

/** Sets an own entry (defineProperty: a model named `__proto__` is an entry like any other). */
function setOwn(rec: Record<string, number>, name: string, value: number) {
  Object.defineProperty(rec, name, { value, enumerable: true, writable: true, configurable: true })
}

/**
 * A failure asking to freeze `name` for `baseSeconds`: a closed breaker opens for the base; a
 * half-open one (its probe failed) opens again for double its last cool-down (capped); an open one
 * keeps the later of its end and the base from now (no doubling: it was not probed). Returns the end.
 */
export function openBreaker(b: Breakers, name: string, baseSeconds: number, now: number): number {
  const until = own(b.frozen, name)
  b.opens ??= {}
  const state = breakerState(until, now)
  if (state === 'open') {
    const value = Math.max(until!, now + baseSeconds * 1000)
    setOwn(b.frozen, name, value)
    return value
  }
  const opens = state === 'half-open' ? (own(b.opens, name) ?? 1) + 1 : 1
  setOwn(b.opens, name, opens)
  const value = now + cooldownSeconds(baseSeconds, opens) * 1000
  setOwn(b.frozen, name, value)
  return value
}

/** A success: the breaker of `name` closes and its streak of openings ends. */
export function closeBreaker(b: Breakers, name: string) {
  delete b.frozen[name]
  if (b.opens) delete b.opens[name]
}

/** Drops half-open breakers nobody probed within STALE_MS. */
export function dropStale(b: Breakers, now: number) {
  for (const [name, until] of Object.entries(b.frozen)) if (until + STALE_MS <= now) closeBreaker(b, name)
}

const REST_PREFIX = '\u0000rest:'

/** The freeze entry that rests `model` on a channel for one actor alone (its own requests skip it). */
export const personalFreezeName = (model: string, actor: string) => `${REST_PREFIX}${actor}\u0000${model}`

/** Whether `name` is `model` itself or one actor's rest of it. */
export const namesModel = (name: string, model: string) => name === model || (name.startsWith(REST_PREFIX) && name.endsWith(`\u0000${model}`))
