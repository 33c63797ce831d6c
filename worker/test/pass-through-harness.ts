/** Test harness for the stream pass-throughs: an upstream body delivered read by read, byte splits, and one source run through primeStream. */
import type { Usage } from '../billing/formula'
import type { StreamSource } from '../relay/stream-bytes'
import { type PrimeResult, primeStream, type StreamEnd } from '../relay/stream-relay'

const enc = new TextEncoder()

/** An upstream body delivering `reads` one per read (strings or raw bytes); `hang` keeps it open after them. */
export function upstream(reads: (string | Uint8Array)[], opts: { hang?: boolean; onCancel?: () => void } = {}): Response {
  const queue = reads.map((r) => (typeof r === 'string' ? enc.encode(r) : r))
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift()
        if (next) controller.enqueue(next)
        else if (!opts.hang) controller.close()
        else return new Promise(() => {})
      },
      cancel: () => opts.onCancel?.(),
    })
  )
}

/** The same bytes cut at `at` (byte offsets). */
export function splitAt(text: string, at: number[]): Uint8Array[] {
  const bytes = enc.encode(text)
  const out: Uint8Array[] = []
  let from = 0
  for (const cut of [...at, bytes.length]) {
    out.push(bytes.slice(from, cut))
    from = cut
  }
  return out.filter((b) => b.length > 0)
}

/** One read per byte. */
export const byteByByte = (text: string): Uint8Array[] => [...enc.encode(text)].map((b) => new Uint8Array([b]))

/** Primes `source` on an upstream delivering `reads`. */
export function primeSource(source: StreamSource, reads: (string | Uint8Array)[], opts: { hang?: boolean; onCancel?: () => void } = {}): Promise<PrimeResult> {
  return primeStream({
    upstream: upstream(reads, opts),
    transformer: source,
    includeUsage: false,
    startedAt: Date.now(),
    resolveUsage: (): Promise<Usage> => Promise.reject(new Error('a client-format stream leaves the count to the settlement')),
  })
}

/** What the client of `source` reads, and how the stream ended. */
export async function relaySource(source: StreamSource, reads: (string | Uint8Array)[]): Promise<{ body: string; end: StreamEnd }> {
  const primed = await primeSource(source, reads)
  if (!primed.ok) throw new Error(primed.error.message)
  const body = await primed.stream.response.text()
  return { body, end: await primed.stream.done }
}
