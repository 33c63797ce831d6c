/**
 * Joins a realtime client socket to its upstream socket. Client frames go up one at a time, in
 * order, each after the money it needs is held (realtime-responses.ts); upstream frames go down at
 * once and are accounted for as they pass. The two sides end together: when either closes (or
 * errs, or the session runs out of money or time), running responses are cancelled upstream, every
 * open hold is settled to what was streamed, and the session's slots are given back.
 */
import type { Context } from 'hono'
import type { ModelPrice } from '../../billing/formula'
import type { HonoEnv } from '../../env'
import { errorEvent, type RealtimeBilling } from './billing'
import { SessionMeter } from './realtime-meter'
import { DISCONNECT_NOTE, ENDED_NOTE, ResponseBook } from './realtime-responses'

/**
 * Sessions end before the wallet's hold expiry (an hour) could charge or free their holds and
 * slots; OpenAI itself ends realtime sessions at 30 to 60 minutes.
 */
const MAX_SESSION_MS = 55 * 60 * 1000

export interface BridgeMoney {
  billing: RealtimeBilling
  priceOf(model: string): ModelPrice | undefined
  /** Gives back the session's slots (its socket closed). */
  release(): Promise<unknown>
}

export function bridge(c: Context<HonoEnv>, upstream: WebSocket, money: BridgeMoney, echoRealtime: boolean): Response {
  const pair = new WebSocketPair()
  const [client, server] = [pair[0], pair[1]]
  server.accept()
  const log = c.var.log
  let open = true
  let clientFrames: Promise<unknown> = Promise.resolve()
  const background = (work: Promise<unknown>) => c.executionCtx.waitUntil(work.catch((err) => log.error('realtime billing failed', { error: err })))
  const book = new ResponseBook(new SessionMeter(), money.billing, {
    toClient: (data) => open && server.send(data),
    toUpstream: (data) => open && upstream.send(data),
    isOpen: () => open,
    fail: (code, message) => {
      if (!open) return
      server.send(errorEvent(code, message))
      end(1008, code === 'insufficient_quota' ? 'insufficient quota' : code, false)
    },
    background,
    priceOf: money.priceOf,
  })
  const timer = setTimeout(() => end(1000, 'session time limit', false), MAX_SESSION_MS)
  function end(code: number, reason: string, clientLeft: boolean) {
    if (!open) return
    book.cancelRunning()
    open = false
    clearTimeout(timer)
    for (const ws of [server, upstream]) {
      try {
        ws.close(code, reason)
      } catch {
        // already closed
      }
    }
    background(
      clientFrames
        .then(() => book.finish(clientLeft ? DISCONNECT_NOTE : ENDED_NOTE))
        .then(() => money.billing.close())
        .finally(money.release)
    )
  }
  server.addEventListener('message', (ev) => {
    if (!open) return
    const data = ev.data
    clientFrames = clientFrames
      .then(() => {
        if (!open) return
        if (typeof data === 'string') return book.fromClient(data)
        upstream.send(data)
      })
      .catch((err) => log.error('realtime client frame failed', { error: err }))
  })
  upstream.addEventListener('message', (ev) => {
    if (!open) return
    server.send(ev.data)
    if (typeof ev.data === 'string') book.fromUpstream(ev.data)
  })
  server.addEventListener('close', (ev) => end(ev.code === 1005 ? 1000 : ev.code, ev.reason, true))
  upstream.addEventListener('close', (ev) => end(ev.code === 1005 ? 1000 : ev.code, ev.reason, false))
  server.addEventListener('error', () => end(1011, 'client error', true))
  upstream.addEventListener('error', () => end(1011, 'upstream error', false))
  return new Response(null, { status: 101, webSocket: client, headers: echoRealtime ? { 'sec-websocket-protocol': 'realtime' } : {} })
}
