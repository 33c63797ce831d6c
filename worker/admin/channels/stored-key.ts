/**
 * Where a channel's stored supplier key may be sent (security finding 5 of round 3). Only root
 * reads keys in clear, so an admin must not be able to point a stored key at a host of their
 * choosing: the live model list with a saved channel's key always goes to that channel's stored
 * base URL and type (another one needs the key typed again, or root), and changing a channel's
 * base URL or its proxy while keeping its stored key is root's alone (a proxy reads the key of an
 * http:// supplier). Changes of a key, base URL or proxy leave a manage-log row (changed or
 * unchanged, never the key).
 */
import { ApiError } from '../../lib/errors'
import type { SessionUser } from '../../env'
import { auditLog } from '../../logs/audit-log'
import type { Channel } from '../../db/schema'
import type { ChannelInfo } from '../../providers/types'
import { ROLE } from '../../../shared/contract/enums'

/** The base URL as the channel stores it (first line, trimmed), without trailing slashes, for comparing. */
const sameBaseUrl = (a: string, b: string) => a.split('\n')[0]!.trim().replace(/\/+$/, '') === b.split('\n')[0]!.trim().replace(/\/+$/, '')

const STORED_KEY_ELSEWHERE = 'Only root can send a saved channel key to another base URL or channel type; type the key again to use a different one'
const BASE_URL_KEEPS_KEY = 'Only root can change the base URL while keeping the saved key; type the key again to change the base URL'
const PROXY_KEEPS_KEY = 'Only root can change the proxy while keeping the saved key; type the key again to change the proxy'

/**
 * The channel to ask for its model list. A typed key goes where the form says; a saved channel's
 * key (no key typed) goes to the saved base URL with the saved type and parameter, unless the
 * caller is root. `base_url` left empty means the saved one.
 */
export function modelsListTarget(actor: SessionUser, body: { type: number; key: string; base_url: string; other: string }, stored: Channel | undefined): ChannelInfo | undefined {
  const firstLine = (v: string) => v.split('\n')[0]!.trim()
  if (body.key) return { id: 0, type: body.type, name: '', key: firstLine(body.key), baseUrl: firstLine(body.base_url), other: body.other }
  if (!stored) return undefined
  const key = firstLine(stored.key)
  if (actor.role >= ROLE.ROOT) return { id: stored.id, type: body.type, name: stored.name, key, baseUrl: firstLine(body.base_url), other: body.other }
  const movesKey = (body.base_url.trim() !== '' && !sameBaseUrl(body.base_url, stored.baseUrl)) || body.type !== stored.type
  if (movesKey) throw new ApiError(403, STORED_KEY_ELSEWHERE, { data: { fields: { key: STORED_KEY_ELSEWHERE } } })
  return { id: stored.id, type: stored.type, name: stored.name, key, baseUrl: stored.baseUrl, other: stored.other }
}

/** An update that keeps the stored key (empty key field) may change the base URL or the proxy only for root. */
export function assertBaseUrlChangeAllowed(actor: SessionUser, current: Channel, update: { key: string; base_url: string; proxy: string }) {
  if (update.key || actor.role >= ROLE.ROOT) return
  if (!sameBaseUrl(update.base_url, current.baseUrl)) throw new ApiError(403, BASE_URL_KEEPS_KEY, { data: { fields: { base_url: BASE_URL_KEEPS_KEY } } })
  // Removing a proxy sends the key only to its own base URL; setting or changing one is root's.
  const proxy = update.proxy.trim()
  if (proxy !== '' && proxy !== current.proxy.trim()) throw new ApiError(403, PROXY_KEEPS_KEY, { data: { fields: { proxy: PROXY_KEEPS_KEY } } })
}

/** A manage-log row when an update changed the key or the base URL (the key itself is never written). */
export async function auditChannelUpdate(env: Env, actor: SessionUser, before: Channel, after: Channel, sourceIp: string) {
  const keyChanged = before.key !== after.key
  const baseUrlChanged = before.baseUrl !== after.baseUrl
  const proxyChanged = before.proxy !== after.proxy
  if (!keyChanged && !baseUrlChanged && !proxyChanged) return
  const parts = [
    keyChanged ? 'key changed' : 'key unchanged',
    baseUrlChanged ? `base URL ${before.baseUrl || '(default)'} → ${after.baseUrl || '(default)'}` : 'base URL unchanged',
    ...(proxyChanged ? [`proxy ${before.proxy ? 'changed' : 'set'}`] : []),
  ]
  await auditLog(
    env,
    actor,
    actor,
    `${actor.username} updated channel "${after.name}" (#${after.id}): ${parts.join(', ')}`,
    {
      channel_id: after.id,
      key_changed: keyChanged,
      base_url_changed: baseUrlChanged,
      base_url_before: before.baseUrl,
      base_url_after: after.baseUrl,
      proxy_changed: proxyChanged,
    },
    sourceIp
  )
}
