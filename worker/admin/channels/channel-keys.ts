/**
 * What administrators see and do with a channel's keys and status history: each key of a pool
 * masked (`sk-a…wxyz`, never in clear here — root reads the full key on the channel itself) with
 * its status, reason and next retest; re-enabling an auto-disabled key; the history of automatic
 * and manual status changes with their request ids; the channel's breakers per model and pool key
 * (closed / open until / half-open) as its ChannelHealth object holds them.
 */
import { notFound } from '../../lib/errors'
import { enableKey } from '../../channels/status'
import { keyFreezeName, poolKeys } from '../../channels/key-pool'
import { breakerState, MAX_COOLDOWN_SECONDS } from '../../channels/breaker'
import { channelHealthOf } from '../../channels/health'
import type { Channel } from '../../db/schema'
import { maskChannelKey } from './channels.service'
import type { ChannelBreaker, ChannelBreakersView, ChannelKeyMode, ChannelKeysView, StatusChange } from '../../../shared/contract/channels'
import type { Page } from '../../../shared/contract/paging'
import type { BackgroundCtx } from '../../cache/versioned'

interface KeyStateRow {
  key_hash: string
  status: number
  reason: string
  changed_at: number
  retest_at: number
  retests: number
}

export async function listKeys(env: Env, channel: Channel) {
  const { results } = await env.DB.prepare('SELECT key_hash, status, reason, changed_at, retest_at, retests FROM channel_key_states WHERE channel_id = ?')
    .bind(channel.id)
    .all<KeyStateRow>()
  const states = new Map(results.map((r) => [r.key_hash, r]))
  const schedule = states.get('')
  return {
    key_mode: channel.keyMode as ChannelKeyMode,
    channel_retest_at: schedule?.retest_at ?? 0,
    keys: poolKeys(channel.key, channel.keyMode).map((k, index) => {
      const state = states.get(k.hash)
      return {
        index,
        hash: k.hash,
        masked: maskChannelKey(k.key),
        status: state?.status ?? 1,
        reason: state?.reason ?? '',
        changed_at: state?.changed_at ?? 0,
        retest_at: state?.retest_at ?? 0,
        retests: state?.retests ?? 0,
      }
    }),
  } satisfies ChannelKeysView
}

export async function enableKeyByAdmin(env: Env, channel: Channel, hash: string, admin: string, bg?: BackgroundCtx) {
  if (!poolKeys(channel.key, channel.keyMode).some((k) => k.hash === hash)) throw notFound('Key not found')
  const changed = await enableKey(env, { channelId: channel.id, keyHash: hash, reason: `enabled by ${admin}` }, bg)
  if (!changed) throw notFound('This key is not disabled')
}

export async function listHistory(env: Env, channelId: number, page: number, size: number) {
  const [rows, total] = await env.DB.batch<Record<string, any>>([
    env.DB.prepare('SELECT id, key_hash, created_at, status, reason, request_id FROM channel_status_history WHERE channel_id = ? ORDER BY id DESC LIMIT ? OFFSET ?').bind(
      channelId,
      size,
      (page - 1) * size
    ),
    env.DB.prepare('SELECT COUNT(*) AS n FROM channel_status_history WHERE channel_id = ?').bind(channelId),
  ])
  return { data: rows!.results as StatusChange[], page, size, total_count: Number(total!.results[0]?.n ?? 0) } satisfies Page<StatusChange>
}

/** Each listed model (wildcards aside) and each pool key of the channel with its breaker; personal rests (one user's) are not shown. */
export async function listBreakers(env: Env, channel: Channel): Promise<ChannelBreakersView> {
  const held = new Map((await channelHealthOf(env, channel.id).breakers()).map((b) => [b.name, b]))
  const now = Date.now()
  const view = (kind: ChannelBreaker['kind'], name: string, heldAs: string, key_hash = ''): ChannelBreaker => {
    const b = held.get(heldAs)
    return { kind, name, key_hash, state: breakerState(b?.until, now), until: b?.until ?? 0, opens: b?.opens ?? 0 }
  }
  const models = [...new Set(channel.models.split(',').map((m) => m.trim()))].filter((m) => m && !m.endsWith('*'))
  const keys = channel.keyMode === 'pool' ? poolKeys(channel.key, channel.keyMode) : []
  return {
    breakers: [...models.map((m) => view('model', m, m)), ...keys.map((k) => view('key', maskChannelKey(k.key), keyFreezeName(k.hash), k.hash))],
    max_cooldown_seconds: MAX_COOLDOWN_SECONDS,
  }
}
