/**
 * The byte-level pieces every stream source of the relay shares (stream-relay.ts): the
 * `StreamSource` interface primeStream reads, and the SSE boundary scanner the pass-through sources
 * (stream-pass.ts for OpenAI, inbound/anthropic and inbound/gemini stream-pass.ts) cut their input
 * with — complete events only (an event is held until its blank line, LF LF or CRLF CRLF, arrives),
 * without decoding, plus the name of one event read from its `event:` line; and `PassThroughSource`,
 * what the three pass-through sources share (cutting, the kept bytes and their replay).
 */
import { SseDecoder, type SseEvent } from '../../shared/contract/sse'
import type { Usage } from '../billing/formula'
import type { UpstreamError } from '../providers/types'

/** What one upstream read (or the end) gives the client. */
export interface Forward {
  /** Bytes to send now (none when every complete event was cut or none completed). */
  bytes?: Uint8Array
  /** Whether they carry at least one `data:` event (priming waits for one). */
  payload: boolean
}

export const NOTHING: Forward = { payload: false }

/** One upstream stream as the relay sees it: bytes in, client bytes out, and what it reported. */
export interface StreamSource {
  push(chunk: Uint8Array): Forward
  end(): Forward
  usage(): Usage | undefined
  error(): UpstreamError | undefined
  /** What was generated, read only when the usage has to be counted from it. */
  text(): string
  /**
   * What the relay writes after the upstream's last event (OpenAI chat: the usage chunk when asked,
   * then `[DONE]`); absent for a client format whose stream closes itself.
   */
  trailer?(usage: Usage): Uint8Array
  /** The payload that ends a failed stream, in the client's format (`message` is already redacted). */
  failure(error: UpstreamError, message: string): Uint8Array
  /**
   * The supplier reports the output's usage only at the end and has not yet (Anthropic before its
   * `message_delta`): a stream cut now has its output counted from the text (relay-request.ts).
   */
  outputOpen?(): boolean
  /** The bytes are already in the client's own format, so its inbound codec passes them on (relay-hook.ts). */
  readonly clientFormat?: boolean
}

const LF = 10
const CR = 13
const BLANK = new Uint8Array([LF, LF])

export function concatBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): Uint8Array | undefined {
  if (!a || a.length === 0) return b
  if (!b || b.length === 0) return a
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Index just after the last blank line (LF LF or CRLF CRLF) of `data`, 0 when none. */
function completeEnd(data: Uint8Array): number {
  let i = data.lastIndexOf(LF)
  while (i > 0) {
    if (data[i - 1] === LF || (data[i - 1] === CR && data[i - 2] === LF)) return i + 1
    i = data.lastIndexOf(LF, i - 1)
  }
  return 0
}

/** Start of the event that follows `from` (just after its blank line), or `data.length`. */
export function nextEvent(data: Uint8Array, from: number): number {
  let i = data.indexOf(LF, from)
  while (i !== -1) {
    if (data[i + 1] === LF) return i + 2
    if (data[i + 1] === CR && data[i + 2] === LF) return i + 3
    i = data.indexOf(LF, i + 1)
  }
  return data.length
}

const EVENT = [101, 118, 101, 110, 116, 58] // "event:"

/** The value of the `event:` line of the event in `data[start, end)`, undefined when it has none. */
export function eventName(data: Uint8Array, start: number, end: number): string | undefined {
  for (let line = start; line < end; ) {
    let stop = data.indexOf(LF, line)
    if (stop === -1 || stop > end) stop = end
    let k = 0
    while (k < 6 && data[line + k] === EVENT[k]) k++
    if (k === 6) {
      let from = line + 6
      if (data[from] === 32) from++
      const to = data[stop - 1] === CR ? stop - 1 : stop
      return String.fromCharCode(...data.subarray(from, Math.max(from, to)))
    }
    line = stop + 1
  }
  return undefined
}

/** Holds the bytes of an unfinished event between reads and hands out regions of complete events. */
export class EventCutter {
  private tail: Uint8Array | undefined

  /** The complete events this read finished (with any held before it), or undefined. */
  push(chunk: Uint8Array): Uint8Array | undefined {
    const data = this.tail ? concatBytes(this.tail, chunk)! : chunk
    const cut = completeEnd(data)
    this.tail = cut < data.length ? data.subarray(cut) : undefined
    return cut === 0 ? undefined : data.subarray(0, cut)
  }

  /** The upstream closed: a last event without its blank line gets one (a documented rewrite). */
  end(): Uint8Array | undefined {
    const tail = this.tail
    this.tail = undefined
    return tail && tail.length > 0 ? concatBytes(tail, BLANK) : undefined
  }
}

/** The complete events of `text`, decoded. */
export function eventsOf(text: string): SseEvent[] {
  const decoder = new SseDecoder()
  return [...decoder.push(text), ...decoder.end()]
}

/**
 * A stream source that forwards the supplier's own bytes: each read is cut at event boundaries and
 * every region of complete events goes to `region`, which decides what of it goes out. What went
 * out is kept (by reference), so a converter can replay it when the text, or a usage the supplier
 * never reported, has to be read after all.
 */
export abstract class PassThroughSource {
  protected readonly decoder = new TextDecoder()
  private readonly cutter = new EventCutter()
  /** The forwarded regions, read again only by `replay`. */
  protected readonly kept: Uint8Array[] = []
  /** A `data:` event has gone out (priming waits for one); it stays true. */
  protected payload = false

  push(chunk: Uint8Array): Forward {
    const region = this.cutter.push(chunk)
    return region ? this.region(region) : NOTHING
  }

  /** The upstream closed: a last event without its blank line gets one. */
  end(): Forward {
    const region = this.cutter.end()
    return region ? this.region(region) : NOTHING
  }

  /** One region of complete events: the bytes of it that go out. */
  protected abstract region(bytes: Uint8Array): Forward

  /** Sends `bytes` (kept), `payload` when they carry a data event. */
  protected forward(bytes: Uint8Array, payload: boolean): Forward {
    if (bytes.length === 0) return NOTHING
    this.kept.push(bytes)
    this.payload ||= payload
    return { bytes, payload: this.payload }
  }

  /** Replays the forwarded bytes, event by event, into a fresh converter, and returns it. */
  protected replay<T extends { onEvent(ev: SseEvent): void }>(into: T): T {
    const decoder = new SseDecoder()
    for (const bytes of this.kept) for (const ev of decoder.push(bytes)) into.onEvent(ev)
    for (const ev of decoder.end()) into.onEvent(ev)
    return into
  }
}
