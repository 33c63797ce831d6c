/**
 * ChannelHealth: one Durable Object per channel (and one per pool key for its strikes) holding its
 * breakers per model (breaker.ts: a failed (channel, model) pair is skipped until its cool-down
 * ends, then half-open for one probe; this object keeps the consecutive-open count so a failed
 * probe's doubled cool-down survives isolates), its recent outcome counters, and the serialised
 * entry to auto-disable and re-enable (status.ts writes the status, its history and alerts; this
 * object then resets its state). Relays report outcomes off the response path and read breakers
 * through an isolate-local view (health.ts), never waiting on this object.
 *
 * Auto-disable strikes (issue 12): the channel is disabled only after `threshold` consecutive
 * qualifying failures (auth/billing) within the window that came from at least two different users
 * or from a channel test, so one user's bad traffic cannot take a shared channel out alone; any
 * reported success clears the strikes. Model names are client input: own keys only.
 *
 * Shared freezes (issue 31): a relay failure freezes the (channel, model) for everyone only once
 * failures of two users (the same rule) fell within the window; until then it rests the model for
 * the failing user alone (`personalFreezeName`), so one user's provoked failures cannot take a model
 * off a channel for everyone. A pool key's own rest is never voted on.
 */
import { DurableObject } from 'cloudflare:workers'
import { closeBreaker, dropStale, namesModel, openBreaker, own, personalFreezeName } from './breaker'
import { disableChannel, enableChannel } from './status'

export interface HealthReport {
  channelId: number
  model: string
  ok: boolean
  status?: number
  message?: string
  /** Freeze this (channel, model) for this many seconds (failures only). */
  freezeSeconds?: number
  /** A second model frozen alike (a pool key's freeze that left the pool no key for `model`). */
  alsoFreeze?: string
  /** Success of a pool key's attempt: this key name's breaker closes too. */
  key?: string
  /** A (channel, model) freeze that needs failures of two users within its window. */
  sharedFreeze?: SharedFreeze
}

/**
 * Freeze `model` for everyone for `seconds` once failures of two users (`actor` and another) fell
 * within `windowMs`; with fewer, only `actor`'s requests skip it (its `personalFreezeName`).
 */
export interface SharedFreeze {
  model: string
  actor: string
  windowMs: number
  seconds: number
}

export interface HealthState {
  consecutiveFailures: number
  successes: number
  failures: number
  lastError: string
  lastErrorAt: number
  lastSuccessAt: number
  /** Breakers: name → open until (ms); past it half-open until a success or a new failure. */
  frozen: Record<string, number>
  /** Consecutive openings per breaker name (breaker.ts doubles the cool-down on each). */
  opens?: Record<string, number>
  /** Qualifying failures since the last success: when, and whose request (`user:<id>` or `test`). */
  strikes?: { at: number; actor: string }[]
  /** Failures asking for a shared freeze, per model, since its last success (within the window). */
  freezeVotes?: { model: string; at: number; actor: string }[]
}

/** One qualifying (auth/billing) failure towards auto-disable. */
export interface StrikeInput {
  /** Who sent the failing request: `user:<id>`, or `test` for a channel test. */
  actor: string
  threshold: number
  windowMs: number
}

const EMPTY: HealthState = { consecutiveFailures: 0, successes: 0, failures: 0, lastError: '', lastErrorAt: 0, lastSuccessAt: 0, frozen: {}, opens: {}, strikes: [] }

/** Whether the strikes justify disabling (or a shared freeze): enough of them, from two users or a channel test. */
export function strikesDisable(strikes: { actor: string }[], threshold: number): boolean {
  if (strikes.length < Math.max(1, threshold)) return false
  const actors = new Set(strikes.map((s) => s.actor))
  return actors.has('test') || actors.size >= 2
}

export class ChannelHealth extends DurableObject<Env> {
  private state: HealthState | undefined

  private load(): HealthState {
    this.state ??= this.ctx.storage.kv.get<HealthState>('state') ?? structuredClone(EMPTY)
    dropStale(this.state, Date.now())
    return this.state
  }

