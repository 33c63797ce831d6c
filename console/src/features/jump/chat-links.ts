/**
 * Chat links (the chat clients a user can open with a key): parsing the site's `chat_links` JSON, the visible
 * ones by descending sort, the /jump address that opens one for a key, and the checks /jump makes
 * before redirecting: the template must be one the administrator configured, {key} and {server} are
 * filled in URL-encoded (a key cannot add parameters), and only http(s) or a custom app scheme is
 * followed — never javascript:, data: or other schemes that run or embed content in the browser.
 * The key travels in the /jump address's fragment, which is never sent to a server or in a Referer.
 */
import { withBase } from '@/lib/base-path'
export interface ChatLink {
  name: string
  url: string
  show: boolean
  sort: number
}

export function parseChatLinks(raw: string | null | undefined): ChatLink[] {
  if (!raw) return []
  try {
    const list: unknown = JSON.parse(raw)
    if (!Array.isArray(list)) return []
    return list
      .filter((l): l is Record<string, unknown> => l !== null && typeof l === 'object')
      .filter((l) => typeof l.name === 'string' && typeof l.url === 'string' && l.url !== '')
      .map((l) => ({ name: l.name as string, url: l.url as string, show: l.show === true, sort: Number(l.sort) || 0 }))
  } catch {
    return []
  }
}

/** The links to offer: shown ones, largest sort first. */
export const visibleChatLinks = (raw: string | null | undefined) =>
  parseChatLinks(raw)
    .filter((l) => l.show)
    .sort((a, b) => b.sort - a.sort)

/** The console's /jump page for a link template and a key (the console may live under a base path); the key goes in the fragment. */
export function jumpHref(template: string, key: string): string {
  const params = new URLSearchParams({ url: template })
  return `${withBase('/jump')}?${params.toString()}#${new URLSearchParams({ key }).toString()}`
}

/** The key of a /jump address (`#key=…`), or '' without one. */
export const keyFromFragment = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('key') ?? ''

/**
 * Fills a template: `{key}` and `{server}` are URL-encoded, except `{server}` as the very start of
 * the template, where it is the address itself (e.g. `{server}/chat?key={key}`).
 */
export const fillTemplate = (template: string, key: string, server: string) =>
  template.replace(/\{(key|server)\}/g, (_match, name: string, offset: number) =>
    name === 'server' ? (offset === 0 ? server : encodeURIComponent(server)) : encodeURIComponent(key)
  )

/** Schemes that execute or embed content in the page instead of opening a site or an app. */
const BLOCKED = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:', 'filesystem:', 'view-source:'])

export type TargetCheck = { ok: true; url: string; app: boolean } | { ok: false; reason: 'missing' | 'invalid' | 'scheme' | 'unknown' }

/** /jump opens only templates the administrator configured (chat_links or the legacy chat_link): no open redirect. */
export function isConfiguredTemplate(template: string, chatLinks: string | null | undefined, chatLink: string | null | undefined): boolean {
  return template !== '' && (parseChatLinks(chatLinks).some((l) => l.url === template) || template === chatLink)
}

/** Parses the filled-in address as the browser will (tabs, newlines and padding do not hide a scheme). */
export function checkTarget(url: string): TargetCheck {
  if (!url.trim()) return { ok: false, reason: 'missing' }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, reason: 'invalid' }
  }
  const scheme = parsed.protocol.toLowerCase()
  if (scheme === 'http:' || scheme === 'https:') return { ok: true, url, app: false }
  if (BLOCKED.has(scheme) || !/^[a-z][a-z0-9+.-]*:$/.test(scheme)) return { ok: false, reason: 'scheme' }
  return { ok: true, url, app: true }
}
