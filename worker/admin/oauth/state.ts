/**
 * OAuth anti-forgery state: a random 32-character value kept in KV for 10 minutes with the
 * signed-in user's id (which turns the callback into an account binding) and an OIDC nonce.
 * A callback reads it first and deletes it only after success, so the console may retry a failed
 * callback; a completed state cannot be used again.
 */
import { randomString } from '../../lib/crypto'

export const STATE_TTL_SECONDS = 10 * 60
export const STATE_PATTERN = /^[A-Za-z0-9]{32}$/
const key = (state: string) => `v1:oauth-state:${state}`

export interface OAuthState {
  /** Set when the state was issued to a signed-in user: the callback binds instead of logging in. */
  userId: number | null
  nonce: string
}

export async function createOAuthState(env: Env, userId: number | undefined): Promise<{ state: string } & OAuthState> {
  const state = randomString(32)
  const record: OAuthState = { userId: userId ?? null, nonce: randomString(32) }
  await env.CACHE.put(key(state), JSON.stringify(record), { expirationTtl: STATE_TTL_SECONDS })
  return { state, ...record }
}

export async function readOAuthState(env: Env, state: string): Promise<OAuthState | undefined> {
  if (!STATE_PATTERN.test(state)) return undefined
  const raw = await env.CACHE.get(key(state))
  return raw ? (JSON.parse(raw) as OAuthState) : undefined
}

export async function deleteOAuthState(env: Env, state: string): Promise<void> {
  await env.CACHE.delete(key(state))
}
