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
 * is parsed only when the upstream reported no usage and it must be counted. The event boundary
 * scanner is the one every pass-through shares (stream-bytes.ts).
 */
import type { Usage } from '../billing/formula'
import { encodeDataList } from '../../shared/contract/sse'
import { OpenAIStream } from '../providers/openai/adapter'
import { fromOpenAIUsage } from '../providers/openai/usage'
import type { RelayCall, UpstreamError } from '../providers/types'
import { errorFromBody } from '../providers/url'
import { concatBytes, eventsOf, type Forward, nextEvent, PassThroughSource, type StreamSource } from './stream-bytes'

/** Whether a decoded region holds a non-null `"usage"` value. */
function hasUsage(text: string): boolean {
  for (let i = text.indexOf('"usage"'); i !== -1; i = text.indexOf('"usage"', i + 7)) {
    let j = i + 7
    while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 58) j++ // spaces and ':'
    if (!text.startsWith('null', j)) return true
  }
  return false
}

export class ChatPassThrough extends PassThroughSource implements StreamSource {
  private firstData: string | undefined
  private captured: Usage | undefined
  /** The captured usage already went out in place (a usage-only chunk the client asked for). */
  private forwardedUsage: Usage | undefined
  private failed: UpstreamError | undefined

  constructor(
    private readonly call: RelayCall,
    private readonly includeUsage: boolean
  ) {
    super()
  }

  protected region(bytes: Uint8Array): Forward {
    const str = this.decoder.decode(bytes)
    if (str.indexOf('[DONE]') === -1 && str.indexOf('{"error"') === -1 && !hasUsage(str)) {
      this.kept.push(bytes)
      return { bytes, payload: this.firstData !== undefined || this.notePayload(str) }
    }
    return this.sift(bytes)
  }

  /** Until the first payload: whether this region has one (and keep the first for the trailer's usage chunk). */
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
      const datas = this.events(this.decoder.decode(event))
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
      this.failed = errorFromBody(data)
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
    return eventsOf(str).map((e) => e.data)
  }

  usage(): Usage | undefined {
    return this.captured
  }

  error(): UpstreamError | undefined {
    return this.failed
  }

  /** The generated text, parsed from the forwarded bytes (only when usage must be counted). */
  text(): string {
    return this.replay(new OpenAIStream(this.call)).text()
  }

  /** The usage chunk when asked (unless the upstream's own already went out), then `[DONE]`. */
  trailer(usage: Usage): Uint8Array {
    if (!this.includeUsage || (this.forwardedUsage && this.forwardedUsage === usage)) return encodeDataList(['[DONE]'])
    const chat = new OpenAIStream(this.call)
    if (this.firstData !== undefined) chat.onEvent({ data: this.firstData })
    return encodeDataList([chat.usageChunk(usage), '[DONE]'])
  }

  failure(error: UpstreamError, message: string): Uint8Array {
    return chatFailure(error, message)
  }
}

/** The relay's `{error}` payload that ends a failed OpenAI chat stream. */
export const chatFailurePayload = (error: UpstreamError, message: string): string =>
  JSON.stringify({ error: { message, type: error.type ?? 'upstream_error', code: error.code ?? null, param: null } })

/** That payload as the stream's last event. */
export function chatFailure(error: UpstreamError, message: string): Uint8Array {
  return encodeDataList([chatFailurePayload(error, message)])
}
