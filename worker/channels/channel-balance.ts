/**
 * Channel balance refresh: asks the supplier for the account balance (for types that expose one),
 * saves it with its time on the channel, one channel or every enabled one (button and cron).
 */
import { and, eq, inArray } from 'drizzle-orm'
import { createDb } from '../db/client'
import { channels, type Channel } from '../db/schema'
import { ApiError } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import { CHANNEL_TYPES, channelType } from '../providers/registry'
import { channelNetwork } from './network'
import { CHANNEL_STATUS } from '../../shared/contract/enums'

const TIMEOUT_MS = 15_000

export async function refreshBalance(env: Env, channel: Channel): Promise<number> {
  const type = channelType(channel.type)
  if (!type?.balance) throw new ApiError(400, `${type?.name ?? 'This channel type'} does not expose a balance`)
  const info = { id: channel.id, type: channel.type, name: channel.name, key: channel.key.split('\n')[0]!.trim(), baseUrl: channel.baseUrl, other: channel.other }
  // The channel's proxy when it has one, like its relay calls (npm start: the direct network binding).
  const network = channelNetwork(env, channel)
  const bodies = await Promise.all(
    type.balance.requests(info, type.defaultBaseUrl).map(async (req) => {
      const res = await (network ?? globalThis).fetch(req, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch((err: Error) => {
        throw new ApiError(502, `Balance query failed: ${err.message}`)
      })
      if (!res.ok) throw new ApiError(502, `Balance query failed: the supplier answered ${res.status}`)
      return res.json().catch(() => {
        throw new ApiError(502, 'Balance query failed: the supplier answered with malformed JSON')
      })
    })
  )
  const balance = Math.round(type.balance.parse(bodies) * 10000) / 10000
  if (!Number.isFinite(balance)) throw new ApiError(502, 'Balance query failed: no balance in the answer')
  await createDb(env.DB).update(channels).set({ balance, balanceUpdatedTime: nowSeconds() }).where(eq(channels.id, channel.id))
  return balance
}

/** Refresh every enabled channel whose type exposes a balance, five at a time. */
export async function refreshAllBalances(env: Env): Promise<{ updated: number; failed: number }> {
  const types = CHANNEL_TYPES.filter((t) => t.balance).map((t) => t.id)
  const queue = await createDb(env.DB)
    .select()
    .from(channels)
    .where(and(eq(channels.status, CHANNEL_STATUS.ENABLED), inArray(channels.type, types)))
  const result = { updated: 0, failed: 0 }
  const worker = async () => {
    for (let ch = queue.shift(); ch; ch = queue.shift()) {
      try {
        await refreshBalance(env, ch)
        result.updated++
      } catch {
        result.failed++
      }
    }
  }
  await Promise.all(Array.from({ length: 5 }, worker))
  return result
}
