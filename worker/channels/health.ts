/**
 * This isolate's view of channel freezes. A failure freezes (channel, model) here at once and is
 * reported to the channel's ChannelHealth Durable Object in the background; the view of recently
 * used channels is refreshed from their objects every few seconds, also in the background, so
 * freezes made by other isolates arrive without the hot path ever awaiting a Durable Object.
 * A shared freeze (a model on a channel, issue 31) rests the model at once for the failing user
 * only; the object decides whether two users' failures make it everyone's, and its answer is
 * merged here as soon as it arrives.
 */
import type { BackgroundCtx } from '../cache/versioned'
import { onIsolateReset } from '../cache/isolate'
import { personalFreezeName, type HealthReport } from '../../durable-objects/channel-health'

const REFRESH_MS = 3000

/** channel → model → frozen until (Maps: model names are client input, `__proto__` included). */
const frozen = new Map<number, Map<string, number>>()
/** Channels with a failure seen here that has not been followed by a reported success. */
const troubled = new Set<number>()
const lastRefresh = new Map<number, number>()
onIsolateReset(() => {
  frozen.clear()
  troubled.clear()
  lastRefresh.clear()
})

export function isFrozen(channelId: number, model: string): boolean {
  const until = frozen.get(channelId)?.get(model)
  return until !== undefined && until > Date.now()
}

/** Frozen for everyone, or rested for this actor (`user:<id>`) alone. */
export const isFrozenFor = (actor: string) => (channelId: number, model: string) => isFrozen(channelId, model) || isFrozen(channelId, personalFreezeName(model, actor))

/**
 * The ChannelHealth Durable Object of a channel, or of one pool key of it (`keyHash`): the only
 * place that names the binding and the object's name scheme.
 */
export const channelHealthOf = (env: Env, channelId: number, keyHash?: string) =>
  env.CHANNEL_HEALTH.getByName(keyHash === undefined ? `channel:${channelId}` : `channel:${channelId}:key:${keyHash}`)

function freezeHere(channelId: number, names: Iterable<[string, number]>) {
  const models = frozen.get(channelId) ?? new Map<string, number>()
  for (const [name, until] of names) models.set(name, Math.max(models.get(name) ?? 0, until))
  frozen.set(channelId, models)
}

export function reportFailure(env: Env, ctx: BackgroundCtx, report: HealthReport) {
  const now = Date.now()
  const here: [string, number][] = []
  if (report.freezeSeconds && report.freezeSeconds > 0) {
    for (const name of [report.model, report.alsoFreeze]) if (name !== undefined) here.push([name, now + report.freezeSeconds * 1000])
  }
  const shared = report.sharedFreeze
  if (shared && shared.seconds > 0) here.push([personalFreezeName(shared.model, shared.actor), now + shared.seconds * 1000])
  freezeHere(report.channelId, here)
  troubled.add(report.channelId)
  ctx.waitUntil(
    channelHealthOf(env, report.channelId)
      .report(report)
      .then((set) => freezeHere(report.channelId, Object.entries(set)))
      .catch((err) => console.error('health report failed', err))
  )
}

/** Successes are reported only for channels that recently failed (to reset their counters). */
export function reportSuccess(env: Env, ctx: BackgroundCtx, channelId: number, model: string) {
  if (!troubled.has(channelId)) return
  troubled.delete(channelId)
  const models = frozen.get(channelId)
  models?.delete(model)
  ctx.waitUntil(
    channelHealthOf(env, channelId)
      .report({ channelId, model, ok: true })
      .catch((err) => console.error('health report failed', err))
  )
}

/** Background refresh of the freeze view for channels this request considered. */
export function refreshFreezes(env: Env, ctx: BackgroundCtx, channelIds: number[]) {
  const now = Date.now()
  const due = channelIds.filter((id) => now - (lastRefresh.get(id) ?? 0) >= REFRESH_MS)
  if (due.length === 0) return
  for (const id of due) lastRefresh.set(id, now)
  ctx.waitUntil(
    Promise.all(
      due.map(async (id) => {
        const remote = await channelHealthOf(env, id).frozen()
        const local = frozen.get(id) ?? new Map<string, number>()
        for (const [model, until] of Object.entries(remote)) local.set(model, Math.max(local.get(model) ?? 0, until))
        frozen.set(id, local)
      })
    ).catch((err) => console.error('freeze refresh failed', err))
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
  actor = 'user:0'
) {
  const health = channelHealthOf(env, channelId)
  ctx.waitUntil(
    health
      .strike({ actor, threshold, windowMs })
      .then((disable) => (disable ? health.disable({ channelId, reason: `${reason} (${Math.max(1, threshold)} failures)` }) : undefined))
      .then((changed) => (changed ? onDone() : undefined))
      .catch((err) => console.error('auto-disable failed', err))
  )
}
