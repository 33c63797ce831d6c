/**
 * Status changes of channels and pool keys that the gateway makes by itself (and the admin's
 * re-enables); the only writer of an automatic `channels.status` (disableChannel/enableChannel,
 * called by the channel's ChannelHealth object, which serialises them per channel): the history table (time, status, reason, request id), the per-key disabled state,
 * and the cron retest schedule with exponential backoff (`channel_key_states`; key_hash '' is the
 * channel itself). Disabling a pool's last key disables the channel through its ChannelHealth
 * object. A disabled channel or key recovers half-open: the due cron retest (channel-retest.ts) is
 * its one probe, a pass re-enables it, a failure doubles the wait (retestDelaySeconds). Every change bumps the routing table version so isolates drop the key or channel.
 * Each automatic change raises its alert (worker/notify/): channel.disabled (and model.unavailable
 * for the models it leaves without an enabled channel), channel.enabled, key.disabled and its recovery key.enabled — in `bg.waitUntil` when the caller is on a response path, else awaited (already background).
 */
import type { BackgroundCtx } from '../cache/versioned'
import { nowSeconds } from '../lib/time'
import { getSettings } from '../settings/store'
import { channelHealthOf } from './health'
import { poolKeys } from './key-pool'
import { modelsOnlyOn, routingSnapshot } from './routing-table'
import { CHANNEL_STATUS } from '../../shared/contract/enums'
import { emitInBackground, emitNotice, type EmitInput } from '../notify/emit'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'channel-status' })

/** Raise an alert: in the background when the caller answers a request, else now (the caller is background work). */
async function alert(env: Env, bg: BackgroundCtx | undefined, input: EmitInput) {
  if (bg) emitInBackground(env, bg, input)
  else await emitNotice(env, input)
}

/** Retests back off from AutoRetestBaseMinutes, doubling, up to this. */
export const MAX_RETEST_SECONDS = 86400

export function retestDelaySeconds(baseMinutes: number, retests: number): number {
  return Math.min(MAX_RETEST_SECONDS, Math.max(60, baseMinutes * 60) * 2 ** Math.min(retests, 20))
}

export interface StatusChange {
  channelId: number
  /** '' = the channel itself. */
  keyHash?: string
  status: number
  reason: string
  requestId?: string
}

export function historyStatement(env: Env, change: StatusChange, at = nowSeconds()) {
  return env.DB.prepare('INSERT INTO channel_status_history (channel_id, key_hash, created_at, status, reason, request_id) VALUES (?, ?, ?, ?, ?, ?)').bind(
    change.channelId,
    change.keyHash ?? '',
    at,
    change.status,
    change.reason.slice(0, 500),
    (change.requestId ?? '').slice(0, 128)
  )
}

const retestBase = async (env: Env) => (await getSettings(env)).int('AutoRetestBaseMinutes')

/**
 * Disable an enabled channel (auto or by a test) with its reason: status, routing version bump,
 * history, retest schedule and alerts. Called by the channel's ChannelHealth object; true when it changed.
 */
export async function disableChannel(env: Env, input: { channelId: number; reason: string; status?: number; requestId?: string }, bg?: BackgroundCtx): Promise<boolean> {
  const status = input.status ?? CHANNEL_STATUS.AUTO_DISABLED
  const res = await env.DB.prepare('UPDATE channels SET status = ?, status_reason = ? WHERE id = ? AND status = ?')
    .bind(status, input.reason.slice(0, 500), input.channelId, CHANNEL_STATUS.ENABLED)
    .run()
  if (res.meta.changes === 0) return false
  await env.CONFIG_VERSION.getByName('global').bump('channels')
  await channelDisabled(env, { channelId: input.channelId, status, reason: input.reason, requestId: input.requestId }, bg)
  return true
}

/** Enable an auto- or test-disabled channel again (never a manually disabled one). Called by its ChannelHealth object; true when it changed. */
export async function enableChannel(env: Env, input: { channelId: number; reason: string }, bg?: BackgroundCtx): Promise<boolean> {
  const res = await env.DB.prepare("UPDATE channels SET status = ?, status_reason = '' WHERE id = ? AND status IN (?, ?)")
    .bind(CHANNEL_STATUS.ENABLED, input.channelId, CHANNEL_STATUS.AUTO_DISABLED, CHANNEL_STATUS.TEST_DISABLED)
    .run()
  if (res.meta.changes === 0) return false
  await env.CONFIG_VERSION.getByName('global').bump('channels')
  await channelEnabled(env, input, bg)
  return true
}

