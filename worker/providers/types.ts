/**
 * The one interface every supplier adapter implements. Adapters are pure: they turn the
 * OpenAI-shaped call into the supplier's HTTP request and the supplier's answer back into OpenAI
 * shape (JSON or SSE events), and report usage. No D1/KV/DO access; the relay does the I/O.
 */
import type { Usage } from '../billing/formula'
import type { SseEvent } from '../../shared/contract/sse'
import type { ChannelPlugin } from '../../shared/contract/channel-plugins'

export type RelayOp =
  | 'chat'
  | 'completions'
  | 'embeddings'
  | 'moderations'
  | 'images.generations'
  | 'images.edits'
  | 'images.variations'
  | 'audio.speech'
  | 'audio.transcriptions'
  | 'audio.translations'
  | 'rerank'

/** What an adapter knows about the channel it calls. */
export interface ChannelInfo {
  id: number
  type: number
  name: string
  key: string
  baseUrl: string
  /** API version / region / supplier parameter. */
  other: string
  /** Plugin parameters (one-hub's `plugin` JSON); applied by the adapters listed in providers/plugins.ts. */
  plugin?: ChannelPlugin
}

export interface RelayCall {
  op: RelayOp
  /** Model name sent upstream (after the channel's model mapping). */
  model: string
  /** OpenAI-shaped JSON body (model already replaced) for JSON operations. */
  json?: Record<string, unknown>
  /** Multipart body (model already replaced) for file operations. */
  form?: FormData
  /**
   * The request's one output limit (chat/completions): what the wallet holds for. `json` carries it
   * in the field OpenAI-format suppliers read; native pass-throughs write it into their own field.
   */
  maxOutputTokens?: number
  stream: boolean
  /** The client asked for `stream_options.include_usage`. */
  includeUsage: boolean
  /**
   * Image URLs of the prompt the gateway fetched for this channel (relay/prompt-images.ts), by URL:
   * already inline in `json`; native pass-throughs put them into the client's own body.
   */
  images?: Map<string, { mimeType: string; data: string }>
}

/** `raw`: the supplier's own JSON text when `body` is exactly its parse (the relay sends it on unchanged, no re-serialisation). */
export type ParsedResponse = { kind: 'json'; body: unknown; usage?: Usage; text?: string; raw?: string } | { kind: 'raw'; response: Response }

export interface UpstreamError {
  message: string
  type?: string
  code?: string
}

export interface StreamTransformer {
  /**
   * One upstream SSE event in; OpenAI-format `data:` payloads out (may be none). Usage-only
   * chunks and the upstream's `[DONE]` are swallowed: the relay writes the trailer itself.
   */
  onEvent(event: SseEvent): string[]
  /** Usage reported by the upstream so far. */
  usage(): Usage | undefined
  /** Completion text seen so far (for counting when the upstream reports no usage). */
  text(): string
  /** The usage chunk sent before `[DONE]` when the client asked for `include_usage`. */
  usageChunk(usage: Usage): string
  /** An upstream error received inside the stream (e.g. an Anthropic `error` event). */
  error?(): UpstreamError | undefined
}

export interface ProviderAdapter {
  supports(op: RelayOp): boolean
  buildRequest(call: RelayCall, channel: ChannelInfo): Request | Promise<Request>
  parseResponse(call: RelayCall, res: Response): Promise<ParsedResponse>
  createStream(call: RelayCall): StreamTransformer
  parseError(status: number, body: string): UpstreamError
  /**
   * Turns a successful stream answer that is not SSE (e.g. AWS event-stream binary frames) into an
   * SSE body before the relay decodes it. Absent: the supplier already streams SSE.
   */
  toSseStream?(res: Response): Response
  /** Request listing the supplier's models (for the channel form's "fetch models"). */
  modelsRequest?(channel: ChannelInfo): Request
  parseModels?(body: unknown): string[]
}
