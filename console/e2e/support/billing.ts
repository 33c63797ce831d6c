/**
 * Helpers of the billing browser tests (pricing, model prices, top-up): an API session on a
 * private gateway, and a local HTTP server that serves price lists (with CORS, as raw.githubusercontent.com does).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiSession } from '../../../worker/e2e/support/api'
import type { Account } from './fresh-server'

/** A signed-in API session (cookie jar + XSRF) on the given gateway. */
export async function apiSession(baseUrl: string, account: Account): Promise<ApiSession> {
  const session = new ApiSession(baseUrl)
  await session.login(account.username, account.password)
  return session
}

export interface FileServer {
  url: string
  /** Paths requested so far, in order. */
  requests: string[]
  stop(): Promise<void>
}

/** Serves fixed bodies by path (JSON-encoded unless a string), with `Access-Control-Allow-Origin: *`. */
export async function serveFiles(files: Record<string, unknown>): Promise<FileServer> {
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push(path)
    res.setHeader('Access-Control-Allow-Origin', '*')
    if (!(path in files)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    const body = files[path]
    res.writeHead(200, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
