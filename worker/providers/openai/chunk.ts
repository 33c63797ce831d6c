/**
 * The OpenAI `chat.completion.chunk` lines that the converting stream transformers write (Anthropic,
 * Gemini, Bedrock, Cohere, Coze, Baidu, Hunyuan): one choice's delta with its finish reason, and the
 * closing usage-only chunk.
 */
import type { Usage } from '../../billing/formula'
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
