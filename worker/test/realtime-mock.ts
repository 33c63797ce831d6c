/**
 * Worker-test kit for GET /v1/realtime: a mock realtime supplier (a WebSocket pair behind the
 * fetch-level upstream mock, recording every frame the gateway sends it and answering through a
 * test's own script), and a client that opens a session through the Worker and waits for events.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { mockUpstream } from './upstream-mock'

export interface RealtimeSaw {
  url: string
  auth: string | null
  beta: string | null
  /** Frames the gateway sent up, in order, across every session. */
  frames: string[]
}

/** What a script may do with one upstream session. */
export interface UpstreamSession {
  send(event: unknown): void
  /** Client events this session received so far. */
  received: any[]
}

/** Mock realtime supplier: `script` sees each client event of each session. */
export function mockRealtime(model: string, script: (event: any, session: UpstreamSession) => void) {
  const saw: RealtimeSaw = { url: '', auth: null, beta: null, frames: [] }
  const upstream = mockUpstream((req) => {
    if (!new URL(req.url).pathname.endsWith('/v1/realtime')) return undefined
    saw.url = req.url
    saw.auth = req.headers.get('authorization')
    saw.beta = req.headers.get('openai-beta')
    const pair = new WebSocketPair()
    const [theirs, ours] = [pair[0], pair[1]]
    ours.accept()
    const session: UpstreamSession = {
      send: (event) => {
        try {
          ours.send(JSON.stringify(event))
        } catch {
          // the gateway closed this session
        }
      },
      received: [],
    }
    session.send({ type: 'session.created', session: { id: 'sess_1', model } })
    ours.addEventListener('message', (ev) => {
      saw.frames.push(String(ev.data))
      const event = JSON.parse(String(ev.data))
      session.received.push(event)
      script(event, session)
    })
    return new Response(null, { status: 101, webSocket: theirs })
  })
  return { saw, restore: () => upstream.restore() }
}

/** Opens a realtime session through the Worker; `next(type)` waits for the next event of a type. */
export async function openRealtime(headers: Record<string, string>, query: string) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request(`http://gateway.test/v1/realtime${query}`, { headers: { upgrade: 'websocket', ...headers } }), env, ctx)
  const ws = res.webSocket
  const events: any[] = []
  const waiters: { type: string; resolve: (e: any) => void }[] = []
  let closed: (code: number) => void
  const closedP = new Promise<number>((r) => (closed = r))
  if (ws) {
    ws.accept()
    ws.addEventListener('message', (ev) => {
      const e = JSON.parse(String(ev.data))
      events.push(e)
      for (const w of waiters.splice(0)) {
        if (w.type === e.type) w.resolve(e)
        else waiters.push(w)
      }
    })
    ws.addEventListener('close', (ev) => closed(ev.code))
  }
  const next = (type: string) => {
    const seen = events.find((e) => e.type === type && !e.__taken)
    if (seen) return Promise.resolve(Object.assign(seen, { __taken: true }))
    return new Promise<any>((resolve) => waiters.push({ type, resolve: (e) => resolve(Object.assign(e, { __taken: true })) }))
  }
  /** Closes the session and waits until the gateway has settled and released it. */
  const close = async () => {
    ws?.close(1000)
    await Promise.race([closedP, new Promise((r) => setTimeout(r, 2000))])
    await waitOnExecutionContext(ctx)
  }
  return { res, ws, ctx, events, next, closed: closedP, close }
}
