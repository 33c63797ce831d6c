/**
 * Streams an upstream SSE answer to the client without buffering, pulled at the client's pace. An
 * OpenAI-format upstream (OpenAIStream) is forwarded byte for byte by stream-pass.ts, which cuts
 * only what the relay rewrites; a native Anthropic or Gemini stream for a client of that format
 * comes as a ready StreamSource (inbound/anthropic/stream-pass.ts, inbound/gemini/stream-pass.ts)
 * whose bytes are already the client's; every other format goes upstream bytes → SseDecoder → the
 * adapter's transformer → `data:` events, or the frames of an inbound client's encoder
 * (stream-encoded.ts). `prime()` reads until the first payload before anything
 * is sent, so an upstream that fails immediately can still be retried on another channel. The
 * chat trailer (usage chunk when asked, then `[DONE]`) and the error payload of a cut stream are
 * written by the relay, in the client's format (the source's `trailer` and `failure`). Ending,
 * cutting and client cancellation all resolve `done` exactly once with what was generated, so the
 * caller can settle the bill in `waitUntil`.
 */
import type { Usage } from '../billing/formula'
import type { StreamTransformer, UpstreamError } from '../providers/types'
import { encodeDataList, SseDecoder } from '../../shared/contract/sse'
import { OpenAIStream } from '../providers/openai/adapter'
import { redactSecrets } from '../lib/redact'
import { ChatPassThrough, chatFailure } from './stream-pass'
import { concatBytes, type Forward, type StreamSource } from './stream-bytes'
import type { WordAutomaton } from './policies/word-automaton'
import { StreamOutputFilter } from './policies/output-filter'
import { encodedSource } from './stream-encoded'
import type { InboundStreamEncoder } from './inbound/types'

/**
 * `text()` is what was generated, read only when the usage has to be counted from it. `outputOpen`:
 * the usage holds no final output count yet (StreamSource.outputOpen), so the output is counted.
 */
export type StreamEnd =
  | { kind: 'complete'; usage?: Usage; text: () => string }
  | { kind: 'cancelled'; usage?: Usage; text: () => string; outputOpen?: boolean }
  | { kind: 'failed'; usage?: Usage; text: () => string; error: UpstreamError; outputOpen?: boolean }

export interface PrimedStream {
  /** The response to return to the client. */
  response: Response
  /** Resolves once with how the stream ended. */
  done: Promise<StreamEnd>
  /** Milliseconds from start to the first payload. */
  firstByteMs: number
}

export type PrimeResult = { ok: true; stream: PrimedStream } | { ok: false; error: UpstreamError }

export interface StreamOptions {
  upstream: Response
  /**
   * The adapter's transformer, or a source that already forwards the client's own format (never
   * combined with `outputFilter`: relay-request.ts uses native adapters only when no policy reads the answer).
   */
  transformer: StreamTransformer | StreamSource
  includeUsage: boolean
  startedAt: number
  /** Usage for the trailer when the upstream reported none (counting the text). */
  resolveUsage: (text: string) => Promise<Usage>
  /** Mask these words in the answer (policies/output-filter.ts); the stream is then always decoded. */
  outputFilter?: WordAutomaton
  /** An inbound client's encoder: a transformer's chat chunks go to it directly (stream-encoded.ts). */
  encoder?: InboundStreamEncoder
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
}

/** Responses whose body is already in the client's format (adaptAnswer leaves them as they are). */
const clientFormat = new WeakSet<Response>()
export const inClientFormat = (res: Response) => clientFormat.has(res)

/** Decodes every event and lets the adapter's transformer rewrite it (and the output filter after it). */
function transformed(transformer: StreamTransformer, includeUsage: boolean, filter?: StreamOutputFilter): StreamSource {
  const decoder = new SseDecoder()
  const out = (events: ReturnType<SseDecoder['push']>, last = false): Forward => {
    const produced: string[] = []
    for (const ev of events) produced.push(...transformer.onEvent(ev))
    const sent = filter ? produced.map((p) => filter.chunk(p)) : produced
    if (last && filter) sent.push(...filter.end())
    return sent.length ? { bytes: encodeDataList(sent), payload: true } : { payload: false }
  }
  return {
    push: (chunk) => out(decoder.push(chunk)),
    end: () => out(decoder.end(), true),
    usage: () => transformer.usage(),
    error: () => transformer.error?.(),
    text: () => transformer.text(),
    trailer: (usage) => encodeDataList(includeUsage ? [transformer.usageChunk(usage), '[DONE]'] : ['[DONE]']),
    failure: chatFailure,
  }
}