/** After a channel was disabled (auto or by a test): history, and a retest schedule when automatic. */
export async function channelDisabled(env: Env, change: Omit<StatusChange, 'keyHash'>, bg?: BackgroundCtx) {
  const now = nowSeconds()
  const statements = [historyStatement(env, change, now)]
  if (change.status === CHANNEL_STATUS.AUTO_DISABLED || change.status === CHANNEL_STATUS.TEST_DISABLED) {
    const at = now + retestDelaySeconds(await retestBase(env), 0)
    statements.push(
      env.DB.prepare(
        `INSERT INTO channel_key_states (channel_id, key_hash, status, reason, changed_at, retest_at, retests) VALUES (?, '', ?, ?, ?, ?, 0)
         ON CONFLICT (channel_id, key_hash) DO UPDATE SET status = excluded.status, reason = excluded.reason, changed_at = excluded.changed_at, retest_at = excluded.retest_at, retests = 0`
      ).bind(change.channelId, change.status, change.reason.slice(0, 500), now, at)
    )
  }
  await env.DB.batch(statements)
  await alert(env, bg, {
    event: 'channel.disabled',
    subject: `channel:${change.channelId}`,
    text: `Channel #${change.channelId} was disabled: ${change.reason}`,
    data: { channel_id: change.channelId, status: change.status, reason: change.reason, request_id: change.requestId ?? '' },
  })
  const unavailable = alertModelsLeftWithout(env, change.channelId)
  if (bg) bg.waitUntil(unavailable)
  else await unavailable
}

/** model.unavailable: one notice for the models a disabled channel leaves with no enabled channel. */
async function alertModelsLeftWithout(env: Env, channelId: number): Promise<void> {
  try {
    const models = await modelsOnlyOn(env, channelId)
    if (models.length === 0) return
    const named = models.slice(0, 20).join(', ') + (models.length > 20 ? ` and ${models.length - 20} more` : '')
    await emitNotice(env, {
      event: 'model.unavailable',
      subject: `channel:${channelId}`,
      text: `No enabled channel is left for ${named} (channel #${channelId} was disabled)`,
      data: { channel_id: channelId, models: models.slice(0, 100), count: models.length },
    })
  } catch (err) {
    serverLog.error('model.unavailable notice failed', { channel_id: channelId, error: err })
  }
}

/** After a channel was enabled again: history, and its retest schedule goes. */
export async function channelEnabled(env: Env, change: { channelId: number; reason: string; requestId?: string }, bg?: BackgroundCtx) {
  await env.DB.batch([
    historyStatement(env, { ...change, status: CHANNEL_STATUS.ENABLED }),
    env.DB.prepare("DELETE FROM channel_key_states WHERE channel_id = ? AND key_hash = ''").bind(change.channelId),
  ])
  await alert(env, bg, {
    event: 'channel.enabled',
    subject: `channel:${change.channelId}`,
    text: `Channel #${change.channelId} is enabled again: ${change.reason}`,
    data: { channel_id: change.channelId, reason: change.reason },
  })
}

/**
 * Disable one key of a pool (only if it is enabled) with its reason; when no key of the channel is
 * left the channel is auto-disabled too. Returns what changed.
 */
