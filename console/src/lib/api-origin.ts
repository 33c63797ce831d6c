/**
 * Where the console calls the gateway. By default the same origin (under the page's base path,
 * base-path.ts). A console built with `VITE_API_ORIGIN=https://api.example.com` (one-hub's
 * REACT_APP_SERVER; an origin, optionally with the gateway's own base path) calls that host instead,
 * sending the session cookie along (`credentials: 'include'`); the gateway must list this console's
 * origin in its CONSOLE_ORIGINS variable (worker/middleware/console-cors.ts). The page cannot read
 * that host's CSRF cookie, so api-client.ts echoes the token the gateway sends in a header.
 */
import { withBase } from './base-path'

/** "https://api.example.com/gw/" → "https://api.example.com/gw"; unset or unusable → "" (same origin). */
export function apiOriginOf(value: string | undefined): string {
  const raw = value?.trim()
  if (!raw) return ''
  try {
    const url = new URL(raw)
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return ''
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
  } catch {
    return ''
  }
}

export const API_ORIGIN = apiOriginOf(import.meta.env.VITE_API_ORIGIN)

/** A gateway path ("/api/…", "/v1/…") as this console requests it. */
export const apiUrl = (path: string, origin = API_ORIGIN) => (origin ? `${origin}${path}` : withBase(path))

/** The session cookie goes along to the gateway: same origin by default, across origins when built for one. */
export const apiCredentials: RequestCredentials = API_ORIGIN ? 'include' : 'same-origin'
