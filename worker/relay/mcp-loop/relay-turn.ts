/**
 * One model turn of the MCP tool loop through the normal relay pipeline (relay-request.ts): the
 * turn's chat body is handed to relayRequest, which routes, holds, calls, retries and settles it
 * exactly as a client's chat request — one hold, one settle, one log row per turn. Each
 * turn after the first runs under its own request id (`<id>-t<n>`): the id keys the turn's hold
 * and settle in the wallet, so turns never collide; the request's own id is restored afterwards.
 * With `onText` the turn is streamed (with its usage chunk): each text delta is handed on as it
 * arrives and the stream is read to its end (so the turn settles) before the answer returns.
 */
import type { Context } from 'hono'
import type { HonoEnv } from '../../env'
import { relayRequest } from '../relay-request'
import { readChatStream } from './chat-stream-answer'

export async function relayTurn(
  c: Context<HonoEnv>,
  body: Record<string, unknown>,
  turn: number,
  onText?: (delta: string) => void
): Promise<{ answer: Record<string, any>; headers: Headers }> {
  const requestId = c.get('requestId')
  if (turn > 0) c.set('requestId', `${requestId}-t${turn}`)
  const { stream: _stream, stream_options: _options, ...chat } = body
  try {
    const res = await relayRequest(c, 'chat', { body: onText ? { ...chat, stream: true, stream_options: { include_usage: true } } : chat })
    const answer = onText ? await readChatStream(res.body, onText) : ((await res.json()) as Record<string, any>)
    return { answer, headers: res.headers }
  } finally {
    c.set('requestId', requestId)
  }
}