export async function disableKey(env: Env, input: { channelId: number; keyHash: string; reason: string; requestId?: string }, bg?: BackgroundCtx) {
  const now = nowSeconds()
  const at = now + retestDelaySeconds(await retestBase(env), 0)
  const reason = input.reason.slice(0, 500)
  const res = await env.DB.prepare(
    `INSERT INTO channel_key_states (channel_id, key_hash, status, reason, changed_at, retest_at, retests) VALUES (?, ?, 3, ?, ?, ?, 0)
     ON CONFLICT (channel_id, key_hash) DO UPDATE SET status = 3, reason = excluded.reason, changed_at = excluded.changed_at, retest_at = excluded.retest_at, retests = 0
     WHERE channel_key_states.status != 3`
  )
    .bind(input.channelId, input.keyHash, reason, now, at)
    .run()
  if (res.meta.changes === 0) return { keyDisabled: false, channelDisabled: false }
  await historyStatement(env, { ...input, status: CHANNEL_STATUS.AUTO_DISABLED }, now).run()
  await alert(env, bg, {
    event: 'key.disabled',
    subject: `channel:${input.channelId}:key:${input.keyHash}`,
    text: `Key ${input.keyHash} of channel #${input.channelId} was disabled: ${reason}`,
    data: { channel_id: input.channelId, key_hash: input.keyHash, reason, request_id: input.requestId ?? '' },
  })
  let channelOff = false
  if ((await enabledKeyCount(env, input.channelId)) === 0) {
    const why = `no key left in the pool (last: ${reason})`
    channelOff = await channelHealthOf(env, input.channelId).disable({ channelId: input.channelId, reason: why, requestId: input.requestId })
  }
  await routingSnapshot.invalidate(env)
  return { keyDisabled: true, channelDisabled: channelOff }
}

/** Enable a key again (admin or a passing retest); an auto-disabled pool channel comes back with it. */
export async function enableKey(env: Env, input: { channelId: number; keyHash: string; reason: string }, bg?: BackgroundCtx) {
  const res = await env.DB.prepare('DELETE FROM channel_key_states WHERE channel_id = ? AND key_hash = ?').bind(input.channelId, input.keyHash).run()
  if (res.meta.changes === 0) return false
  await historyStatement(env, { ...input, status: CHANNEL_STATUS.ENABLED }).run()
  // The recovery of key.disabled: sent only when that notice had been sent (it clears its mark).
  await alert(env, bg, {
    event: 'key.enabled',
    subject: `channel:${input.channelId}:key:${input.keyHash}`,
    text: `Key ${input.keyHash} of channel #${input.channelId} is enabled again: ${input.reason}`,
    data: { channel_id: input.channelId, key_hash: input.keyHash, reason: input.reason },
  })
  const row = await env.DB.prepare('SELECT status FROM channels WHERE id = ?').bind(input.channelId).first<{ status: number }>()
  if (row?.status === CHANNEL_STATUS.AUTO_DISABLED) {
    await channelHealthOf(env, input.channelId).enable({ channelId: input.channelId, reason: `key ${input.keyHash} works again` })
  }
  await routingSnapshot.invalidate(env)
  return true
}

async function enabledKeyCount(env: Env, channelId: number): Promise<number> {
  const [ch, dead] = await env.DB.batch<Record<string, any>>([
    env.DB.prepare('SELECT key, key_mode FROM channels WHERE id = ?').bind(channelId),
    env.DB.prepare("SELECT key_hash FROM channel_key_states WHERE channel_id = ? AND key_hash != '' AND status = 3").bind(channelId),
  ])
  const row = ch!.results[0]
  if (!row) return 0
  const disabled = new Set(dead!.results.map((r) => r.key_hash as string))
  return poolKeys(String(row.key), String(row.key_mode)).filter((k) => !disabled.has(k.hash)).length
}

/**
 * One auth/billing failure of a pool key by `actor` (`user:<id>`): the key is disabled once the
 * channel's threshold of them fall within its window and came from at least two users, the rule
 * channels follow (a ChannelHealth object of its own, `channel:<id>:key:<hash>`, keeps the
 * strikes), so one user's provoked failures cannot empty a pool key by key.
 */
export function strikeKey(
  env: Env,
  ctx: BackgroundCtx,
  input: { channelId: number; keyHash: string; reason: string; requestId: string; threshold: number; windowSeconds: number; actor: string }
) {
  const threshold = Math.max(1, input.threshold)
  ctx.waitUntil(
    channelHealthOf(env, input.channelId, input.keyHash)
      .strike({ actor: input.actor, threshold, windowMs: Math.max(1, input.windowSeconds) * 1000 })
      .then((disable) => (disable ? disableKey(env, { ...input, reason: `${input.reason} (${threshold} failures)` }) : undefined))
      .catch((err) => serverLog.error('key auto-disable failed', { error: err }))
  )
}
