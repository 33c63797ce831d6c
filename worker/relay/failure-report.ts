/**
 * What one failed upstream attempt does to the channel's health: the (channel, model) freeze and
 * the channel's strike towards auto-disable, or — when a pool key failed auth/billing — a freeze
 * and a strike of that key alone (the channel keeps serving with its other keys). A pool key's
 * rate limit (429) freezes that key alone for RetryCooldownSeconds, and the (channel, model) too
 * once every key of the pool is frozen. A 429 about the request's own size freezes nothing.
 * The (channel, model) freeze is everyone's only once failures of two users fell within the
 * auto-disable window, the rule auto-disable follows (ChannelHealth's shared freeze); before that
 * it rests the model for the failing user alone. Thresholds and windows are the global settings
 * unless the channel overrides them. Channel auto-disables are written to the status history with
 * the request id.
 */
import type { BackgroundCtx } from '../cache/versioned'
import type { UpstreamError } from '../providers/types'
import type { Settings } from '../settings/store'
import { strikeKey } from '../channels/status'
import { isFrozen, reportFailure, strikeChannel } from '../channels/health'
import { keyFreezeName } from '../channels/key-pool'
import type { FailureDecision } from '../channels/retry-policy'
import { routingSnapshot } from '../channels/routing-table'
import type { PoolKey, RoutedChannel } from '../channels/types'

export interface AttemptFailure {
  channel: RoutedChannel
  /** The key the attempt used (pool channels). */
  key?: PoolKey
  model: string
  status: number
  error: UpstreamError
  decision: FailureDecision
  requestId: string
  /** Whose request failed: auto-disable needs failures from two users (or a channel test). */
  userId?: number
}

/** The channel's auto-disable threshold and window (seconds), overrides first. */
export function autoDisableLimits(channel: RoutedChannel, settings: Settings) {
  return {
    threshold: channel.autoDisableThreshold || settings.int('AutoDisableFailureThreshold'),
    windowSeconds: channel.autoDisableWindow || settings.int('AutoDisableWindowSeconds'),
  }
}

/** Records the failure; returns true when it was a pool key's own failure (try another key of the channel). */
export function reportAttemptFailure(env: Env, ctx: BackgroundCtx, settings: Settings, f: AttemptFailure): boolean {
  const { channel, decision } = f
  const pooled = channel.keyMode === 'pool' && f.key !== undefined
  // A pool's keys usually carry their own rate limits: a 429 is that key's failure, not the
  // channel's — unless it is about the request itself (no freeze then).
  const keyFailure = pooled && (decision.disableReason !== undefined || (f.status === 429 && !decision.oversized))
  // When this was the pool's last key not frozen, the model is frozen on the channel too, so
  // requests go to other channels until a key thaws instead of trying every frozen key again.
  const lastKey = keyFailure && !decision.disableReason && channel.keys?.every((k) => k.hash === f.key!.hash || isFrozen(channel.id, keyFreezeName(k.hash))) === true
  const cooldown = settings.int('RetryCooldownSeconds')
  const { threshold, windowSeconds } = autoDisableLimits(channel, settings)
  const actor = `user:${f.userId ?? 0}`
  const freezeModel = keyFailure ? lastKey : decision.freeze
  reportFailure(env, ctx, {
    channelId: channel.id,
    model: keyFailure ? keyFreezeName(f.key!.hash) : f.model,
    ok: false,
    status: f.status,
    message: f.error.message,
    freezeSeconds: keyFailure ? cooldown : 0,
    ...(freezeModel ? { sharedFreeze: { model: f.model, actor, windowMs: windowSeconds * 1000, seconds: cooldown } } : {}),
  })
  const mayDisable = channel.autoBan && settings.bool('AutomaticDisableChannelEnabled')
  if (!decision.disableReason || !mayDisable) return keyFailure
  if (keyFailure) {
    strikeKey(env, ctx, { channelId: channel.id, keyHash: f.key!.hash, reason: decision.disableReason, requestId: f.requestId, threshold, windowSeconds, actor })
    return true
  }
  strikeChannel(env, ctx, channel.id, decision.disableReason, threshold, () => routingSnapshot.invalidate(env), windowSeconds * 1000, actor, f.requestId)
  return false
}
