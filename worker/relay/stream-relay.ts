/**
 * Streams an upstream SSE answer to the client without buffering: upstream bytes → SseDecoder →
 * the adapter's transformer → `data:` events, pulled at the client's pace. `prime()` reads until
 * the first payload before anything is sent, so an upstream that fails immediately can still be
 * retried on another channel. The trailer (usage chunk when asked, then `[DONE]`) is written by
 * the relay. Ending, cutting and client cancellation all resolve `done` exactly once with what
 * was generated, so the caller can settle the bill in `waitUntil`.
 */
import type { Usage } from '../billing/formula'
import type { StreamTransformer, UpstreamError } from '../providers/types'
import { encodeDataList, SseDecoder } from '../../shared/contract/sse'
import { redactSecrets } from '../lib/redact'

/** `text()` is what was generated, read only when the usage has to be counted from it. */
export type StreamEnd =
  | { kind: 'complete'; usage?: Usage; text: () => string }
  | { kind: 'cancelled'; usage?: Usage; text: () => string }
  | { kind: 'failed'; usage?: Usage; text: () => string; error: UpstreamError }

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
  transformer: StreamTransformer
  includeUsage: boolean
  startedAt: number
  /** Usage for the trailer when the upstream reported none (counting the text). */
  resolveUsage: (text: string) => Promise<Usage>
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
}

export async function primeStream(opts: StreamOptions): Promise<PrimeResult> {
  const { transformer } = opts
  const reader = opts.upstream.body!.getReader()
  const decoder = new SseDecoder()
  const first: string[] = []
  let upstreamDone = false
  try {
    while (first.length === 0) {
      const r = await reader.read()
      const events = r.done ? decoder.end() : decoder.push(r.value)
      for (const ev of events) first.push(...transformer.onEvent(ev))
      const err = transformer.error?.()
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
  if (first.length === 0 && !transformer.usage()) {
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

  const text = () => transformer.text()
  const trailer = async (controller: ReadableStreamDefaultController<Uint8Array>, pending: string[]) => {
    const usage = transformer.usage() ?? (await opts.resolveUsage(text()))
    if (opts.includeUsage) pending.push(transformer.usageChunk(usage))
    pending.push('[DONE]')
    controller.enqueue(encodeDataList(pending))
    controller.close()
    end({ kind: 'complete', usage, text })
  }

  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, error: UpstreamError, pending: string[] = []) => {
    // Mid-stream, the client sees the supplier's text only with key-like strings redacted.
    const message = redactSecrets(error.message ?? 'The upstream stream failed')
    pending.push(JSON.stringify({ error: { message, type: error.type ?? 'upstream_error', code: error.code ?? null, param: null } }))
    controller.enqueue(encodeDataList(pending))
    controller.close()
    end({ kind: 'failed', usage: transformer.usage(), text, error })
  }

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.length) controller.enqueue(encodeDataList(first))
    },
    async pull(controller) {
      if (upstreamDone) return trailer(controller, [])
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>
        try {
          r = await reader.read()
        } catch (err) {
          return fail(controller, { message: `upstream stream was cut: ${(err as Error).message}`, type: 'upstream_error' })
        }
        const events = r.done ? decoder.end() : decoder.push(r.value)
        // The payloads of one upstream read leave as one chunk.
        const produced: string[] = []
        for (const ev of events) produced.push(...transformer.onEvent(ev))
        const err = transformer.error?.()
        if (err) {
          await reader.cancel().catch(() => {})
          return fail(controller, err, produced)
        }
        if (r.done) return trailer(controller, produced)
        if (produced.length > 0) return controller.enqueue(encodeDataList(produced))
      }
    },
    async cancel(reason) {
      await reader.cancel(reason).catch(() => {})
      end({ kind: 'cancelled', usage: transformer.usage(), text })
    },
  })
  return { ok: true, stream: { response: new Response(body, { status: 200, headers: SSE_HEADERS }), done, firstByteMs } }
}
