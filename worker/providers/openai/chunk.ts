/**
 * The OpenAI `chat.completion.chunk` lines that the converting stream transformers write (Anthropic,
 * Gemini, Bedrock, Cohere, Coze, Baidu, Hunyuan): one choice's delta with its finish reason, and the
 * closing usage-only chunk, and the state every such transformer keeps (`ConvertedStream`).
 */
import type { Usage } from '../../billing/formula'
import type { SseEvent } from '../../../shared/contract/sse'
import type { RelayCall, StreamTransformer, UpstreamError } from '../types'
import { toOpenAIUsage } from './usage'

/** What every chunk of one stream repeats. */
export interface ChunkHead {
  id: string
  created: number
  model: string
}

/** Choice 0's `delta` (and `finish_reason`, null while the answer goes on) as one chunk line. */
export const deltaChunk = (head: ChunkHead, delta: Record<string, unknown>, finish: string | null = null): string =>
  JSON.stringify({ id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, choices: [{ index: 0, delta, finish_reason: finish }] })

/** The usage-only chunk that ends a stream (no choices). */
export const usageChunk = (head: ChunkHead, usage: Usage): string =>
  JSON.stringify({ id: head.id, object: 'chat.completion.chunk', created: head.created, model: head.model, choices: [], usage: toOpenAIUsage(usage) })

/**
 * What every converting stream transformer keeps: its chunk head (id and model, which the upstream
 * may name, and the creation time), the text seen so far, the usage captured and an error received
 * inside the stream. Subclasses translate events in `onEvent` with `chunk()`.
 */
export abstract class ConvertedStream implements StreamTransformer {
  protected id = `chatcmpl-${crypto.randomUUID()}`
  protected created = Math.floor(Date.now() / 1000)
  protected captured: Usage | undefined
  protected content = ''
  protected failure: UpstreamError | undefined

  /** The model chunks name until the upstream names its own. */
  protected model: string

  constructor(call: Pick<RelayCall, 'model'>) {
    this.model = call.model
  }

  abstract onEvent(event: SseEvent): string[]

  protected chunk(delta: Record<string, unknown>, finish: string | null = null): string {
    return deltaChunk({ id: this.id, created: this.created, model: this.model }, delta, finish)
  }

  usage(): Usage | undefined {
    return this.captured
  }

  text(): string {
    return this.content
  }

  error(): UpstreamError | undefined {
    return this.failure
  }

  usageChunk(usage: Usage): string {
    return usageChunk({ id: this.id, created: this.created, model: this.model }, usage)
  }
}
