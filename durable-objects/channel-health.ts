/**
 * ChannelHealth: one Durable Object per channel holding its freeze state per model (a failed
 * (channel, model) pair is skipped until its cooldown ends), its recent outcome counters, and the
 * auto-disable action (status 3 + reason in D1, then a routing-table version bump so every isolate
 * drops the channel). Relays report outcomes off the response path and read freezes through an
 * isolate-local view (worker/channels/health.ts), never waiting on this object.
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
import { CHANNEL_STATUS } from '../shared/contract/enums'

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
  frozen: Record<string, number>
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

const EMPTY: HealthState = { consecutiveFailures: 0, successes: 0, failures: 0, lastError: '', lastErrorAt: 0, lastSuccessAt: 0, frozen: {}, strikes: [] }

/** Whether the strikes justify disabling (or a shared freeze): enough of them, from two users or a channel test. */
export function strikesDisable(strikes: { actor: string }[], threshold: number): boolean {
  if (strikes.length < Math.max(1, threshold)) return false
  const actors = new Set(strikes.map((s) => s.actor))
  return actors.has('test') || actors.size >= 2
}

const REST_PREFIX = '\u0000rest:'

/** The freeze entry that rests `model` on a channel for one actor alone (its own requests skip it). */
export const personalFreezeName = (model: string, actor: string) => `${REST_PREFIX}${actor}\u0000${model}`

const frozenUntil = (frozen: Record<string, number>, model: string) => (Object.hasOwn(frozen, model) ? frozen[model]! : 0)

/** Sets `frozen[name]` to at least `until` (defineProperty: a model named `__proto__` is an own entry like any other). */
function freeze(frozen: Record<string, number>, name: string, until: number): number {
  const value = Math.max(frozenUntil(frozen, name), until)
  Object.defineProperty(frozen, name, { value, enumerable: true, writable: true, configurable: true })
  return value
}

export class ChannelHealth extends DurableObject<Env> {
  private state: HealthState | undefined

  private load(): HealthState {
    this.state ??= this.ctx.storage.kv.get<HealthState>('state') ?? structuredClone(EMPTY)
    const now = Date.now()
    for (const [model, until] of Object.entries(this.state.frozen)) if (until <= now) delete this.state.frozen[model]
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
      for (const name of Object.keys(s.frozen)) if (name === r.model || (name.startsWith(REST_PREFIX) && name.endsWith(`\u0000${r.model}`))) delete s.frozen[name]
    } else {
      s.failures++
      s.consecutiveFailures++
      s.lastError = `${r.status ?? 'network'}: ${(r.message ?? '').slice(0, 300)}`
      s.lastErrorAt = now
      const names: [string, number][] = []
      if (r.freezeSeconds && r.freezeSeconds > 0) for (const name of r.alsoFreeze === undefined ? [r.model] : [r.model, r.alsoFreeze]) names.push([name, r.freezeSeconds])
      if (r.sharedFreeze && r.sharedFreeze.seconds > 0) names.push([this.voteFreeze(s, r.sharedFreeze, now), r.sharedFreeze.seconds])
      for (const [name, seconds] of names) Object.defineProperty(set, name, { value: freeze(s.frozen, name, now + seconds * 1000), enumerable: true })
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

  frozen(): Record<string, number> {
    return { ...this.load().frozen }
  }

  health(): HealthState {
    return structuredClone(this.load())
  }

  /** Disable the channel (only if it is enabled) with a reason; returns whether it changed. */
  async disable(input: { channelId: number; reason: string; status?: number }): Promise<boolean> {
    const status = input.status ?? CHANNEL_STATUS.AUTO_DISABLED
    const res = await this.env.DB.prepare('UPDATE channels SET status = ?, status_reason = ? WHERE id = ? AND status = ?')
      .bind(status, input.reason.slice(0, 500), input.channelId, CHANNEL_STATUS.ENABLED)
      .run()
    if (res.meta.changes > 0) await this.env.CONFIG_VERSION.getByName('global').bump('channels')
    return res.meta.changes > 0
  }

  /** Re-enable an auto- or test-disabled channel (never a manually disabled one). */
  async enable(input: { channelId: number }): Promise<boolean> {
    const res = await this.env.DB.prepare("UPDATE channels SET status = ?, status_reason = '' WHERE id = ? AND status IN (?, ?)")
      .bind(CHANNEL_STATUS.ENABLED, input.channelId, CHANNEL_STATUS.AUTO_DISABLED, CHANNEL_STATUS.TEST_DISABLED)
      .run()
    if (res.meta.changes > 0) {
      const s = this.load()
      s.consecutiveFailures = 0
      s.strikes = []
      s.freezeVotes = []
      s.frozen = {}
      this.ctx.storage.kv.put('state', s)
      await this.env.CONFIG_VERSION.getByName('global').bump('channels')
    }
    return res.meta.changes > 0
  }
}
