/**
 * One actor's channel pick through the half-open breakers (breaker.ts, health.ts), shared by the
 * relay (relay/relay-route.ts), realtime connects and task submits: frozen pairs are skipped, a
 * half-open pair whose probe is out is skipped while another candidate is usable, and picking a
 * half-open pair claims its single probe (per isolate). `probeOutcome` ends a pick that did not go
 * through the relay's own failure handling: success closes the breakers (reportSuccess), a failed
 * probe re-opens exactly the breakers it claimed, which the ChannelHealth object doubles.
 */
import type { BackgroundCtx } from '../cache/versioned'
import { claimProbesFor, isFrozenFor, isProbingFor, reportFailure, reportSuccess } from './health'
import { selectChannel, type SelectOptions } from './pick'
import type { RoutingTable } from './routing-table'
import type { RoutedChannel } from './types'

export interface ChannelPick {
  channel: RoutedChannel
  model: string
  /** The half-open breaker names this pick claimed the probe of (empty: no probe). */
  probes: string[]
}

/** The next channel for `actor` (`user:<id>`), claiming the probes of a half-open pair it picks. */
export function pickChannelFor(table: RoutingTable, actor: string, opts: Omit<SelectOptions, 'isFrozen' | 'isProbing'>): ChannelPick | undefined {
  const channel = selectChannel(table, { ...opts, isFrozen: isFrozenFor(actor), isProbing: isProbingFor(actor) })
  if (!channel) return undefined
  return { channel, model: opts.model, probes: claimProbesFor(actor, channel.id, opts.model) }
}

/**
 * How the pick's attempt ended. Success closes the model's breakers on the channel (reported only
 * when one is not closed or the channel failed lately). A failure re-opens the breakers whose probe
 * this pick held, for `cooldownSeconds` (doubled by the object); a failure of a pick that held no
 * probe changes nothing here.
 */
export function probeOutcome(env: Env, ctx: BackgroundCtx, pick: ChannelPick, result: { ok: true } | { ok: false; status?: number; message: string; cooldownSeconds: number }) {
  if (result.ok) {
    reportSuccess(env, ctx, pick.channel.id, pick.model)
    return
  }
  const [first, second] = pick.probes
  if (first === undefined || result.cooldownSeconds <= 0) return
  reportFailure(env, ctx, {
    channelId: pick.channel.id,
    model: first,
    ok: false,
    ...(result.status === undefined ? {} : { status: result.status }),
    message: result.message,
    freezeSeconds: result.cooldownSeconds,
    ...(second === undefined ? {} : { alsoFreeze: second }),
  })
}
