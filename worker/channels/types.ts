/**
 * The shapes every channel consumer shares: a routed channel as the routing table carries it, and
 * one key of a channel's key pool. They live apart from routing-table.ts and key-pool.ts, so the
 * key pool needs nothing from the routing table (the two used to import each other).
 */
import type { ChannelInfo } from '../providers/types'

export type KeyMode = 'batch' | 'pool'

export interface PoolKey {
  key: string
  /** Identity of the key in `channel_key_states` and the console (never the key itself). */
  hash: string
}

/** The adapter's view of the channel (id, type, name, key, base URL, `other`, plugin) plus routing. */
export interface RoutedChannel extends ChannelInfo {
  priority: number
  weight: number
  onlyChat: boolean
  autoBan: boolean
  modelMapping: Record<string, string>
  headers: Record<string, string>
  customParameter: Record<string, unknown>
  models: string[]
  /** Absent on channels built by hand (tests): a single key. */
  keyMode?: KeyMode
  /** Enabled keys (a pool's keys minus auto-disabled ones; otherwise the one key). */
  keys?: PoolKey[]
  /** Per-channel auto-disable overrides (0 or absent = the global setting). */
  autoDisableThreshold?: number
  autoDisableWindow?: number
  /** The channel's proxy URL (network.ts); absent = direct. */
  proxy?: string
  /** The channel's tag (one string, as in one-hub); absent or '' = untagged. A plan may limit its traffic to tags (tag-scope.ts). */
  tag?: string
}
