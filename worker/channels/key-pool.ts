/**
 * Key pools: a channel with `key_mode = 'pool'` holds several supplier keys (one per line). The
 * routing table carries each pool's enabled keys (keys auto-disabled in `channel_key_states` are
 * left out when the table is built). A request takes one key: by rendezvous hashing on its
 * affinity key when it has one (the same conversation keeps its key), else round-robin per
 * isolate. A key that fails auth/billing is frozen in this isolate at once and in every other
 * within a few seconds (a freeze of the pseudo-model `keyFreezeName(hash)`, carried by the
 * channel's ChannelHealth object like model freezes), and disabled after the failure threshold.
 * A key's rate limit (429) freezes it the same way for the cooldown, without counting towards a disable.
 * A rested key's breaker is half-open once its cool-down ends (breaker.ts): the attempt that uses it
 * claims its one probe (`claim`), and while the probe is out the caller's `frozen` counts it resting.
 * A request stops walking a pool once SAME_429_LIMIT of its keys in a row answered 429 with the same
 * text (numbers and ids aside): the request, not the keys, is then the likely cause (issue 31).
 */
import { onIsolateReset } from '../cache/isolate'
import { rendezvousPick, stableHash } from './affinity'
import type { PoolKey, RoutedChannel } from './types'

/** The keys a channel row holds: one per line in a pool, else the whole key (JSON keys included). */
export function splitKeys(key: string, mode: string): string[] {
  if (mode !== 'pool') return [key]
  return [
    ...new Set(
      key
        .split('\n')
        .map((k) => k.trim())
        .filter(Boolean)
    ),
  ]
}

export const keyHash = (key: string) => stableHash(`key:${key}`)

export const poolKeys = (key: string, mode: string): PoolKey[] => splitKeys(key, mode).map((k) => ({ key: k, hash: keyHash(k) }))

/** The pseudo-model under which a key's freeze travels through the channel's health object. */
export const keyFreezeName = (hash: string) => `\u0000key:${hash}`

const turn = new Map<number, number>()
onIsolateReset(() => turn.clear())

/**
 * One key of a channel for this attempt. `skip` names keys already tried in this request;
 * `frozen` keys are used only when nothing else is left untried.
 */
export function pickKey(
  channelId: number,
  keys: readonly PoolKey[],
  opts: { affinity?: string; skip: (hash: string) => boolean; frozen: (hash: string) => boolean }
): PoolKey | undefined {
  const untried = keys.filter((k) => !opts.skip(k.hash))
  if (untried.length === 0) return undefined
  const healthy = untried.filter((k) => !opts.frozen(k.hash))
  const pool = healthy.length ? healthy : untried
  if (pool.length === 1) return pool[0]
  if (opts.affinity) return rendezvousPick(pool, opts.affinity, (k) => k.hash)
  const n = turn.get(channelId) ?? 0
  turn.set(channelId, n + 1)
  return pool[n % pool.length]
}

/** Consecutive same-text 429s after which a request tries no further key of that pool. */
export const SAME_429_LIMIT = 3

/** A 429's text without what differs between keys of one supplier: numbers, organisation, project and request ids. */
const sameText = (message: string) =>
  message
    .toLowerCase()
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '#')
    .replace(/\b(org|proj|req|user)[-_][a-z0-9]+/g, '$1-#')
    .replace(/\d[\d,._]*/g, '#')

/** The pool keys one relay request has used: each attempt on a pool channel takes a key not tried yet. */
export class RequestKeys {
  private readonly tried = new Set<string>()
  /** The latest run of 429s with one text on one channel. */
  private streak = { channelId: 0, text: '', count: 0 }
  /** The key of the latest attempt (pool channels only). */
  current: PoolKey | undefined
  /** Attempts repeated on another key of the same channel (not counted in RetryTimes). */
  retries = 0

  constructor(
    private readonly affinity: string | undefined,
    private readonly frozen: (channelId: number, hash: string) => boolean,
    /** Takes a half-open key's probe for this attempt (health.ts claimProbe). */
    private readonly claim?: (channelId: number, hash: string) => void
  ) {}

  /** The channel carrying the key this attempt uses. */
  use(channel: RoutedChannel): RoutedChannel {
    this.current =
      channel.keyMode === 'pool' && channel.keys?.length
        ? pickKey(channel.id, channel.keys, {
            affinity: this.affinity,
            skip: (hash) => this.tried.has(`${channel.id}:${hash}`),
            frozen: (hash) => this.frozen(channel.id, hash),
          })
        : undefined
    if (!this.current) return channel
    this.claim?.(channel.id, this.current.hash)
    this.tried.add(`${channel.id}:${this.current.hash}`)
    return { ...channel, key: this.current.key }
  }

  /** After a failed attempt: false once SAME_429_LIMIT keys of this channel in a row answered 429 with the same text. */
  mayWalk(channelId: number, failure: { status: number; error: { message: string } }): boolean {
    if (failure.status !== 429) {
      this.streak = { channelId: 0, text: '', count: 0 }
      return true
    }
    const text = sameText(failure.error.message ?? '')
    const same = this.streak.channelId === channelId && this.streak.text === text
    this.streak = { channelId, text, count: same ? this.streak.count + 1 : 1 }
    return this.streak.count < SAME_429_LIMIT
  }

  /**
   * Whether a key of the pool is left that this request has not tried and that is not resting: once
   * only resting keys are left (one of them was just tried as a last resort), the request moves on.
   */
  hasUntried(channel: RoutedChannel): boolean {
    return channel.keyMode === 'pool' && Boolean(channel.keys?.some((k) => !this.tried.has(`${channel.id}:${k.hash}`) && !this.frozen(channel.id, k.hash)))
  }
}
