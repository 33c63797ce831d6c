/**
 * This isolate's view of channel breakers (breaker.ts). A failure opens (channel, model) here at
 * once and is reported to the channel's ChannelHealth Durable Object in the background; the view
 * of recently used channels is refreshed from their objects every few seconds, also in the
 * background, so breakers opened by other isolates (with their doubled cool-downs) arrive without
 * the hot path ever awaiting a Durable Object. A shared freeze (a model on a channel, issue 31)
 * rests the model at once for the failing user only; the object decides whether two users'
 * failures make it everyone's, and its answer is merged here as soon as it arrives.
 *
 * Half-open: once a cool-down ends, the pair lets one probe request through — per isolate (each
 * isolate may send its own probe; a global single probe would need a Durable Object call on the
 * hot path). The relay claims the probe when it picks the pair (`claimProbe`); while it is out,
 * other requests skip the pair when another candidate exists (`isProbing`). The probe's success
 * closes the breaker here and in the object; its failure re-opens it (the object doubles the
 * cool-down); a probe that never reports frees its slot after PROBE_LEASE_MS.
 */
import type { BackgroundCtx } from '../cache/versioned'
import { onIsolateReset } from '../cache/isolate'
import { breakerState, namesModel, personalFreezeName, type BreakerState } from './breaker'
import type { HealthReport } from './channel-health.do'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'channel-health' })

const REFRESH_MS = 3000
/** How long a claimed probe keeps other requests off a half-open pair without reporting. */
export const PROBE_LEASE_MS = 30_000

interface Breaker {
  /** Open until (ms); past it, half-open. */
  until: number
  /** A probe is out until then (ms); 0 = none. */
  probeUntil: number
}

/** channel → breaker name → breaker (Maps: model names are client input, `__proto__` included). */
const breakers = new Map<number, Map<string, Breaker>>()
/** Channels with a failure seen here that has not been followed by a reported success. */
const troubled = new Set<number>()
const lastRefresh = new Map<number, number>()
onIsolateReset(() => {
  breakers.clear()
  troubled.clear()
  lastRefresh.clear()
})

/** The breaker of a (channel, name) as this isolate sees it. */
export function breakerHere(channelId: number, name: string, now = Date.now()): BreakerState {
  return breakerState(breakers.get(channelId)?.get(name)?.until, now)
}

/** Open: the pair is cooling down and skipped. */
export const isFrozen = (channelId: number, name: string) => breakerHere(channelId, name) === 'open'

/** Half-open with its probe out: skipped while another candidate exists. */
export function isProbing(channelId: number, name: string): boolean {
  const now = Date.now()
  const b = breakers.get(channelId)?.get(name)
  return b !== undefined && b.until <= now && b.probeUntil > now
}

/** The request that picked a pair takes its probe when it is half-open and no probe is out; true when it did. */
export function claimProbe(channelId: number, name: string): boolean {
  const now = Date.now()
  const b = breakers.get(channelId)?.get(name)
  if (!b || b.until > now || b.probeUntil > now) return false
  b.probeUntil = now + PROBE_LEASE_MS
  return true
}

/** Frozen for everyone, or rested for this actor (`user:<id>`) alone. */
export const isFrozenFor = (actor: string) => (channelId: number, model: string) => isFrozen(channelId, model) || isFrozen(channelId, personalFreezeName(model, actor))

/** A probe of the model (or of this actor's rest of it) is out. */
export const isProbingFor = (actor: string) => (channelId: number, model: string) => isProbing(channelId, model) || isProbing(channelId, personalFreezeName(model, actor))

/** Claims the probes a pick of (channel, model) by this actor takes; returns the breaker names it claimed. */
export function claimProbesFor(actor: string, channelId: number, model: string): string[] {
  return [model, personalFreezeName(model, actor)].filter((name) => claimProbe(channelId, name))
}

/**
 * The ChannelHealth Durable Object of a channel, or of one pool key of it (`keyHash`): the only
 * place that names the binding and the object's name scheme.
 */
export const channelHealthOf = (env: Env, channelId: number, keyHash?: string) =>
  env.CHANNEL_HEALTH.getByName(keyHash === undefined ? `channel:${channelId}` : `channel:${channelId}:key:${keyHash}`)

/** Opens breakers here (the later end wins); their probes are released. */
function freezeHere(channelId: number, names: Iterable<[string, number]>) {
  const here = breakers.get(channelId) ?? new Map<string, Breaker>()
  for (const [name, until] of names) here.set(name, { until: Math.max(here.get(name)?.until ?? 0, until), probeUntil: 0 })
  breakers.set(channelId, here)
}

