/** IP whitelist matching: exact IPv4/IPv6 addresses or CIDR ranges (e.g. 10.0.0.0/8, 2001:db8::/32). */

function ipv4ToBigInt(ip: string): bigint | undefined {
  const parts = ip.split('.')
  if (parts.length !== 4) return undefined
  let n = 0n
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined
    n = (n << 8n) | BigInt(Number(p))
  }
  return n
}

function ipv6ToBigInt(ip: string): bigint | undefined {
  let addr = ip
  const v4 = addr.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (v4) {
    const n = ipv4ToBigInt(v4[1]!)
    if (n === undefined) return undefined
    addr = addr.slice(0, -v4[1]!.length) + ((n >> 16n) & 0xffffn).toString(16) + ':' + (n & 0xffffn).toString(16)
  }
  const halves = addr.split('::')
  if (halves.length > 2) return undefined
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? head.length !== 8 : missing < 0) return undefined
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail]
  let n = 0n
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined
    n = (n << 16n) | BigInt(parseInt(g, 16))
  }
  return n
}

function parse(ip: string): { value: bigint; bits: number } | undefined {
  const v4 = ipv4ToBigInt(ip)
  if (v4 !== undefined) return { value: v4, bits: 32 }
  const v6 = ipv6ToBigInt(ip)
  return v6 === undefined ? undefined : { value: v6, bits: 128 }
}

/**
 * The rate-limit bucket of an address: IPv4 as is, IPv6 by its /64 (one subscriber usually holds a
 * whole /64, so per-address limits would be no limit at all). Unparseable input is returned as is.
 */
export function ipBucket(ip: string): string {
  const v4 = ipv4ToBigInt(ip)
  if (v4 !== undefined) return ip
  const v6 = ipv6ToBigInt(ip)
  if (v6 === undefined) return ip
  // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address.
  if (v6 >> 32n === 0xffffn) return [24n, 16n, 8n, 0n].map((s) => String((v6 >> s) & 0xffn)).join('.')
  const prefix = v6 >> 64n
  return `${[48n, 32n, 16n, 0n].map((s) => ((prefix >> s) & 0xffffn).toString(16)).join(':')}::/64`
}

/**
 * The client network of an address, for limits that must not let one network lock out another:
 * IPv4 by its /24, IPv6 by its /64 (an IPv4-mapped address counts as IPv4). Unparseable input is
 * returned as is.
 */
export function ipNetwork(ip: string): string {
  const bucket = ipBucket(ip)
  const v4 = ipv4ToBigInt(bucket)
  if (v4 === undefined) return bucket
  return `${bucket.split('.').slice(0, 3).join('.')}.0/24`
}

/** Whether `text` is a single IPv4 or IPv6 address. */
export const isIp = (text: string) => parse(text) !== undefined

/** Whether `entry` is a valid IP or CIDR. */
export function isValidIpOrCidr(entry: string): boolean {
  const [ip, prefix] = entry.trim().split('/')
  const parsed = parse(ip ?? '')
  if (!parsed) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= parsed.bits
}

export function ipAllowed(ip: string, whitelist: string[]): boolean {
  const addr = parse(ip)
  if (!addr) return false
  for (const entry of whitelist) {
    const [net, prefixText] = entry.trim().split('/')
    const range = parse(net ?? '')
    if (!range || range.bits !== addr.bits) continue
    const prefix = prefixText === undefined ? range.bits : Number(prefixText)
    const shift = BigInt(range.bits - prefix)
    if (addr.value >> shift === range.value >> shift) return true
  }
  return false
}
