/** Test harness: runs a recorded gateway chat SSE body through adaptStream in byte chunks and decodes what the client would read. */
import { decodeSse } from './stream-harness'
import type { SseEvent } from '../../shared/contract/sse'
import { adaptStream } from '../relay/inbound/relay-hook'
import type { InboundStreamEncoder } from '../relay/inbound/types'

export async function encodeStream(encoder: InboundStreamEncoder, raw: string, every: number = Infinity): Promise<{ events: SseEvent[]; text: string }> {
  const bytes = new TextEncoder().encode(raw)
  const step = Number.isFinite(every) ? every : bytes.length || 1
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= bytes.length) return controller.close()
      controller.enqueue(bytes.slice(i, i + step))
      i += step
    },
  })
  const res = adaptStream(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), encoder)
  const text = await res.text()
  return { events: decodeSse(text), text }
}

/** The events' data parsed, with their names checked against the `type` field when present. */
export const payloads = (events: SseEvent[]) => events.map((e) => ({ event: e.event, data: JSON.parse(e.data) as Record<string, any> }))
