/**
 * Same-format stream pass-through for Gemini: a Gemini channel's `streamGenerateContent?alt=sse`
 * stream relayed to a Gemini client as the supplier's own bytes (`data: {…}` frames, CRLF or LF),
 * cut only at event boundaries (stream-bytes.ts), without decoding, parsing and re-encoding each
 * frame. Each upstream read is decoded once by the runtime and searched for two markers:
 *  - `"usageMetadata"`: the last frame of the read that names it is kept as text, not parsed. Gemini
 *    repeats the running usage in every frame and the last one counts (as on the converted path),
 *    so only the last frame kept is parsed, when the usage is asked for (the stream's end, a cut,
 *    a client that left). Should that text not hold a top-level `usageMetadata` (the marker was
 *    inside a function call's arguments), the forwarded frames are read again in full.
 *  - `"error"`: the frames that contain it are parsed (by the chat converter GeminiStream); an
 *    `{error: {code, message, status}}` frame is reported through `error()` and the stream ends there.
 * The documented rewrites:
 *  - an error frame and anything after it in the same read are cut; the relay writes its own Google
 *    error frame in its place (the message with key-like strings redacted, 429 RESOURCE_EXHAUSTED
 *    for a rate limit, else 503 UNAVAILABLE, as the converted path writes it);
 *  - a blank line after a last frame the upstream closed without one.
 * There is no model rewrite: `modelVersion` is the supplier's, as it was before this module. Gemini
 * streams have no closing frame, so the relay adds no trailer. The forwarded bytes are kept (by
 * reference) so the text is parsed only when the supplier reported no usage and it must be counted.
 */
import type { Usage } from '../../../billing/formula'
import { fromGeminiUsage } from '../../../providers/gemini/response'
import { GeminiStream } from '../../../providers/gemini/stream'
import type { RelayCall, UpstreamError } from '../../../providers/types'
import { eventsOf, type Forward, nextEvent, PassThroughSource, type StreamSource } from '../../stream-bytes'
import { geminiStreamError } from './stream'

const encoder = new TextEncoder()

/** The event of `str` around position `at` (from the blank line before it to the one after it). */
function eventAround(str: string, at: number): string {
  const before = Math.max(str.lastIndexOf('\n\n', at), str.lastIndexOf('\n\r\n', at))
  const after = str.indexOf('\n\n', at)
  const afterCrlf = str.indexOf('\r\n\r\n', at)
  const end = Math.min(after === -1 ? str.length : after, afterCrlf === -1 ? str.length : afterCrlf)
  return str.slice(before === -1 ? 0 : before + 1, end)
}

export class GeminiPassThrough extends PassThroughSource implements StreamSource {
  readonly clientFormat = true
  /** Parses only the frames that name `"error"`. */
  private readonly probe: GeminiStream
  /** The last frame naming usageMetadata, unparsed; and the usage read from it. */
  private lastUsage: string | undefined
  private read: { from: string; usage: Usage | undefined } | undefined

  constructor(private readonly call: RelayCall) {
    super()
    this.probe = new GeminiStream(call)
  }

  protected region(bytes: Uint8Array): Forward {
    const str = this.decoder.decode(bytes)
    if (str.indexOf('"error"') === -1 && this.payload) {
      this.noteUsage(str)
      this.kept.push(bytes)
      return { bytes, payload: true }
    }
    return this.sift(bytes)
  }

  private noteUsage(str: string) {
    const at = str.lastIndexOf('"usageMetadata"')
    if (at !== -1) this.lastUsage = eventAround(str, at)
  }

  /** Frame by frame: the ones naming `"error"` are parsed; cut at an error frame. */
  private sift(bytes: Uint8Array): Forward {
    let payload = false
    for (let start = 0; start < bytes.length; ) {
      const next = nextEvent(bytes, start)
      const str = this.decoder.decode(bytes.subarray(start, next))
      if (str.indexOf('"error"') !== -1 || !(payload || this.payload)) {
        for (const ev of eventsOf(str)) {
          payload = true
          if (str.indexOf('"error"') !== -1) this.probe.onEvent(ev)
        }
        if (this.probe.error()) return this.forward(bytes.subarray(0, start), payload)
      }
      this.noteUsage(str)
      start = next
    }
    return this.forward(bytes, payload)
  }

  /** The usage of the last frame that reported one. */
  usage(): Usage | undefined {
    const from = this.lastUsage
    if (from === undefined) return undefined
    if (this.read?.from !== from) this.read = { from, usage: this.usageOf(from) }
    return this.read.usage
  }

  private usageOf(frame: string): Usage | undefined {
    for (const ev of eventsOf(frame)) {
      try {
        const data = JSON.parse(ev.data)
        if (data && typeof data === 'object' && data.usageMetadata) return fromGeminiUsage(data.usageMetadata)
      } catch {
        // Not a frame of its own: read everything below.
      }
    }
    return this.replay(new GeminiStream(this.call)).usage()
  }

  error(): UpstreamError | undefined {
    return this.probe.error()
  }

  /** The generated text (thoughts, text, function calls), parsed from the forwarded bytes. */
  text(): string {
    return this.replay(new GeminiStream(this.call)).text()
  }

  failure(error: UpstreamError, message: string): Uint8Array {
    return encoder.encode(geminiStreamError(error.type, message))
  }
}
