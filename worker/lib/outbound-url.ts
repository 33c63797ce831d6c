/**
 * Where administrators may point the gateway's own outbound requests (channel base URLs, the
 * supplier model list, the remote price list): http(s) only, no query or fragment, and never a
 * link-local address (cloud metadata lives there) or a private-network address, unless the
 * operator sets ALLOW_PRIVATE_UPSTREAMS=1 (a supplier on the LAN). Loopback stays allowed on the
 * self-hosted runtime — the README's offline trial points a channel at the local mock — and on
 * Cloudflare the platform refuses it anyway. Names are not resolved (Workers cannot), so a DNS name
 * that resolves to a private address is not caught here.
 */
import { config } from './env'
import { ApiError } from './errors'

const PRIVATE_V4: [number, number][] = [
  [0x0a000000, 8], // 10.0.0.0/8
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0a80000, 16], // 192.168.0.0/16
  [0x64400000, 10], // 100.64.0.0/10 (carrier-grade NAT)
]
const LINK_LOCAL_V4: [number, number] = [0xa9fe0000, 16] // 169.254.0.0/16
const BLOCKED_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data'])

function ipv4(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return undefined
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!
}

/** An IPv4-mapped IPv6 address (the URL parser writes ::ffff:10.0.0.1 as ::ffff:a00:1). */
function mappedV4(host: string): number | undefined {
  if (!host.startsWith('::ffff:')) return undefined
  const rest = host.slice(7)
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest)
  return hex ? parseInt(hex[1]!, 16) * 65536 + parseInt(hex[2]!, 16) : ipv4(rest)
}

const inRange = (ip: number, [base, bits]: [number, number]) => ip >>> (32 - bits) === base >>> (32 - bits)

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
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '')
  if (BLOCKED_NAMES.has(host)) return 'must not point at a cloud metadata service'
  const v4 = ipv4(host) ?? mappedV4(host)
  if (v4 !== undefined) {
    if (inRange(v4, LINK_LOCAL_V4)) return 'must not point at a link-local address'
    if (!allowPrivate && PRIVATE_V4.some((r) => inRange(v4, r))) return 'must not point at a private network address (the operator may allow it with ALLOW_PRIVATE_UPSTREAMS=1)'
    return undefined
  }
  if (host.includes(':')) {
    if (/^fe[89ab]/.test(host)) return 'must not point at a link-local address'
    if (!allowPrivate && /^f[cd]/.test(host)) return 'must not point at a private network address (the operator may allow it with ALLOW_PRIVATE_UPSTREAMS=1)'
  }
  return undefined
}

export const privateUpstreamsAllowed = (env: Env) => config(env).allowPrivateUpstreams

/** Refuse (400 on `field`) any line of `value` that is not an allowed outbound URL. */
export function assertOutboundUrls(env: Env, value: string, field: string) {
  for (const line of value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const problem = outboundUrlProblem(line, privateUpstreamsAllowed(env))
    if (problem) throw new ApiError(400, `${field}: ${problem}`, { data: { fields: { [field]: problem } } })
  }
}
