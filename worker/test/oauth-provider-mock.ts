/**
 * Worker-test mock of outbound identity-provider HTTP (GitHub, Lark, OIDC, WeChat server,
 * Turnstile): every fetch whose URL starts with one of the given prefixes is answered by its
 * handler and recorded; anything else (e.g. the local SMTP mailbox) goes out for real.
 */
import { vi } from 'vitest'

export interface RecordedCall {
  url: string
  method: string
  headers: Headers
  body: string
}

export type MockHandler = (req: Request, body: string) => Response | Promise<Response>

export const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export function mockProviders(routes: Record<string, MockHandler>) {
  const calls: RecordedCall[] = []
  const real = globalThis.fetch
  const prefixes = Object.keys(routes).sort((a, b) => b.length - a.length)
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    const prefix = prefixes.find((p) => req.url.startsWith(p))
    if (!prefix) return real(input, init)
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : new TextDecoder().decode(await req.clone().arrayBuffer())
    calls.push({ url: req.url, method: req.method, headers: req.headers, body })
    return routes[prefix]!(req, body)
  })
  return {
    calls,
    to: (prefix: string) => calls.filter((c) => c.url.startsWith(prefix)),
    restore: () => spy.mockRestore(),
  }
}
