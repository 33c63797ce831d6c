/**
 * What the Worker does itself when it is the whole server (`npm start` exposes it on a direct
 * workerd socket, with no router in front): which paths are the gateway's (the same list as
 * wrangler.toml's `run_worker_first`; every other path goes to the ASSETS binding, exactly what
 * Cloudflare's asset routing does before the Worker runs), and the client address on that socket.
 *
 * On the direct socket workerd passes the client's headers through untouched and knows no peer
 * address, so a `CF-Connecting-IP` a client sends is a lie the Worker must not believe. scripts/serve.mjs
 * sets SELF_HOSTED_CLIENT_IP to what the peer is known to be: `127.0.0.1` when it listens on
 * loopback only, `unknown` on a public interface (then only a trusted proxy header named in
 * CLIENT_IP_HEADER identifies a client). On Cloudflare the variable is unset and nothing changes.
 *
 * Graceful stop: before scripts/serve.mjs stops workerd it posts to DRAIN_PATH with the secret it
 * set in SELF_HOSTED_DRAIN_TOKEN; from then on the Worker refuses new requests (503, in each API's
 * envelope), so the requests in flight finish and their background work — the credit-lease reports
 * that charge them — reaches the wallets before the process ends. Without the variable (Cloudflare)
 * the path is an ordinary asset path.
 */
import { safeEqual } from './crypto'

/** Path prefixes the Worker serves; keep in step with `run_worker_first` in wrangler.toml. */
export const WORKER_PATH_PREFIXES = ['/api', '/v1', '/v1beta', '/dashboard', '/mj', '/mj-fast', '/mj-turbo', '/mj-relax', '/suno', '/kling', '/metrics', '/mcp'] as const

/** Whether `pathname` is one of the gateway's own paths (a prefix itself or anything below it). */
export function isWorkerPath(pathname: string): boolean {
  for (const prefix of WORKER_PATH_PREFIXES) {
    if (pathname.startsWith(prefix) && (pathname.length === prefix.length || pathname.charCodeAt(prefix.length) === 47)) return true
  }
  return false
}

/** The path of a request URL without building a URL object (scheme://host/path?query). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const end = url.indexOf('?', start)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

/**
 * The request with `CF-Connecting-IP` replaced by what the self-hosted socket knows about the peer
 * (`peer`): removed for loopback (no header means this machine), set to `peer` otherwise. Copies the
 * request only when the client's header differs.
 */
export function withKnownPeer(request: Request, peer: string): Request {
  const sent = request.headers.get('cf-connecting-ip')
  const loopback = peer === '127.0.0.1'
  if (loopback ? sent === null : sent === peer) return request
  const copy = new Request(request)
  if (loopback) copy.headers.delete('cf-connecting-ip')
  else copy.headers.set('cf-connecting-ip', peer)
  return copy
}

/** Where `npm start` asks the Worker to stop taking requests (only with SELF_HOSTED_DRAIN_TOKEN set). */
export const DRAIN_PATH = '/__serve/drain'

let draining = false

/** Whether the server is stopping: new requests are refused so the ones in flight can finish. */
export const isDraining = () => draining

/** The graceful-stop request: starts draining when it carries the token, else 404 like any unknown path. */
export function drain(request: Request, token: string): Response {
  if (request.method !== 'POST' || !safeEqual(request.headers.get('x-serve-drain') ?? '', token)) return new Response('Not found', { status: 404 })
  draining = true
  return new Response(null, { status: 204 })
}
