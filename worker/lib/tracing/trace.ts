/**
 * The small typed span API of one trace: a root span opened when the request's trace starts, child
 * spans recorded with their own start and end (the relay measures with Date.now(), which on Workers
 * moves at I/O), events on the root span, and `end`, which hands every span to the isolate's export
 * buffer (exporter.ts). Recording is a few object writes: no await, no I/O.
 */
import { newSpanId } from './trace-context'
import { queueSpans } from './exporter'

export type AttrValue = string | number | boolean
export type Attrs = Record<string, AttrValue | undefined>

/** OTLP span kinds (the numbers of the protocol's enum). */
export const SpanKind = { INTERNAL: 1, SERVER: 2, CLIENT: 3 } as const

export interface SpanEvent {
  name: string
  /** Milliseconds since the epoch. */
  time: number
  attributes?: Attrs
}

export interface SpanData {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  kind: number
  start: number
  end: number
  attributes: Attrs
  events: SpanEvent[]
  /** Absent: unset; otherwise OTLP's OK (1) or ERROR (2). */
  status?: { code: 1 | 2; message?: string }
}

export class Trace {
  readonly traceId: string
  private readonly root: SpanData
  private readonly children: SpanData[] = []
  private ended = false

  /** `ids`: the trace's id, and the client's span when the trace continues a `traceparent`. */
  constructor(name: string, start: number, attributes: Attrs, ids: { traceId: string; parentSpanId?: string | undefined }) {
    this.traceId = ids.traceId
    this.root = { traceId: this.traceId, spanId: newSpanId(), name, kind: SpanKind.SERVER, start, end: start, attributes, events: [] }
    if (ids.parentSpanId) this.root.parentSpanId = ids.parentSpanId
  }

  get spanId() {
    return this.root.spanId
  }

  /** Add attributes to the root span. */
  set(attributes: Attrs) {
    Object.assign(this.root.attributes, attributes)
  }

  /** An event on the root span at `time`. */
  event(name: string, time: number, attributes?: Attrs) {
    this.root.events.push(attributes ? { name, time, attributes } : { name, time })
  }

  /** A finished child span of the root; `error` marks it failed (its message is the status message). */
  child(name: string, start: number, end: number, attributes: Attrs, opts: { kind?: number; error?: string } = {}) {
    const span: SpanData = {
      traceId: this.traceId,
      spanId: newSpanId(),
      parentSpanId: this.root.spanId,
      name,
      kind: opts.kind ?? SpanKind.INTERNAL,
      start,
      end: Math.max(start, end),
      attributes,
      events: [],
    }
    if (opts.error !== undefined) span.status = { code: 2, message: opts.error.slice(0, 256) }
    this.children.push(span)
  }

  /** Time `fn` as a child span; a throw marks the span failed and is rethrown. */
  async span<T>(name: string, attributes: Attrs, fn: () => Promise<T>): Promise<T> {
    const start = Date.now()
    try {
      const value = await fn()
      this.child(name, start, Date.now(), attributes)
      return value
    } catch (err) {
      this.child(name, start, Date.now(), attributes, { error: err instanceof Error ? err.message : String(err) })
      throw err
    }
  }

  /** Mark the root span failed. */
  fail(message: string, attributes: Attrs = {}) {
    this.set(attributes)
    this.root.status = { code: 2, message: message.slice(0, 256) }
  }

  /** End the root span now (once) and queue the whole trace for export in `ctx.waitUntil`. */
  end(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, end = Date.now()) {
    if (this.ended) return
    this.ended = true
    this.root.end = Math.max(this.root.start, end)
    queueSpans(env, ctx, [this.root, ...this.children])
  }
}
