/**
 * Where the gateway's own outbound requests may point. Administrators' URLs (channel base URLs, the
 * supplier model list, the remote price list, outboundUrlProblem): http(s) only, no query or
 * fragment, and never a link-local address (cloud metadata lives there) or an unspecified one
 * (0.0.0.0, ::); a private-network address only when the operator sets ALLOW_PRIVATE_UPSTREAMS=1
 * (a supplier on the LAN). Loopback stays allowed on the self-hosted runtime — the README's offline
 * trial points a channel at the local mock — and on Cloudflare the platform refuses it anyway.
 * Users' URLs (task hooks, userUrlProblem) get a stricter guard. Every IP notation counts the same
 * (address-class.ts). Names are not resolved (Workers cannot), so a DNS name that resolves to a
 * private address is not caught here.
 */
import { addressClass, bareHost } from './address-class'
import { config } from './env'
import { ApiError } from './errors'

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data'])
const PRIVATE_PROBLEM = 'must not point at a private network address (the operator may allow it with ALLOW_PRIVATE_UPSTREAMS=1)'

/** What is wrong with `raw` as an outbound URL (undefined when it is fine). */
export function outboundUrlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be a valid URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL'
  if (url.search || url.hash) return 'must not carry a query or fragment'
  if (url.username || url.password) return 'must not carry credentials'
  return hostProblem(url, allowPrivate)
}

/** The host rules of administrators' URLs: no metadata, unspecified or link-local host; private only when allowed. */
function hostProblem(url: URL, allowPrivate: boolean): string | undefined {
  const host = bareHost(url)
  if (METADATA_NAMES.has(host)) return 'must not point at a cloud metadata service'
  const cls = addressClass(host)
  if (cls === 'unspecified') return 'must not point at an unspecified address (0.0.0.0, ::)'
  if (cls === 'link-local') return 'must not point at a link-local address'
  if (cls === 'private' && !allowPrivate) return PRIVATE_PROBLEM
  return undefined
}

/**
 * What is wrong with `raw` as a channel's proxy (undefined when it is fine): http, https or
 * socks5(h) with a host and port, credentials allowed, and the same host rules as base URLs — the
 * proxy is where the gateway's connection goes.
 */
export function proxyUrlProblem(raw: string, allowPrivate: boolean): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be a valid URL'
  }
  if (!['http:', 'https:', 'socks5:', 'socks5h:'].includes(url.protocol)) return 'must be an http, https or socks5 URL'
  if (!url.hostname) return 'must name a host'
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) return 'must be only scheme, host and port'
  return hostProblem(url, allowPrivate)
}

/** Names that only ever reach this machine, the local network or a cloud's internal services. */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa']

/**
 * What is wrong with `raw` as a URL a user (not an administrator) asks the gateway to call, such as
 * a task hook (undefined when it is fine). Stricter than outboundUrlProblem whatever
 * ALLOW_PRIVATE_UPSTREAMS says: https only, a public IP or a full public DNS name — never loopback,
 * unspecified, private, carrier-grade NAT, link-local or reserved addresses in any notation, nor
 * `localhost`, single-label or local-only names. A query string is allowed (hooks carry one).
 * A name that resolves to a private address is left to the network: on the self-hosted runtime
 * these calls leave through a binding that only reaches public addresses (client-hook.ts).
 * `http: true` also takes plain http (image URLs in prompts, relay/prompt-images.ts: read, never sent to).
 */
export function userUrlProblem(raw: string, opts: { http?: boolean } = {}): string | undefined {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be a valid URL'
  }
  if (url.protocol !== 'https:' && !(opts.http && url.protocol === 'http:')) return opts.http ? 'must be an http(s) URL' : 'must be an https URL'
  if (url.username || url.password) return 'must not carry credentials'
  const host = bareHost(url)
  if (!host) return 'must name a host'
  const cls = addressClass(host)
  if (cls !== undefined) return cls === 'public' ? undefined : `must not point at a ${cls === 'reserved' ? 'reserved or non-public' : cls} address`
  if (METADATA_NAMES.has(host)) return 'must not point at a cloud metadata service'
  if (host === 'localhost' || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return 'must not point at a local name'
  if (!host.includes('.')) return 'must use a full domain name'
  return undefined
}

export const privateUpstreamsAllowed = (env: Env) => config(env).allowPrivateUpstreams

/** Refuse (400 on `field`) any line of `value` that is not an allowed outbound URL (`check`: which kind). */
export function assertOutboundUrls(env: Env, value: string, field: string, check = outboundUrlProblem) {
  for (const line of value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const problem = check(line, privateUpstreamsAllowed(env))
    if (problem) throw new ApiError(400, `${field}: ${problem}`, { data: { fields: { [field]: problem } } })
  }
}
