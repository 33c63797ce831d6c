/**
 * Plumbing between an inbound codec and the relay (relay-request.ts turns the client's body, parsed
 * once, into the codec's internal OpenAI body — chat, or embeddings for Gemini embedContent — which
 * relay-input.ts validates as it is: no request rewrite, no second parse): the relay's answer, JSON
 * or the chat SSE stream, priced and settled exactly as for an OpenAI client, is turned back into
 * the client's format. Errors render in the format's envelope.
 */
import type { ErrorHandler } from 'hono'
import { errorHandler } from '../../lib/error-handler'
import type { HonoEnv } from '../../env'
import { SseDecoder, type SseEvent } from '../../../shared/contract/sse'
import type { InboundCodec, InboundStreamEncoder } from './types'
import { inClientFormat } from '../stream-relay'

/**
 * The relay's chat answer (JSON or SSE) in the client's format; headers such as server-timing are
 * kept. A stream a native channel's pass-through produced is already in it and goes out as it is.
 */
export async function adaptAnswer(codec: InboundCodec, res: Response): Promise<Response> {
  const type = res.headers.get('content-type') ?? ''
  if (type.includes('text/event-stream')) return inClientFormat(res) ? res : adaptStream(res, codec.createStreamEncoder())
  if (!type.includes('json')) return res
  const headers = new Headers(res.headers)
  headers.delete('content-length')
  return Response.json(codec.fromOpenAI((await res.json()) as Record<string, any>), { status: res.status, headers })
}

/**
 * Re-encodes the relay's chat SSE body event by event, at the client's pace; cancelling the result
 * cancels the relay's stream (which then settles what was generated).
 */
export function adaptStream(res: Response, encoder: InboundStreamEncoder): Response {
  const decoder = new SseDecoder()
  const bytes = new TextEncoder()
  let ended = false
  const handle = (events: SseEvent[], out: TransformStreamDefaultController<Uint8Array>) => {
    for (const ev of events) {
      if (ended) return
      let frames: string[] = []
      if (ev.data === '[DONE]') {
        ended = true
        frames = encoder.end()
      } else {
        let chunk: unknown
        try {
          chunk = JSON.parse(ev.data)
        } catch {
          continue
        }
        if (chunk && typeof chunk === 'object' && !Array.isArray(chunk)) frames = encoder.onChunk(chunk as Record<string, unknown>)
      }
      for (const f of frames) out.enqueue(bytes.encode(f))
    }
  }
  const body = res.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, out) => handle(decoder.push(chunk), out),
      flush(out) {
        handle(decoder.end(), out)
        if (!ended) for (const f of encoder.end()) out.enqueue(bytes.encode(f))
        ended = true
      },
    })
  )
  return new Response(body, { status: res.status, headers: res.headers })
}

/** Hono error handler for a codec's routes: every failure in the format's own envelope. */
export function inboundErrorHandler(codec: Pick<InboundCodec, 'errorResponse'>): ErrorHandler<HonoEnv> {
  return errorHandler((apiError, c) => codec.errorResponse(apiError, c.get('requestId')))
}
