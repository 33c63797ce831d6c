/**
 * /mcp session ids (`Mcp-Session-Id`), stateless: a session is `<token id>.<issued, unix s>.<nonce>.<signature>`,
 * signed with the gateway's token secret, so any isolate can check it without storage and a key
 * cannot use another key's session. Nothing else lives in a session (every request is
 * authenticated by its API key anyway), so no Durable Object is needed. A DELETE ends a session by
 * a KV mark kept until the id would have expired.
 */
import { cacheKeys } from '../cache/keys'
import { hmacBase62, randomString, safeEqual } from '../lib/crypto'
import { nowSeconds } from '../lib/time'
import { getTokenSecret } from '../settings/store'

/** A session lives a day from its initialize. */
const SESSION_TTL_SECONDS = 86_400

const sign = async (env: Env, data: string) => hmacBase62(await getTokenSecret(env), `mcp-session:${data}`, 24)

/** A new session id for the API key `tokenId`. */
export async function newSessionId(env: Env, tokenId: number): Promise<string> {
  const data = `${tokenId}.${nowSeconds()}.${randomString(16)}`
  return `${data}.${await sign(env, data)}`
}

/** Whether `id` is a live session of `tokenId`: signed here, for that key, not expired and not ended. */
export async function sessionValid(env: Env, tokenId: number, id: string): Promise<boolean> {
  const parts = id.split('.')
  if (parts.length !== 4) return false
  const [token, issued, nonce, signature] = parts as [string, string, string, string]
  if (Number(token) !== tokenId || !/^\d+$/.test(issued) || !safeEqual(signature, await sign(env, `${token}.${issued}.${nonce}`))) return false
  if (Number(issued) + SESSION_TTL_SECONDS <= nowSeconds()) return false
  return (await env.CACHE.get(cacheKeys.mcpEndedSession(id))) === null
}

/** The client ended `id` (DELETE): later requests with it are answered 404. */
export async function endSession(env: Env, id: string): Promise<void> {
  await env.CACHE.put(cacheKeys.mcpEndedSession(id), '1', { expirationTtl: SESSION_TTL_SECONDS })
}
