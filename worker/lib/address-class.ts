/**
 * What kind of address a URL's host names: an IP literal is classed as public, unspecified,
 * loopback, private, link-local or reserved, whatever notation it came in. The WHATWG URL parser
 * already writes every IPv4 form (`127.1`, `2130706433`, `0x7f000001`, `0177.0.0.1`, a trailing
 * dot) as a dotted quad and every IPv6 literal in its short hex form (`[::ffff:7f00:1]`); here IPv6
 * forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) take the class of
 * that address. DNS names are not resolved (Workers cannot); outbound-url.ts decides what a name
 * may be.
 */

export type AddressClass = 'public' | 'unspecified' | 'loopback' | 'private' | 'link-local' | 'reserved'

type V4Range = [base: number, bits: number, cls: AddressClass]

/** IPv4 blocks that are not public (RFC 6890), longest prefix first where they nest. */
const V4_RANGES: V4Range[] = [
  [0x00000000, 8, 'unspecified'], // 0.0.0.0/8 "this network" (0.0.0.0 reaches the host itself)
  [0x7f000000, 8, 'loopback'], // 127.0.0.0/8
  [0x0a000000, 8, 'private'], // 10.0.0.0/8
  [0xac100000, 12, 'private'], // 172.16.0.0/12
  [0xc0a80000, 16, 'private'], // 192.168.0.0/16
  [0x64400000, 10, 'private'], // 100.64.0.0/10 carrier-grade NAT
  [0xa9fe0000, 16, 'link-local'], // 169.254.0.0/16, cloud metadata lives here
  [0xc0000000, 24, 'reserved'], // 192.0.0.0/24 protocol assignments
  [0xc0000200, 24, 'reserved'], // 192.0.2.0/24 documentation
  [0xc0586300, 24, 'reserved'], // 192.88.99.0/24 6to4 relays
  [0xc6120000, 15, 'reserved'], // 198.18.0.0/15 benchmarking (also proxies' fake-IP DNS)
  [0xc6336400, 24, 'reserved'], // 198.51.100.0/24 documentation
  [0xcb007100, 24, 'reserved'], // 203.0.113.0/24 documentation
  [0xe0000000, 4, 'reserved'], // 224.0.0.0/4 multicast
  [0xf0000000, 4, 'reserved'], // 240.0.0.0/4 reserved, with 255.255.255.255
]

const inV4 = (ip: number, base: number, bits: number) => ip >>> (32 - bits) === base >>> (32 - bits)

function v4Class(ip: number): AddressClass {
  return V4_RANGES.find(([base, bits]) => inV4(ip, base, bits))?.[2] ?? 'public'
}

/** A dotted quad as a number (the URL parser's form of every IPv4 notation), else undefined. */
function parseV4(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)
  if (!m) return undefined
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return undefined
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!
}

/** The eight 16-bit words of an IPv6 literal in the URL parser's form (lower-case hex, no brackets). */
function parseV6(host: string): number[] | undefined {
  const halves = host.split('::')
  if (halves.length > 2) return undefined
  const words = (s: string) => (s ? s.split(':') : []).map((w) => (/^[0-9a-f]{1,4}$/.test(w) ? parseInt(w, 16) : Number.NaN))
  const head = words(halves[0]!)
  const tail = halves.length === 2 ? words(halves[1]!) : []
  const given = head.length + tail.length
  if ([...head, ...tail].some(Number.isNaN) || (halves.length === 1 ? given !== 8 : given > 7)) return undefined
  return [...head, ...new Array<number>(8 - given).fill(0), ...tail]
}

const v4Of = (hi: number, lo: number) => hi * 65536 + lo

function v6Class(w: number[]): AddressClass {
  const zeroUpTo = (n: number) => w.slice(0, n).every((x) => x === 0)
  if (zeroUpTo(8)) return 'unspecified'
  if (zeroUpTo(7) && w[7] === 1) return 'loopback'
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64).
  if (
    (zeroUpTo(5) && (w[5] === 0xffff || w[5] === 0)) ||
    (zeroUpTo(4) && w[4] === 0xffff && w[5] === 0) ||
    (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0))
  ) {
    return v4Class(v4Of(w[6]!, w[7]!))
  }
  if (w[0] === 0x2002) return v4Class(v4Of(w[1]!, w[2]!)) // 6to4 carries its IPv4 address in words 1-2
  if ((w[0]! & 0xffc0) === 0xfe80) return 'link-local' // fe80::/10
  if ((w[0]! & 0xfe00) === 0xfc00 || (w[0]! & 0xffc0) === 0xfec0) return 'private' // fc00::/7 unique local, fec0::/10 old site-local
  if ((w[0]! & 0xe000) !== 0x2000) return 'reserved' // outside 2000::/3 global unicast (multicast, discard, unassigned)
  if (w[0] === 0x2001 && (w[1] === 0x0db8 || w[1] === 0)) return 'reserved' // documentation, Teredo
  return 'public'
}

/** The host of `url` as a connection would use it: lower-case, without IPv6 brackets or trailing dots. */
export const bareHost = (url: URL) =>
  url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')

/** The class of an IP-literal host (from bareHost), or undefined when the host is a DNS name. */
export function addressClass(host: string): AddressClass | undefined {
  const v4 = parseV4(host)
  if (v4 !== undefined) return v4Class(v4)
  if (!host.includes(':')) return undefined
  const v6 = parseV6(host)
  // Not a form the URL parser writes: never treated as public.
  return v6 ? v6Class(v6) : 'reserved'
}
