/**
 * The one interface every inbound codec implements. A codec lets a client speak another API
 * (Anthropic Messages, the OpenAI Responses API, Gemini) to the relay: it turns the client's body
 * into the internal OpenAI-chat body the relay already knows how to route, reserve, bill and send
 * to any channel, then turns the chat answer, the chat stream and errors back into the client's
 * own format. Codecs are pure (no D1/KV/DO access); relay-hook.ts does the plumbing.
 */
import type { ApiError } from '../../lib/errors'
import type { NativeAdapter } from './native'

export type InboundFormat = 'anthropic' | 'responses' | 'gemini'

/** Turns the gateway's OpenAI chat stream (one parsed `data:` payload at a time) into the format's SSE frames. */
export interface InboundStreamEncoder {
  /** One chat chunk (or the relay's `{error}` payload) in; encoded SSE frames out (may be none). */
  onChunk(chunk: Record<string, unknown>): string[]
  /** The chat stream ended (`[DONE]` or close): the closing frames. Called at most once. */
  end(): string[]
}

export interface InboundCodec {
  format: InboundFormat
  /** The client's body → the internal OpenAI body of the relay op (chat, or embeddings for Gemini embedContent); throws ApiError 400 on invalid input. */
  toOpenAI(body: unknown): Record<string, unknown>
  /** The op's OpenAI JSON answer (chat completion, embeddings list) → the format's answer. */
  fromOpenAI(answer: Record<string, any>): unknown
  createStreamEncoder(): InboundStreamEncoder
  /** The format's own error envelope, so the client's SDK raises its own error class. */
  errorResponse(err: ApiError, requestId?: string): Response
  /** For a channel type that speaks this format itself: the pass-through adapter (native.ts). */
  nativeAdapter?(channelType: number): NativeAdapter | undefined
}

/** One SSE frame with an event name (Anthropic and Responses streams name every event). */
export const eventFrame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
/** One unnamed SSE frame (Gemini streams). */
export const dataFrame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`