/** A failed attempt: opens what it asks to freeze here at once, frees its probes, and tells the object. */
export function reportFailure(env: Env, ctx: BackgroundCtx, report: HealthReport) {
  const now = Date.now()
  const here: [string, number][] = []
  if (report.freezeSeconds && report.freezeSeconds > 0) {
    for (const name of [report.model, report.alsoFreeze]) if (name !== undefined) here.push([name, now + report.freezeSeconds * 1000])
  }
  const shared = report.sharedFreeze
  if (shared && shared.seconds > 0) here.push([personalFreezeName(shared.model, shared.actor), now + shared.seconds * 1000])
  const mine = breakers.get(report.channelId)
  for (const name of [report.model, report.alsoFreeze, shared?.model]) {
    const b = name === undefined ? undefined : mine?.get(name)
    if (b) b.probeUntil = 0
  }
  freezeHere(report.channelId, here)
  troubled.add(report.channelId)
  ctx.waitUntil(
    channelHealthOf(env, report.channelId)
      .report(report)
      .then((set) => freezeHere(report.channelId, Object.entries(set)))
      .catch((err) => serverLog.error('health report failed', { error: err }))
  )
}

/**
 * A successful attempt of `model` (with the pool key named `keyName`): reported only when the
 * channel recently failed here or a breaker of the model or key is not closed, to reset the
 * counters and close those breakers (a successful probe) here and in the object.
 */
export function reportSuccess(env: Env, ctx: BackgroundCtx, channelId: number, model: string, keyName?: string) {
  const here = breakers.get(channelId)
  const names = here?.size ? [...here.keys()].filter((name) => namesModel(name, model) || name === keyName) : []
  if (!troubled.has(channelId) && names.length === 0) return
  troubled.delete(channelId)
  for (const name of names) here!.delete(name)
  ctx.waitUntil(
    channelHealthOf(env, channelId)
      .report({ channelId, model, ok: true, ...(keyName === undefined ? {} : { key: keyName }) })
      .catch((err) => serverLog.error('health report failed', { error: err }))
  )
}

/**
 * Background refresh of the breaker view for channels this request considered: the object's
 * breakers replace this isolate's (a breaker another isolate's probe closed goes), keeping the
 * later end, the probes out here, and open breakers the object has not heard of yet.
 */
export function refreshFreezes(env: Env, ctx: BackgroundCtx, channelIds: number[]) {
  const now = Date.now()
  const due = channelIds.filter((id) => now - (lastRefresh.get(id) ?? 0) >= REFRESH_MS)
  if (due.length === 0) return
  for (const id of due) lastRefresh.set(id, now)
  ctx.waitUntil(
    Promise.all(
      due.map(async (id) => {
        const remote = await channelHealthOf(env, id).frozen()
        const local = breakers.get(id) ?? new Map<string, Breaker>()
        const next = new Map<string, Breaker>()
        for (const [name, until] of Object.entries(remote)) {
          const old = local.get(name)
          next.set(name, { until: Math.max(old?.until ?? 0, until), probeUntil: old?.probeUntil ?? 0 })
        }
        const at = Date.now()
        for (const [name, b] of local) if (!next.has(name) && b.until > at) next.set(name, b)
        breakers.set(id, next)
      })
    ).catch((err) => serverLog.error('freeze refresh failed', { error: err }))
  )
}

/** Qualifying failures count towards auto-disable over a window (the channel's ChannelHealth object); this is the default. */
const STRIKE_WINDOW_MS = 10 * 60 * 1000

/**
 * One auth/billing failure of a channel (retry-policy.ts decides which qualify) by `actor`
 * (`user:<id>`): the channel is disabled once `threshold` consecutive ones (no success between)
 * fall within the window and came from at least two users (ChannelHealth.strike), so a single odd
 * answer — or one user's provoked failures — does not take a shared channel out for everyone.
 */
export function strikeChannel(
  env: Env,
  ctx: BackgroundCtx,
  channelId: number,
  reason: string,
  threshold: number,
  onDone: () => Promise<unknown>,
  windowMs = STRIKE_WINDOW_MS,
  actor = 'user:0',
  requestId?: string
) {
  const health = channelHealthOf(env, channelId)
  ctx.waitUntil(
    health
      .strike({ actor, threshold, windowMs })
      .then((disable) => (disable ? health.disable({ channelId, reason: `${reason} (${Math.max(1, threshold)} failures)`, requestId }) : undefined))
      .then((changed) => (changed ? onDone() : undefined))
      .catch((err) => serverLog.error('auto-disable failed', { error: err }))
  )
}
