/** Test harness: feeds a raw SSE fixture through SseDecoder in byte chunks and a StreamTransformer. */
import { SseDecoder, type SseEvent } from '../../shared/contract/sse'
import type { ChannelInfo, RelayCall, RelayOp, StreamTransformer } from '../providers/types'

/** Chunk sizes every stream test runs at: whole body, then byte splits that cut events, CRLFs and UTF-8 sequences. */
export const SPLITS = [Infinity, 1, 7, 13, 64] as const

export function decodeSse(raw: string, every: number = Infinity): SseEvent[] {
  const bytes = new TextEncoder().encode(raw)
  const decoder = new SseDecoder()
  const events: SseEvent[] = []
  const step = Number.isFinite(every) ? every : bytes.length || 1
  for (let i = 0; i < bytes.length; i += step) events.push(...decoder.push(bytes.slice(i, i + step)))
  events.push(...decoder.end())
  return events
}

/** Runs the fixture through the transformer; returns the raw `data:` payloads it produced. */
export function runStream(transformer: StreamTransformer, raw: string, every: number = Infinity): string[] {
  return decodeSse(raw, every).flatMap((e) => transformer.onEvent(e))
}

/** Parsed chunks without the volatile id/created fields, for comparing against expectations. */
export function stripVolatile(payloads: string[]): Record<string, unknown>[] {
  return payloads.map((p) => {
    const { id: _id, created: _created, ...rest } = JSON.parse(p) as Record<string, unknown>
    return rest
  })
}

export const chatCall = (overrides: Partial<RelayCall> = {}, op: RelayOp = 'chat'): RelayCall => ({
  op,
  model: 'test-model',
  json: { model: 'test-model', messages: [{ role: 'user', content: 'hi' }] },
  stream: false,
  includeUsage: false,
  ...overrides,
})

export const channel = (overrides: Partial<ChannelInfo> = {}): ChannelInfo => ({
  id: 1,
  type: 1,
  name: 'test',
  key: 'sk-test',
  baseUrl: '',
  other: '',
  ...overrides,
})

export const jsonResponse = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } })
