/**
 * The stream of an inbound client (Anthropic Messages, Responses, Gemini) whose channel answers in
 * chat chunks (an OpenAI channel, or any adapter's transformer): each upstream event is decoded
 * once, rewritten by the transformer (and the output filter), parsed once and handed to the
 * codec's encoder, so the client's frames are written straight from the supplier's events. Before,
 * the relay wrote a chat SSE stream that relay-hook.ts decoded and parsed again on its way out; that
 * adapter remains only for answers the relay did not stream from a supplier (a cached answer).
 * The chat trailer's usage chunk and a cut stream's `{error}` payload reach the encoder as they
 * reached it through the chat stream, so the client's closing frames are unchanged.
 */
import type { StreamTransformer, UpstreamError } from '../providers/types'
import type { SseEvent } from '../../shared/contract/sse'
import { SseDecoder } from '../../shared/contract/sse'
import type { Forward, StreamSource } from './stream-bytes'
import type { InboundStreamEncoder } from './inbound/types'
import { chatFailurePayload } from './stream-pass'
import type { StreamOutputFilter } from './policies/output-filter'

export function encodedSource(transformer: StreamTransformer, encoder: InboundStreamEncoder, includeUsage: boolean, filter?: StreamOutputFilter): StreamSource {
  const decoder = new SseDecoder()
  const utf8 = new TextEncoder()
  /** The client's frames for chat chunk payloads (a payload that is not a JSON object is dropped, as before). */
  const frames = (payloads: string[], out: string[] = []): string[] => {
    for (const p of payloads) {
      let chunk: unknown
      try {
        chunk = JSON.parse(p)
      } catch {
        continue
      }
      if (chunk && typeof chunk === 'object' && !Array.isArray(chunk)) out.push(...encoder.onChunk(chunk as Record<string, unknown>))
    }
    return out
  }
  const bytes = (out: string[]) => (out.length ? utf8.encode(out.join('')) : undefined)
  const forward = (events: SseEvent[], last = false): Forward => {
    const produced: string[] = []
    for (const ev of events) produced.push(...transformer.onEvent(ev))
    const sent = filter ? produced.map((p) => filter.chunk(p)) : produced
    if (last && filter) sent.push(...filter.end())
    // Priming waits for the supplier's first payload, whether or not the encoder wrote a frame for it yet.
    return { bytes: bytes(frames(sent)), payload: sent.length > 0 }
  }
  return {
    push: (chunk) => forward(decoder.push(chunk)),
    end: () => forward(decoder.end(), true),
    usage: () => transformer.usage(),
    error: () => transformer.error?.(),
    text: () => transformer.text(),
    trailer: (usage) => bytes([...frames(includeUsage ? [transformer.usageChunk(usage)] : []), ...encoder.end()]) ?? new Uint8Array(),
    failure: (error: UpstreamError, message: string) => bytes([...frames([chatFailurePayload(error, message)]), ...encoder.end()]) ?? new Uint8Array(),
    clientFormat: true,
  }
}
