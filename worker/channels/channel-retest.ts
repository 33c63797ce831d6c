/**
 * Cron retests of what the gateway disabled by itself, with exponential backoff: every auto- or
 * test-disabled channel and every auto-disabled pool key has a row in `channel_key_states` with
 * its next retest time (channels/status.ts). A due row is tested (a pool key alone): the retest is
 * the half-open probe — nothing else reaches a disabled channel or key — so a pass enables it again
 * (history row, routing version bump, breakers closed), a failure doubles the wait, up to a day.
 * Runs only when AutomaticEnableChannelEnabled is on; at most RETEST_BATCH rows per run.
 */
import { eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { channels } from '../db/schema'
import { nowSeconds } from '../lib/time'
import { enableKey, retestDelaySeconds } from './status'
import { channelHealthOf } from './health'
import { poolKeys } from './key-pool'
import { getSettings } from '../settings/store'
import { testChannel } from './channel-test'
import { CHANNEL_STATUS } from '../../shared/contract/enums'

const RETEST_BATCH = 20

interface DueRow {
  channel_id: number
  key_hash: string
  retests: number
}

export async function retestDue(env: Env, now = nowSeconds()): Promise<{ tested: number; enabled: number }> {
  const settings = await getSettings(env)
  const summary = { tested: 0, enabled: 0 }
  if (!settings.bool('AutomaticEnableChannelEnabled')) return summary
  const { results } = await env.DB.prepare('SELECT channel_id, key_hash, retests FROM channel_key_states WHERE retest_at <= ? ORDER BY retest_at LIMIT ?')
    .bind(now, RETEST_BATCH)
    .all<DueRow>()
  for (const row of results) {
    const outcome = await retestOne(env, row)
    if (outcome === 'gone') continue
    summary.tested++
    if (outcome === 'enabled') summary.enabled++
    else {
      const next = now + retestDelaySeconds(settings.int('AutoRetestBaseMinutes'), row.retests + 1)
      await env.DB.prepare('UPDATE channel_key_states SET retests = retests + 1, retest_at = ? WHERE channel_id = ? AND key_hash = ?')
        .bind(next, row.channel_id, row.key_hash)
        .run()
    }
  }
  return summary
}

async function retestOne(env: Env, row: DueRow): Promise<'enabled' | 'failed' | 'gone'> {
  const forget = () => env.DB.prepare('DELETE FROM channel_key_states WHERE channel_id = ? AND key_hash = ?').bind(row.channel_id, row.key_hash).run()
  const [channel] = await createDb(env.DB).select().from(channels).where(eq(channels.id, row.channel_id)).limit(1)
  if (!channel) return forget().then(() => 'gone')
  const model = channel.testModel || channel.models.split(',').find((m) => m && !m.endsWith('*')) || ''
  if (row.key_hash === '') {
    // The channel itself; an admin who enabled or disabled it by hand ends the schedule.
    if (channel.status !== CHANNEL_STATUS.AUTO_DISABLED && channel.status !== CHANNEL_STATUS.TEST_DISABLED) return forget().then(() => 'gone')
    const result = await testChannel(env, channel, model)
    if (!result.success) return 'failed'
    const enabled = await channelHealthOf(env, channel.id).enable({ channelId: channel.id, reason: `retest passed in ${result.time.toFixed(2)} s` })
    return enabled ? 'enabled' : 'failed'
  }
  const key = poolKeys(channel.key, channel.keyMode).find((k) => k.hash === row.key_hash)
  if (!key) return forget().then(() => 'gone')
  const result = await testChannel(env, channel, model, key)
  if (!result.success) return 'failed'
  await enableKey(env, { channelId: channel.id, keyHash: key.hash, reason: `retest passed in ${result.time.toFixed(2)} s` })
  return 'enabled'
}
