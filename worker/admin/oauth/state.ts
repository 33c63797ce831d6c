/**
 * OAuth anti-forgery state: a random 32-character value kept in KV for 10 minutes with the
 * signed-in user's id (which turns the callback into an account binding), an OIDC nonce and the
 * SHA-256 of a browser secret. The secret lives in an HttpOnly SameSite=Lax cookie set when the
 * state is issued, so only the browser that started the flow can finish it (no login CSRF with a
 * state fetched by someone else). States are single-use secrets in D1: a callback reads the state
 * first and takes it (one conditional delete) only once the provider has answered, so the console
 * may retry a failed callback, and of two concurrent callbacks with one state only one goes on.
 */
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { randomString, safeEqual, sha256Hex } from '../../lib/crypto'
import { consumeSecret, peekSecret, putSecret } from '../../lib/single-use'
import { basePathOf } from '../../lib/base-path'

export const STATE_TTL_SECONDS = 10 * 60
export const STATE_PATTERN = /^[A-Za-z0-9]{32}$/
export const BROWSER_COOKIE = 'oauth_browser'
const BROWSER_PATTERN = /^[A-Za-z0-9]{43}$/
const key = (state: string) => `v1:oauth-state:${state}`

export interface OAuthState {
  /** Set when the state was issued to a signed-in user: the callback binds instead of logging in. */
  userId: number | null
  nonce: string
  /** SHA-256 of the browser secret (cookie) of the browser the state was issued to. */
  browser: string
}

/** This browser's secret: the existing cookie (so parallel flows share it), else a new one; refreshed for the state's lifetime. */
function browserSecret(c: Context): string {
  const existing = getCookie(c, BROWSER_COOKIE)
  const secret = existing && BROWSER_PATTERN.test(existing) ? existing : randomString(43)
  setCookie(c, BROWSER_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    path: `${basePathOf(c)}/api/oauth`,
    maxAge: STATE_TTL_SECONDS,
  })
  return secret
}

export async function createOAuthState(c: Context, userId: number | undefined): Promise<{ state: string } & OAuthState> {
  const state = randomString(32)
  const record: OAuthState = { userId: userId ?? null, nonce: randomString(32), browser: await sha256Hex(browserSecret(c)) }
  await putSecret(c.env.DB, key(state), JSON.stringify(record), STATE_TTL_SECONDS)
  return { state, ...record }
}

export async function readOAuthState(env: Env, state: string): Promise<OAuthState | undefined> {
  if (!STATE_PATTERN.test(state)) return undefined
  const raw = await peekSecret(env.DB, key(state))
  return raw ? (JSON.parse(raw) as OAuthState) : undefined
}

/** Whether this request comes from the browser the state was issued to. */
export async function fromIssuingBrowser(c: Context, record: OAuthState): Promise<boolean> {
  const secret = getCookie(c, BROWSER_COOKIE)
  if (!secret || !record.browser) return false
  return safeEqual(await sha256Hex(secret), record.browser)
}

/** Takes the state for good; false when another callback took it first (or it expired). */
export async function takeOAuthState(env: Env, state: string): Promise<boolean> {
  return (await consumeSecret(env.DB, key(state))) !== undefined
}
