/**
 * What administrators see and do with a channel's keys and status history: each key of a pool
 * masked (`sk-a…wxyz`, never in clear here — root reads the full key on the channel itself) with
 * its status, reason and next retest; re-enabling an auto-disabled key; the history of automatic
 * and manual status changes with their request ids.
 */
import { notFound } from '../../lib/errors'
import { enableKey } from '../../channels/status'
import { poolKeys } from '../../channels/key-pool'
import type { Channel } from '../../db/schema'
import { maskChannelKey } from './channels.service'
import type { ChannelKeyMode, ChannelKeysView, StatusChange } from '../../../shared/contract/channels'
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
