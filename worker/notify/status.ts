/**
 * The alerts at a glance for the system page: how many channels exist and are on, deliveries still
 * waiting for a retry, deliveries that failed for good in the last day, and the latest such failure
 * (its error already redacted when it was recorded).
 */
import { nowSeconds } from '../lib/time'
import type { AlertStatus } from '../../shared/contract/notify'

export async function alertStatus(env: Env): Promise<AlertStatus> {
  const since = nowSeconds() - 86400
  const [counts, last] = await env.DB.batch<Record<string, any>>([
    env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM notify_channels) AS channels,
              (SELECT COUNT(*) FROM notify_channels WHERE enabled = 1) AS enabled,
              (SELECT COUNT(*) FROM notify_deliveries WHERE status = 'pending') AS pending,
              (SELECT COUNT(*) FROM notify_deliveries WHERE status = 'failed' AND updated_at >= ?) AS failed_24h`
    ).bind(since),
    env.DB.prepare(
      `SELECT c.name AS channel, d.event, d.error, d.updated_at AS at FROM notify_deliveries d JOIN notify_channels c ON c.id = d.channel_id
       WHERE d.status = 'failed' ORDER BY d.updated_at DESC, d.id DESC LIMIT 1`
    ),
  ])
  const row = counts!.results[0] ?? {}
  const failure = last!.results[0]
  return {
    channels: Number(row.channels ?? 0),
    enabled: Number(row.enabled ?? 0),
    pending: Number(row.pending ?? 0),
    failed_24h: Number(row.failed_24h ?? 0),
    last_failure: failure ? { channel: String(failure.channel), event: String(failure.event), error: String(failure.error ?? ''), at: Number(failure.at) } : null,
  }
}
