/**
 * WHERE THE RELAY PICKS A CHANNEL. Candidates are the enabled channels of the effective group that
 * serve the model (exact name or trailing-`*` wildcard). The highest priority tier is tried first;
 * inside a tier the pick is weighted random; channels frozen for this model, channels already tried
 * in this request and chat-only channels for tool calls are skipped, and so are half-open ones whose
 * probe is out (health.ts) while another candidate is left; a lower tier is used only
 * when every channel above it is exhausted. With an affinity key (affinity.ts) the pick inside the
 * tier is rendezvous hashing instead, so the same key keeps its channel while it stays usable.
 */
import { rendezvousPick } from './affinity'
import { candidatesFor, type RoutingTable } from './routing-table'
import type { RoutedChannel } from './types'

export interface SelectOptions {
  group: string
  model: string
  /** Channel ids already tried (or excluded) in this request. */
  tried: ReadonlySet<number>
  isFrozen: (channelId: number, model: string) => boolean
  /** Half-open with its probe out: skipped unless nothing else is usable. */
  isProbing?: (channelId: number, model: string) => boolean
  /** Only channels this accepts are candidates (a task's supplier type, realtime-capable types). */
  accept?: (channel: RoutedChannel) => boolean
  /** The request carries tools: skip channels flagged only-chat. */
  hasTools?: boolean
  /** Injectable randomness for tests. */
  random?: () => number
  /** Sticky routing: requests with the same key pick the same channel of the tier (weights respected). */
  affinity?: string
}

/** The candidates a pick may take: not tried, not frozen, accepted, and able to take tools when the request has them. */
export function usableChannels(table: RoutingTable, opts: Omit<SelectOptions, 'isProbing' | 'random' | 'affinity'>): RoutedChannel[] {
  return candidatesFor(table, opts.group, opts.model).filter(
    (ch) => !opts.tried.has(ch.id) && !opts.isFrozen(ch.id, opts.model) && !(opts.hasTools && ch.onlyChat) && (!opts.accept || opts.accept(ch))
  )
}

export function selectChannel(table: RoutingTable, opts: SelectOptions): RoutedChannel | undefined {
  const usable = usableChannels(table, opts)
  if (usable.length === 0) return undefined
  const settled = opts.isProbing ? usable.filter((ch) => !opts.isProbing!(ch.id, opts.model)) : usable
  return pickInTiers(settled.length ? settled : usable, opts)
}

function pickInTiers(usable: RoutedChannel[], opts: SelectOptions): RoutedChannel | undefined {
  const top = Math.max(...usable.map((ch) => ch.priority))
  const tier = usable.filter((ch) => ch.priority === top)
  if (opts.affinity)
    return rendezvousPick(
      tier,
      opts.affinity,
      (ch) => ch.id,
      (ch) => ch.weight
    )
  return weightedPick(tier, opts.random ?? Math.random)
}

export function weightedPick(channels: RoutedChannel[], random: () => number): RoutedChannel | undefined {
  const weights = channels.map((ch) => Math.max(1, ch.weight))
  const total = weights.reduce((a, b) => a + b, 0)
  let r = random() * total
  for (let i = 0; i < channels.length; i++) {
    r -= weights[i]!
    if (r < 0) return channels[i]
  }
  return channels[channels.length - 1]
}

/** The upstream model after the channel's mapping, and the model the call is billed as. */
export function mapModel(channel: RoutedChannel, model: string): { upstream: string; billed: string } {
  const target = Object.hasOwn(channel.modelMapping, model) ? channel.modelMapping[model] : undefined
  if (typeof target !== 'string' || !target) return { upstream: model, billed: model }
  // one-hub convention: a target prefixed with "+" is sent upstream but billed as the requested model.
  if (target.startsWith('+')) return { upstream: target.slice(1), billed: model }
  return { upstream: target, billed: target }
}
