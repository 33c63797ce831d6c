/**
 * A fetch that goes through a channel's proxy (tunnel.ts) and speaks HTTP/1.1 on the socket
 * (http1.ts): the network a channel's supplier calls use when its `proxy` field is set. One
 * connection per request; the signal closes the socket, before or after the answer's headers.
 */
import { encodeRequest, readResponse } from './http1'
import { type Connect, openThroughProxy, parseProxy, ProxyError } from './tunnel'

/** What callers of supplier calls need of a network: a fetch. */
export type Network = Pick<Fetcher, 'fetch'>

export function proxyNetwork(proxyUrl: string, connect: Connect): Network {
  const proxy = parseProxy(proxyUrl)
  return {
    async fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new Request(input, init)
      const signal = init?.signal ?? request.signal
      const url = new URL(request.url)
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProxyError(`cannot send ${url.protocol} through a proxy`)
      const tls = url.protocol === 'https:'
      const sockets: Socket[] = []
      const closeAll = () => {
        for (const s of sockets) s.close().catch(() => undefined)
      }
      signal?.throwIfAborted()
      signal?.addEventListener('abort', closeAll, { once: true })
      const done = () => {
        signal?.removeEventListener('abort', closeAll)
        closeAll()
      }
      try {
        const aborted = new Promise<never>((_, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true })
        })
        aborted.catch(() => undefined)
        const target = { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || (tls ? 443 : 80), tls }
        return await Promise.race([
          (async () => {
            const conn = await openThroughProxy(proxy, target, connect, (s) => sockets.push(s))
            await conn.writer.write(await encodeRequest(request, conn.absolute ? { absolute: true, extra: conn.absolute } : {}))
            conn.writer.releaseLock()
            return readResponse(conn.reader, request.method, done)
          })(),
          aborted,
        ])
      } catch (err) {
        done()
        throw err
      }
    },
  }
}