  /** Records an outcome; returns the freezes it set (name → until), a shared freeze's included. */
  report(r: HealthReport): Record<string, number> {
    const s = this.load()
    const now = Date.now()
    const set: Record<string, number> = {}
    if (r.ok) {
      s.successes++
      s.consecutiveFailures = 0
      s.strikes = []
      s.lastSuccessAt = now
      s.freezeVotes = (s.freezeVotes ?? []).filter((v) => v.model !== r.model)
      for (const name of Object.keys(s.frozen)) if (namesModel(name, r.model) || name === r.key) closeBreaker(s, name)
    } else {
      s.failures++
      s.consecutiveFailures++
      s.lastError = `${r.status ?? 'network'}: ${(r.message ?? '').slice(0, 300)}`
      s.lastErrorAt = now
      const names: [string, number][] = []
      if (r.freezeSeconds && r.freezeSeconds > 0) for (const name of r.alsoFreeze === undefined ? [r.model] : [r.model, r.alsoFreeze]) names.push([name, r.freezeSeconds])
      if (r.sharedFreeze && r.sharedFreeze.seconds > 0) names.push([this.voteFreeze(s, r.sharedFreeze, now), r.sharedFreeze.seconds])
      for (const [name, seconds] of names) Object.defineProperty(set, name, { value: openBreaker(s, name, seconds, now), enumerable: true })
    }
    this.ctx.storage.kv.put('state', s)
    return set
  }

  /** One user's vote for a shared freeze; returns what to freeze: the model once two users voted within the window, else the actor's rest. */
  private voteFreeze(s: HealthState, vote: SharedFreeze, now: number): string {
    s.freezeVotes = [...(s.freezeVotes ?? []).filter((v) => now - v.at < vote.windowMs), { model: vote.model, at: now, actor: vote.actor }].slice(-200)
    const mine = s.freezeVotes.filter((v) => v.model === vote.model)
    return strikesDisable(mine, 1) ? vote.model : personalFreezeName(vote.model, vote.actor)
  }

  /**
   * Records a qualifying failure; true when the channel should now be disabled (the caller then
   * calls disable). Strikes older than the window drop out; a success (report ok) clears them.
   */
  strike(input: StrikeInput): boolean {
    const s = this.load()
    const now = Date.now()
    s.strikes = [...(s.strikes ?? []).filter((x) => now - x.at < input.windowMs), { at: now, actor: input.actor }].slice(-100)
    const disable = strikesDisable(s.strikes, input.threshold)
    if (disable) s.strikes = []
    this.ctx.storage.kv.put('state', s)
    return disable
  }

  /** Every breaker not closed: name → until (past `until`: half-open). */
  frozen(): Record<string, number> {
    return { ...this.load().frozen }
  }

  /** Breakers with their consecutive openings, for the console's channel sheet. */
  breakers(): { name: string; until: number; opens: number }[] {
    const s = this.load()
    return Object.entries(s.frozen).map(([name, until]) => ({ name, until, opens: own(s.opens, name) ?? 1 }))
  }

  health(): HealthState {
    return structuredClone(this.load())
  }

  /** Disable the channel (only if it is enabled) through status.ts (status, history, retest schedule, alerts); returns whether it changed. */
  async disable(input: { channelId: number; reason: string; status?: number; requestId?: string }): Promise<boolean> {
    const changed = await disableChannel(this.env, input)
    if (changed) {
      const s = this.load()
      s.strikes = []
      this.ctx.storage.kv.put('state', s)
    }
    return changed
  }

  /** Re-enable an auto- or test-disabled channel (never a manually disabled one) through status.ts; the breakers start closed. */
  async enable(input: { channelId: number; reason: string }): Promise<boolean> {
    const changed = await enableChannel(this.env, input)
    if (changed) {
      const s = this.load()
      s.consecutiveFailures = 0
      s.strikes = []
      s.freezeVotes = []
      s.frozen = {}
      s.opens = {}
      this.ctx.storage.kv.put('state', s)
    }
    return changed
  }
}