function sourceOf(opts: StreamOptions): StreamSource {
  const t = opts.transformer
  if ('push' in t) return t
  if (opts.encoder) return encodedSource(t, opts.encoder, opts.includeUsage, opts.outputFilter && new StreamOutputFilter(opts.outputFilter))
  if (opts.outputFilter) return transformed(t, opts.includeUsage, new StreamOutputFilter(opts.outputFilter))
  return t instanceof OpenAIStream ? new ChatPassThrough(t.call, opts.includeUsage) : transformed(t, opts.includeUsage)
}

export async function primeStream(opts: StreamOptions): Promise<PrimeResult> {
  const source = sourceOf(opts)
  const reader = opts.upstream.body!.getReader()
  let first: Uint8Array | undefined
  let primed = false
  let upstreamDone = false
  try {
    while (!primed) {
      const r = await reader.read()
      const out = r.done ? source.end() : source.push(r.value)
      first = concatBytes(first, out.bytes)
      primed = out.payload
      const err = source.error()
      if (err) {
        await reader.cancel().catch(() => {})
        return { ok: false, error: err }
      }
      if (r.done) {
        upstreamDone = true
        break
      }
    }
  } catch (err) {
    return { ok: false, error: { message: `upstream stream failed before the first event: ${(err as Error).message}` } }
  }
  if (!primed && !source.usage()) {
    return { ok: false, error: { message: 'upstream closed the stream without sending anything' } }
  }
  const firstByteMs = Date.now() - opts.startedAt
  let resolveDone!: (end: StreamEnd) => void
  const done = new Promise<StreamEnd>((r) => (resolveDone = r))
  let ended = false
  const end = (e: StreamEnd) => {
    if (!ended) {
      ended = true
      resolveDone(e)
    }
  }

  const text = () => source.text()
  const trailer = async (controller: ReadableStreamDefaultController<Uint8Array>, pending: Uint8Array | undefined) => {
    // A format that closes itself leaves the count to the settlement; the chat trailer needs it now.
    const usage = source.usage() ?? (source.trailer ? await opts.resolveUsage(text()) : undefined)
    const last = concatBytes(pending, usage && source.trailer?.(usage))
    if (last) controller.enqueue(last)
    controller.close()
    end({ kind: 'complete', usage, text })
  }

  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: UpstreamError, pending?: Uint8Array) => {
    // Mid-stream, the client sees the supplier's text only with key-like strings redacted.
    const message = redactSecrets(error.message ?? 'The upstream stream failed')
    controller.enqueue(concatBytes(pending, source.failure(error, message))!)
    controller.close()
    end({ kind: 'failed', usage: source.usage(), text, error, outputOpen: source.outputOpen?.() })
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first) controller.enqueue(first)
    },
    async pull(controller) {
      if (upstreamDone) return trailer(controller, undefined)
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>
        try {
          r = await reader.read()
        } catch (err) {
          return fail(controller, { message: `upstream stream was cut: ${(err as Error).message}`, type: 'upstream_error' })
        }
        // What one upstream read completed leaves as one chunk.
        const out = r.done ? source.end() : source.push(r.value)
        const err = source.error()
        if (err) {
          await reader.cancel().catch(() => {})
          return fail(controller, err, out.bytes)
        }
        if (r.done) return trailer(controller, out.bytes)
        if (out.bytes) return controller.enqueue(out.bytes)
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {})
      end({ kind: 'cancelled', usage: source.usage(), text, outputOpen: source.outputOpen?.() })
    },
  })
  const response = new Response(body, { status: 200, headers: SSE_HEADERS })
  if (source.clientFormat) clientFormat.add(response)
  return { ok: true, stream: { response, done, firstByteMs } }
}
