/**
 * Same-format stream pass-through: an OpenAI-format upstream stream (OpenAI and the compatible
 * family, Azure) relayed to the chat stream without decoding, parsing and re-encoding each event.
 * The supplier's bytes are forwarded as they are, cut only at event boundaries (an event is held
 * until its blank line arrives). Each upstream read is decoded once by the runtime and searched for
 * three markers only; just the events that carry one are parsed:
 *  - `[DONE]`: cut (the relay writes its own trailer);
 *  - `{"error"…`: cut and reported through `error()` (the relay then writes its error payload);
 *  - `"usage"` with a non-null value: captured; a usage-only chunk (no choices) is cut unless the
 *    client asked for `include_usage` (the gateway always asks the upstream), else it stays in place.
 * The documented rewrites are these cuts, the relay's trailer, and a blank line after a last event
 * the upstream closed without one. Events in any other form (comments, `event:` lines, other
 * whitespace) pass unchanged. The forwarded bytes are kept (by reference) so the answer's text
 * is parsed only when the upstream reported no usage and it must be counted.
 */
import type { Usage } from '../billing/formula'
import { SseDecoder } from '../../shared/contract/sse'
import { OpenAIStream } from '../providers/openai/adapter'
import { fromOpenAIUsage } from '../providers/openai/usage'
import type { RelayCall, UpstreamError } from '../providers/types'
import { errorFromBody } from '../providers/url'

/** What one upstream read (or the end) gives the client. */
export interface Forward {
  /** Bytes to send now (none when every complete event was cut or none completed). */
  bytes?: Uint8Array
  /** Whether they carry at least one `data:` event (priming waits for one). */
  payload: boolean
}

const LF = 10
const CR = 13
const BLANK = new Uint8Array([LF, LF])

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
function nextEvent(data: Uint8Array, from: number): number {
  let i = data.indexOf(LF, from)
  while (i !== -1) {
    if (data[i + 1] === LF) return i + 2
    if (data[i + 1] === CR && data[i + 2] === LF) return i + 3
    i = data.indexOf(LF, i + 1)
  }
  return data.length
}

export function concatBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): Uint8Array | undefined {
  if (!a || a.length === 0) return b
  if (!b || b.length === 0) return a
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

/** Whether a decoded region holds a non-null `"usage"` value. */
function hasUsage(text: string): boolean {
  for (let i = text.indexOf('"usage"'); i !== -1; i = text.indexOf('"usage"', i + 7)) {
    let j = i + 7
    while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 58) j++ // spaces and ':'
    if (!text.startsWith('null', j)) return true
  }
  return false
}

export class ChatPassThrough {
  private readonly text = new TextDecoder()
  private tail: Uint8Array | undefined
  /** The forwarded regions, for `answerText()` only. */
  private readonly kept: Uint8Array[] = []
  private firstData: string | undefined
  private captured: Usage | undefined
  /** The captured usage already went out in place (a usage-only chunk the client asked for). */
  private forwardedUsage: Usage | undefined
  private failure: UpstreamError | undefined

  constructor(
    private readonly call: RelayCall,
    private readonly includeUsage: boolean
  ) {}

  push(chunk: Uint8Array): Forward {
    const data = this.tail ? concatBytes(this.tail, chunk)! : chunk
    const cut = completeEnd(data)
    this.tail = cut < data.length ? data.subarray(cut) : undefined
    return cut === 0 ? { payload: false } : this.region(data.subarray(0, cut))
  }

  /** The upstream closed: a last event without its blank line gets one. */
  end(): Forward {
    const tail = this.tail
    this.tail = undefined
    if (!tail || tail.length === 0) return { payload: false }
    return this.region(concatBytes(tail, BLANK)!)
  }

  private region(bytes: Uint8Array): Forward {
    const str = this.text.decode(bytes)
    if (str.indexOf('[DONE]') === -1 && str.indexOf('{"error"') === -1 && !hasUsage(str)) {
      this.kept.push(bytes)
      return { bytes, payload: this.firstData !== undefined || this.notePayload(str) }
    }
    return this.sift(bytes)
  }

  /** Until the first payload: whether this region has one (and keep the first for `usageChunk`). */
  private notePayload(str: string): boolean {
    this.firstData = this.events(str)[0]
    return this.firstData !== undefined
  }

  /** The slow path for a region with a marker: event by event, cutting what must not go out. */
  private sift(bytes: Uint8Array): Forward {
    const parts: Uint8Array[] = []
    let payload = false
    for (let start = 0; start < bytes.length; ) {
      const next = nextEvent(bytes, start)
      const event = bytes.subarray(start, next)
      start = next
      const datas = this.events(this.text.decode(event))
      if (datas.length > 0 && !this.keep(datas[0]!)) continue
      parts.push(event)
      if (datas.length > 0) {
        payload = true
        this.firstData ??= datas[0]
      }
    }
    let out: Uint8Array | undefined
    for (const p of parts) out = concatBytes(out, p)
    if (out) this.kept.push(out)
    return { bytes: out, payload }
  }

  /** Whether one event's data goes out; records usage and in-stream errors. */
  private keep(data: string): boolean {
    if (data === '[DONE]') return false
    // Some compatible suppliers (OpenRouter…) report failures mid-stream as {"error": {...}}.
    if (data.startsWith('{"error"')) {
      this.failure = errorFromBody(data)
      return false
    }
    if (!hasUsage(data)) return true
    let parsed: any
    try {
      parsed = JSON.parse(data)
    } catch {
      return true
    }
    const usage = fromOpenAIUsage(parsed?.usage)
    if (!usage) return true
    this.captured = usage
    if (Array.isArray(parsed.choices) && parsed.choices.length > 0) return true
    if (!this.includeUsage) return false
    this.forwardedUsage = usage
    return true
  }

  /** The `data` payloads of the complete events in `str`. */
  private events(str: string): string[] {
    const decoder = new SseDecoder()
    return [...decoder.push(str), ...decoder.end()].map((e) => e.data)
  }

  usage(): Usage | undefined {
    return this.captured
  }

  error(): UpstreamError | undefined {
    return this.failure
  }

  /** The generated text, parsed from the forwarded bytes (only when usage must be counted). */
  answerText(): string {
    const chat = new OpenAIStream(this.call)
    const decoder = new SseDecoder()
    for (const bytes of this.kept) for (const ev of decoder.push(bytes)) chat.onEvent(ev)
    for (const ev of decoder.end()) chat.onEvent(ev)
    return chat.text()
  }

  /** The usage chunk of the trailer, or undefined when the upstream's own already went out. */
  usageChunk(usage: Usage): string | undefined {
    if (this.forwardedUsage && this.forwardedUsage === usage) return undefined
    const chat = new OpenAIStream(this.call)
    if (this.firstData !== undefined) chat.onEvent({ data: this.firstData })
    return chat.usageChunk(usage)
  }
}
