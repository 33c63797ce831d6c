/**
 * A connection to a supplier through a channel's proxy, on TCP sockets (`connect()` of
 * `cloudflare:sockets`, or a workerd network binding's `connect` under `npm start`):
 * - HTTP proxy: `CONNECT host:port` (Basic Proxy-Authorization when the URL carries credentials);
 *   any answer but 2xx is a ProxyError ("proxy refused CONNECT: 407 …"). A plain-http supplier is
 *   not tunnelled: the request goes to the proxy in absolute form (http1.ts).
 * - SOCKS5 (RFC 1928, user/password per RFC 1929): CONNECT with the host as a domain name (an IPv4
 *   literal as an address), so the proxy resolves names; `socks5h://` means the same.
 * - Then, for an https supplier, `startTls({ expectedServerHostname })`: TLS runs end to end with the
 *   supplier and its certificate must name the supplier's host, so the proxy sees only ciphertext.
 * An `https://` proxy is reached over TLS; through it only plain-http suppliers work, because a
 * socket cannot start TLS inside TLS.
 */
import { ByteReader } from './byte-reader'
import { readHead } from './http1'

/** A failure of the proxy itself (as opposed to the supplier behind it). */
export class ProxyError extends Error {}

export type Connect = (address: SocketAddress, options: SocketOptions) => Socket

interface ProxyConfig {
  scheme: 'http' | 'https' | 'socks5'
  host: string
  port: number
  username?: string
  password?: string
}

interface Target {
  host: string
  port: number
  tls: boolean
}

/** An open connection to write the request on and read the answer from. */
interface Conn {
  socket: Socket
  reader: ByteReader
  writer: WritableStreamDefaultWriter<Uint8Array>
  /** The request goes in absolute form with these headers (plain-http supplier via an HTTP proxy). */
  absolute?: Record<string, string>
}

/** The proxy URL (already validated when saved) as connection settings. */
export function parseProxy(raw: string): ProxyConfig {
  const url = new URL(raw)
  const scheme = url.protocol === 'socks5:' || url.protocol === 'socks5h:' ? 'socks5' : url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : undefined
  if (!scheme) throw new ProxyError(`unsupported proxy scheme ${url.protocol}`)
  const port = Number(url.port) || (scheme === 'socks5' ? 1080 : scheme === 'https' ? 443 : 80)
  const cfg: ProxyConfig = { scheme, host: url.hostname.replace(/^\[|\]$/g, ''), port }
  if (url.username) cfg.username = decodeURIComponent(url.username)
  if (url.password) cfg.password = decodeURIComponent(url.password)
  return cfg
}

