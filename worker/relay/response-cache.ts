/**
 * Response cache for identical non-stream chat requests: on when both the ChatCacheEnabled setting
 * and the token's cache flag are on. Keyed by the owner and a hash of the exact body, kept in KV for
 * ChatCacheExpireMinute minutes; a hit is answered without calling the upstream and is not charged.
 */
import type { Usage } from '../billing/formula'
import { cacheKeys } from '../cache/keys'
import { sha256Hex } from '../lib/crypto'
import type { Settings } from '../settings/store'
import type { RelayInput } from './relay-input'
import type { RelayAuth } from '../access/token-auth'

interface CachedAnswer {
  body: unknown
  usage: Usage
}

function enabled(settings: Settings, auth: RelayAuth, input: RelayInput) {
  return settings.bool('ChatCacheEnabled') && auth.chatCache && input.op === 'chat' && !input.stream && input.json !== undefined
}

const keyOf = async (auth: RelayAuth, input: RelayInput) => cacheKeys.chatCache(await sha256Hex(`${auth.userId}\n${JSON.stringify(input.json)}`))

export async function readCachedAnswer(env: Env, settings: Settings, auth: RelayAuth, input: RelayInput): Promise<CachedAnswer | null> {
  if (!enabled(settings, auth, input)) return null
  return env.CACHE.get<CachedAnswer>(await keyOf(auth, input), 'json')
}

export async function storeCachedAnswer(env: Env, settings: Settings, auth: RelayAuth, input: RelayInput, answer: CachedAnswer) {
  if (!enabled(settings, auth, input)) return
  const ttl = Math.max(60, settings.int('ChatCacheExpireMinute') * 60)
  await env.CACHE.put(await keyOf(auth, input), JSON.stringify(answer), { expirationTtl: ttl })
}
