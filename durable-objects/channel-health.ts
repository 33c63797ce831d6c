/**
 * ChannelHealth: one Durable Object per channel holding its freeze state per model (a failed
 * (channel, model) pair is skipped until its cooldown ends), its recent outcome counters, and the
 * auto-disable action (status 3 + reason in D1, then a routing-table version bump so every isolate
 * drops the channel). Relays report outcomes off the response path and read freezes through an
 * isolate-local view (worker/relay/health-view.ts), never waiting on this object.
 *
 * Auto-disable strikes (issue 12): the channel is disabled only after `threshold` consecutive
 * qualifying failures (auth/billing) within the window that came from at least two different users
 * or from a channel test, so one user's bad traffic cannot take a shared channel out alone; any
 * reported success clears the strikes. Model names are client input: own keys only.
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
}

/** One qualifying (auth/billing) failure towards auto-disable. */
export interface StrikeInput {
  /** Who sent the failing request: `user:<id>`, or `test` for a channel test. */
  actor: string
  threshold: number
  windowMs: number
}

const EMPTY: HealthState = { consecutiveFailures: 0, successes: 0, failures: 0, lastError: '', lastErrorAt: 0, lastSuccessAt: 0, frozen: {}, strikes: [] }

/** Whether the strikes justify disabling: enough of them, from two users or a channel test. */
export function strikesDisable(strikes: { actor: string }[], threshold: number): boolean {
  if (strikes.length < Math.max(1, threshold)) return false
  const actors = new Set(strikes.map((s) => s.actor))
  return actors.has('test') || actors.size >= 2
}

const frozenUntil = (frozen: Record<string, number>, model: string) => (Object.hasOwn(frozen, model) ? frozen[model]! : 0)

export { CHANNEL_STATUS }

export class ChannelHealth extends DurableObject<Env> {
  private state: HealthState | undefined

  private load(): HealthState {
    this.state ??= this.ctx.storage.kv.get<HealthState>('state') ?? structuredClone(EMPTY)
    const now = Date.now()
    for (const [model, until] of Object.entries(this.state.frozen)) if (until <= now) delete this.state.frozen[model]
    return this.state
  }

  report(r: HealthReport): void {
    const s = this.load()
    const now = Date.now()
    if (r.ok) {
      s.successes++
      s.consecutiveFailures = 0
      s.strikes = []
      s.lastSuccessAt = now
      if (Object.hasOwn(s.frozen, r.model)) delete s.frozen[r.model]
    } else {
      s.failures++
      s.consecutiveFailures++
      s.lastError = `${r.status ?? 'network'}: ${(r.message ?? '').slice(0, 300)}`
      s.lastErrorAt = now
      if (r.freezeSeconds && r.freezeSeconds > 0) {
        for (const model of r.alsoFreeze === undefined ? [r.model] : [r.model, r.alsoFreeze]) {
          // defineProperty: a model named `__proto__` is an own entry like any other.
          const value = Math.max(frozenUntil(s.frozen, model), now + r.freezeSeconds * 1000)
          Object.defineProperty(s.frozen, model, { value, enumerable: true, writable: true, configurable: true })
        }
      }
    }
    this.ctx.storage.kv.put('state', s)
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
      s.frozen = {}
      this.ctx.storage.kv.put('state', s)
      await this.env.CONFIG_VERSION.getByName('global').bump('channels')
    }
    return res.meta.changes > 0
  }
}