const basic = (user: string, pass: string) => `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${user}:${pass}`)))}`

/** Opens the connection to `target` through `proxy`; `onSocket` sees each socket as it opens (to close it on abort). */
export async function openThroughProxy(proxy: ProxyConfig, target: Target, connect: Connect, onSocket: (s: Socket) => void): Promise<Conn> {
  const auth = proxy.username !== undefined ? basic(proxy.username, proxy.password ?? '') : undefined
  if (proxy.scheme !== 'socks5' && !target.tls) {
    const socket = connect({ hostname: proxy.host, port: proxy.port }, { secureTransport: proxy.scheme === 'https' ? 'on' : 'off', allowHalfOpen: false })
    onSocket(socket)
    return { ...streams(socket), absolute: auth ? { 'proxy-authorization': auth } : {} }
  }
  if (proxy.scheme === 'https')
    throw new ProxyError('an https:// proxy carries only http:// suppliers here (no TLS inside TLS on Workers sockets); use an http:// or socks5:// proxy')
  const socket = connect({ hostname: proxy.host, port: proxy.port }, { secureTransport: target.tls ? 'starttls' : 'off', allowHalfOpen: false })
  onSocket(socket)
  const conn = streams(socket)
  try {
    if (proxy.scheme === 'socks5') await socksConnect(conn, proxy, target)
    else await httpConnect(conn, target, auth)
  } catch (err) {
    socket.close().catch(() => undefined)
    if (err instanceof ProxyError) throw err
    throw new ProxyError(`proxy ${proxy.host}:${proxy.port} failed: ${(err as Error).message}`)
  }
  if (!target.tls) return conn
  conn.reader.release('proxy')
  conn.writer.releaseLock()
  const secure = socket.startTls({ expectedServerHostname: target.host })
  onSocket(secure)
  return streams(secure)
}

function streams(socket: Socket): Conn {
  return { socket, reader: new ByteReader(socket.readable.getReader()), writer: socket.writable.getWriter() }
}

const authority = (t: Target) => `${t.host.includes(':') ? `[${t.host}]` : t.host}:${t.port}`

async function httpConnect(conn: Conn, target: Target, auth: string | undefined) {
  const lines = [`CONNECT ${authority(target)} HTTP/1.1`, `host: ${authority(target)}`, ...(auth ? [`proxy-authorization: ${auth}`] : [])]
  await conn.writer.write(new TextEncoder().encode(`${lines.join('\r\n')}\r\n\r\n`))
  const head = await readHead(conn.reader, 'proxy')
  if (head.status < 200 || head.status > 299) throw new ProxyError(`proxy refused CONNECT: ${head.status}${head.statusText ? ` ${head.statusText}` : ''}`)
}

const SOCKS_REPLIES: Record<number, string> = {
  1: 'general failure',
  2: 'connection not allowed by ruleset',
  3: 'network unreachable',
  4: 'host unreachable',
  5: 'connection refused',
  6: 'TTL expired',
  7: 'command not supported',
  8: 'address type not supported',
}

async function socksConnect(conn: Conn, proxy: ProxyConfig, target: Target) {
  const { reader, writer } = conn
  const withAuth = proxy.username !== undefined
  await writer.write(new Uint8Array(withAuth ? [5, 2, 0, 2] : [5, 1, 0]))
  const [version, method] = await reader.exact(2, 'SOCKS5 greeting')
  if (version !== 5) throw new ProxyError('proxy is not a SOCKS5 server')
  if (method === 0xff) throw new ProxyError(`SOCKS5 proxy accepts none of our authentication methods${withAuth ? '' : ' (it may need a user name and password)'}`)
  if (method === 2) {
    if (!withAuth) throw new ProxyError('SOCKS5 proxy asks for a user name and password')
    const user = new TextEncoder().encode(proxy.username)
    const pass = new TextEncoder().encode(proxy.password ?? '')
    if (user.length > 255 || pass.length > 255) throw new ProxyError('SOCKS5 user name and password must be at most 255 bytes each')
    await writer.write(new Uint8Array([1, user.length, ...user, pass.length, ...pass]))
    const [, status] = await reader.exact(2, 'SOCKS5 authentication')
    if (status !== 0) throw new ProxyError('SOCKS5 proxy refused the user name or password')
  } else if (method !== 0) throw new ProxyError(`SOCKS5 proxy chose an unsupported authentication method ${method}`)
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(target.host)
  const name = new TextEncoder().encode(target.host)
  if (!v4 && name.length > 255) throw new ProxyError('supplier host name too long for SOCKS5')
  const address = v4 ? [1, ...v4.slice(1).map(Number)] : [3, name.length, ...name]
  await writer.write(new Uint8Array([5, 1, 0, ...address, target.port >> 8, target.port & 0xff]))
  const [, reply, , atyp] = await reader.exact(4, 'SOCKS5 connect')
  if (reply !== 0) throw new ProxyError(`SOCKS5 proxy refused the connection to ${authority(target)}: ${SOCKS_REPLIES[reply!] ?? `reply ${reply}`}`)
  const addrLength = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? (await reader.exact(1, 'SOCKS5 connect'))[0]! : -1
  if (addrLength < 0) throw new ProxyError(`SOCKS5 proxy answered an unknown address type ${atyp}`)
  await reader.exact(addrLength + 2, 'SOCKS5 connect')
}
