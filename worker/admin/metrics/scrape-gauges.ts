/**
 * Gauges read when /metrics is scraped, never on the relay path: each channel's status (enabled,
 * frozen — enabled with at least one model rested by its ChannelHealth object — or disabled), the
 * auto-disabled keys of each key pool, and the wallet log rows parked as dead letters.
 */
import { CHANNEL_STATUS } from '../../../shared/contract/enums'
import { channelHealthOf } from '../../channels/health'
import type { ScrapeGauge } from '../../lib/metrics/render'

/** Channels whose health objects one scrape asks about at most (the rest report enabled). */
const MAX_HEALTH_CALLS = 500

async function isFrozen(env: Env, channelId: number, now: number): Promise<boolean> {
  try {
    const frozen = await channelHealthOf(env, channelId).frozen()
    return Object.values(frozen).some((until) => until > now)
  } catch {
    return false
  }
}

export async function scrapeGauges(env: Env): Promise<ScrapeGauge[]> {
  const [channels, keys, dead] = await env.DB.batch([
    env.DB.prepare('SELECT id, type, status FROM channels ORDER BY id'),
    env.DB.prepare("SELECT channel_id, COUNT(*) AS n FROM channel_key_states WHERE key_hash != '' AND status = ? GROUP BY channel_id ORDER BY channel_id").bind(
      CHANNEL_STATUS.AUTO_DISABLED
    ),
    env.DB.prepare('SELECT COUNT(*) AS n FROM wallet_dead_letters'),
  ])
  const rows = (channels?.results ?? []) as { id: number; type: number; status: number }[]
  const now = Date.now()
  const enabled = rows.filter((r) => r.status === CHANNEL_STATUS.ENABLED).slice(0, MAX_HEALTH_CALLS)
  const frozen = new Set<number>()
  await Promise.all(enabled.map(async (r) => (await isFrozen(env, r.id, now)) && frozen.add(r.id)))
  const statusOf = (r: { id: number; status: number }) => (r.status !== CHANNEL_STATUS.ENABLED ? 'disabled' : frozen.has(r.id) ? 'frozen' : 'enabled')
  return [
    {
      name: 'gateway_channel_status',
      help: 'Each channel by its status: enabled, frozen (enabled, some model rested after failures) or disabled (by hand, by failures or by a test); always 1.',
      labels: ['channel', 'channel_type', 'status'],
      samples: rows.map((r) => ({ values: [r.id, r.type, statusOf(r)], value: 1 })),
    },
    {
      name: 'gateway_pool_keys_disabled',
      help: 'Keys of a key-pool channel disabled after failures, by channel.',
      labels: ['channel'],
      samples: ((keys?.results ?? []) as { channel_id: number; n: number }[]).map((r) => ({ values: [r.channel_id], value: r.n })),
    },
    {
      name: 'gateway_wallet_dead_letters',
      help: 'Wallet log rows parked after repeated write failures, waiting for root.',
      labels: [],
      samples: [{ values: [], value: ((dead?.results?.[0] as { n?: number } | undefined)?.n ?? 0) as number }],
    },
  ]
}
