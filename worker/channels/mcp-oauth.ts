/**
 * OAuth client-credentials tokens for MCP tool servers (RFC 6749 §4.4): a server stored with
 * `oauth` gets an access token from its token URL — a form-encoded POST with
 * `grant_type=client_credentials` (and `scope` when set), the client authenticated with HTTP Basic
 * (client_secret_basic, §2.3.1: id and secret form-encoded, then base64) — sent as
 * `Authorization: Bearer` on every request to the server (it replaces a static Authorization
 * header). Tokens are kept in isolate memory, keyed by a digest of the credentials, until 30 s
 * before `expires_in` (5 minutes when the answer names none); concurrent requests share one token
 * request. A 401 from the server drops the token, fetches a fresh one and retries once
 * (mcpAuthFetch). Neither a token nor the secret is ever logged or put into an error message.
 */
import type { McpOAuthConfig } from '../../shared/contract/mcp'
import { onIsolateReset } from '../cache/isolate'
import { clockNow } from '../lib/clock'

/** A token answered without expires_in is trusted this long. */
const DEFAULT_LIFETIME_SECONDS = 300
/** A token is renewed this long before it expires. */
const EARLY_SECONDS = 30

interface CachedToken {
  token: string
  /** ms since the epoch. */
  expiresAt: number
}

const tokens = new Map<string, Promise<CachedToken>>()
onIsolateReset(() => tokens.clear())

/** Why a token could not be had; the message is safe to show (no token, no secret). */
export class McpOAuthError extends Error {}

async function credentialsKey(o: McpOAuthConfig): Promise<string> {
  const raw = new TextEncoder().encode(JSON.stringify([o.token_url, o.client_id, o.client_secret, o.scope ?? '']))
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', raw))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+')

async function requestToken(o: McpOAuthConfig, signal: AbortSignal): Promise<CachedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials' })
  if (o.scope) form.set('scope', o.scope)
  const basic = btoa(`${formEncode(o.client_id)}:${formEncode(o.client_secret)}`)
  const host = new URL(o.token_url).host
  let res: Response
  try {
    res = await fetch(o.token_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
      body: form.toString(),
      // A redirect is refused, not followed: it would take the credentials past the outbound guard.
      redirect: 'manual',
      signal,
    })
  } catch (err) {
    throw new McpOAuthError(`OAuth token request to ${host} failed: ${signal.aborted ? 'no answer in time' : String((err as Error)?.message ?? err).slice(0, 200)}`)
  }
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (!res.ok) {
    // RFC 6749 §5.2: the error code and its description, never anything else of the answer.
    const why = [body?.error, body?.error_description]
      .filter((v) => typeof v === 'string')
      .join(': ')
      .slice(0, 300)
    throw new McpOAuthError(`OAuth token request to ${host} was refused (HTTP ${res.status}${why ? `, ${why}` : ''}); check the server's client credentials`)
  }
  const token = body?.access_token
  if (typeof token !== 'string' || !token) throw new McpOAuthError(`OAuth token answer of ${host} has no access_token`)
  if (typeof body?.token_type === 'string' && body.token_type.toLowerCase() !== 'bearer') {
    throw new McpOAuthError(`OAuth token answer of ${host} has token_type "${body.token_type.slice(0, 40)}", not Bearer`)
  }
  const lifetime = Number(body?.expires_in)
  const seconds = Number.isFinite(lifetime) && lifetime > 0 ? lifetime : DEFAULT_LIFETIME_SECONDS
  return { token, expiresAt: clockNow() + Math.max(seconds - EARLY_SECONDS, seconds / 2) * 1000 }
}

/** A valid access token for `o`: the cached one, or a new one (`stale`: the token the server just refused). */
export async function accessToken(o: McpOAuthConfig, signal: AbortSignal, stale?: string): Promise<string> {
  const key = await credentialsKey(o)
  const cached = tokens.get(key)
  if (cached) {
    const held = await cached.catch(() => undefined)
    if (held && held.token !== stale && held.expiresAt > clockNow()) return held.token
    // Another request may have replaced it meanwhile; drop only what was just found wanting.
    if (tokens.get(key) === cached) tokens.delete(key)
    else return accessToken(o, signal, stale)
  }
  const fresh = requestToken(o, signal)
  tokens.set(key, fresh)
  fresh.catch(() => {
    if (tokens.get(key) === fresh) tokens.delete(key)
  })
  return (await fresh).token
}

/**
 * The fetch a server's MCP client speaks through: with a grant, every request carries the bearer
 * token, and a 401 answer is retried once with a fresh one; without one, plain fetch.
 */
export function mcpAuthFetch(oauth: McpOAuthConfig | null | undefined, signal: AbortSignal): typeof fetch | undefined {
  if (!oauth) return undefined
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const send = (token: string) => {
      const headers = new Headers(init?.headers)
      headers.set('authorization', `Bearer ${token}`)
      return fetch(input, { ...init, headers })
    }
    const token = await accessToken(oauth, signal)
    const res = await send(token)
    if (res.status !== 401) return res
    await res.body?.cancel().catch(() => undefined)
    return send(await accessToken(oauth, signal, token))
  }
}
