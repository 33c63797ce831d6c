/**
 * The sub-path the whole site lives under (BASE_PATH, read at runtime: wrangler [vars], .dev.vars or
 * the environment of `npm start`). The Worker entry strips it before routing, so the management API,
 * the relay and the assets keep their root paths inside; `/gw` redirects to `/gw/`, a path outside
 * the prefix is 404, and the console's index.html gets `<base href="/gw/">` (the console reads the
 * base from that tag: console/src/lib/base-path.ts). Code that writes public URLs or cookie paths
 * asks here for the prefix (`basePathOf`, `publicSiteUrl`). Unset or "/" is the root, as before.
 */
import type { Context } from 'hono'
import { config } from './env'

/** One or more path segments of URL-safe characters, with or without a trailing slash; or "/" alone. */
const BASE_PATH_PATTERN = /^(\/[A-Za-z0-9._~-]+)+\/?$|^\/$/

/** Whether `raw` is an acceptable BASE_PATH (the env schema refuses anything else). */
export const isBasePath = (raw: string) => BASE_PATH_PATTERN.test(raw.trim()) && !/\/\.\.?(\/|$)/.test(raw.trim())

/** The prefix in its one spelling: "" for the root, else "/gw" (leading slash, no trailing one). */
export const normalizeBasePath = (raw: string | undefined) => (raw ?? '').trim().replace(/\/+$/, '')

/** The configured prefix of a request's env ("" at the root). */
export const basePathOf = (c: Context) => config(c.env).basePath

/** The public URL of the site when ServerAddress is unset: the request's origin plus the prefix. */
export const publicSiteUrl = (c: Context) => `${new URL(c.req.url).origin}${basePathOf(c)}`

/** Where a request under `base` goes: its path inside the prefix, a redirect to `base/`, or nowhere. */
export type BaseRoute = { kind: 'inside'; path: string } | { kind: 'slash' } | { kind: 'outside' }

export function routeUnderBase(path: string, base: string): BaseRoute {
  if (path === base) return { kind: 'slash' }
  if (path.startsWith(base) && path.charCodeAt(base.length) === 47) return { kind: 'inside', path: path.slice(base.length) }
  return { kind: 'outside' }
}

/** `/gw` → `/gw/` with the query kept (a relative redirect: the browser keeps scheme and host). */
export function redirectToBase(url: string, base: string): Response {
  const { search } = new URL(url)
  return new Response(null, { status: 308, headers: { location: `${base}/${search}` } })
}

/** A path outside the prefix: nothing of the site lives there. */
export const outsideBase = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } })

/** The request with the prefix taken off its URL (same method, headers and body). */
export function stripBase(request: Request, inner: string): Request {
  const url = new URL(request.url)
  url.pathname = inner
  return new Request(url, request)
}

/**
 * An asset under the prefix: fetched at its root path from ASSETS; an HTML answer (index.html and
 * the SPA fallback) gets its `<base href>` set to the prefix. Its ETag goes, since the body changed.
 */
export async function assetUnderBase(assets: Fetcher, request: Request, base: string): Promise<Response> {
  const res = await assets.fetch(request)
  if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) return res
  const rewritten = new HTMLRewriter()
    .on('base', {
      element(el) {
        el.setAttribute('href', `${base}/`)
      },
    })
    .transform(res)
  const out = new Response(rewritten.body, rewritten)
  out.headers.delete('etag')
  out.headers.delete('content-length')
  return out
}
