/**
 * The sub-path the console is served under, read at runtime from the page's `<base href>`: the
 * Worker sets it from its BASE_PATH variable (worker/lib/base-path.ts), so one build serves any
 * prefix. "" at the root. The router's basepath, every call to the gateway (/api, /v1) and every
 * public URL the console shows (the site URL when ServerAddress is unset) take it from here.
 */

/** The prefix named by a `<base href>` value: "/gw/" → "/gw"; absent or "/" → "". */
export function basePathFromHref(href: string | null | undefined): string {
  if (!href) return ''
  try {
    return new URL(href, 'http://console.invalid/').pathname.replace(/\/+$/, '')
  } catch {
    return ''
  }
}

/** This page's prefix (outside a browser, e.g. unit tests: the root). */
export const BASE_PATH = typeof document === 'undefined' ? '' : basePathFromHref(document.querySelector('base')?.getAttribute('href'))

/** A root-relative gateway path ("/api/…", "/v1/…") as this page must request it. */
export const withBase = (path: string, base = BASE_PATH) => (path.startsWith('/') ? `${base}${path}` : path)

/** The public URL of this console: its origin plus the prefix (the default when ServerAddress is unset). */
export const siteUrl = () => `${window.location.origin}${BASE_PATH}`
