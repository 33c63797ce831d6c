/**
 * Same-format stream pass-through for Anthropic Messages: an Anthropic channel's stream relayed to
 * an Anthropic `/v1/messages` client as the supplier's own bytes (`event: …\ndata: …\n\n`), cut only
 * at event boundaries (stream-bytes.ts), without decoding, parsing and re-encoding each event.
 * Each upstream read is decoded once by the runtime and searched for two markers (`message_` and
 * `error`); a read without either goes out untouched. In a read with one, each event's name is read
 * from its `event:` line, and only these events are parsed (by the chat converter AnthropicStream,
 * so usage means exactly what it means on the converted path):
 *  - `message_start`: input and cache tokens (and the message id/model, which the relay does not need);
 *  - `message_delta`: output tokens (and any updated input counts); a stream cut before it (client
 *    gone, supplier failed) has its output counted from the text, at least message_start's count;
 *  - `error`: reported through `error()`; the stream ends there.
 * An event without an `event:` line is parsed too (its `type` names it). The documented rewrites:
 *  - an `error` event and anything after it in the same read are cut; the relay writes its own
 *    `error` event in its place (the message with key-like strings redacted, `rate_limit_error`
 *    or `overloaded_error`, as the converted path writes it);
 *  - a blank line after a last event the upstream closed without one.
 * There is no model rewrite: `message_start.message.model` is the supplier's name for the upstream
 * model, as it was before this module (the gateway sends the channel's mapped model and returns
 * what the supplier answers). The stream closes with the supplier's `message_stop`; the relay adds
 * no trailer. The forwarded bytes are kept (by reference) so the text is parsed only when the
 * supplier reported no usage and it must be counted.
 */
import type { Usage } from '../../../billing/formula'
import { AnthropicStream } from '../../../providers/anthropic/stream'
import type { RelayCall, UpstreamError } from '../../../providers/types'
import { eventName, eventsOf, type Forward, nextEvent, PassThroughSource, type StreamSource } from '../../stream-bytes'
import { anthropicStreamError } from './stream'

/** The events whose data is parsed. */
const READ = new Set(['message_start', 'message_delta', 'error'])
const encoder = new TextEncoder()

export class AnthropicPassThrough extends PassThroughSource implements StreamSource {
  readonly clientFormat = true
  /** Reads only the events above: their usage and in-stream error. */
  private readonly reader: AnthropicStream
  /** message_delta (the output count) arrived. */
  private finalUsage = false

  constructor(private readonly call: RelayCall) {
    super()
    this.reader = new AnthropicStream(call)
  }

  protected region(bytes: Uint8Array): Forward {
    if (this.payload && !this.reader.error()) {
      const str = this.decoder.decode(bytes)
      if (str.indexOf('message_') === -1 && str.indexOf('error') === -1) {
        this.kept.push(bytes)
        return { bytes, payload: true }
      }
    }
    return this.sift(bytes)
  }

  /** Event by event: the name of each, the data of the ones that matter; cut at an error. */
  private sift(bytes: Uint8Array): Forward {
    let payload = false
    for (let start = 0; start < bytes.length; ) {
      const next = nextEvent(bytes, start)
      const name = eventName(bytes, start, next)
      if (name !== undefined && !READ.has(name)) payload = true
      else {
        for (const ev of eventsOf(this.decoder.decode(bytes.subarray(start, next)))) {
          this.reader.onEvent(ev)
          this.finalUsage ||= ev.event === 'message_delta' || ev.data.includes('"message_delta"')
          payload = true
        }
        if (this.reader.error()) return this.forward(bytes.subarray(0, start), payload)
      }
      start = next
    }
    return this.forward(bytes, payload)
  }

  usage(): Usage | undefined {
    return this.reader.usage()
  }

  error(): UpstreamError | undefined {
    return this.reader.error()
  }

  /** Until message_delta, message_start's output count is a placeholder: a cut stream's output is counted. */
  outputOpen(): boolean {
    return !this.finalUsage
  }

  /** The generated text (thinking, text, tool names and arguments), parsed from the forwarded bytes. */
  text(): string {
    return this.replay(new AnthropicStream(this.call)).text()
  }

  failure(error: UpstreamError, message: string): Uint8Array {
    return encoder.encode(anthropicStreamError(error.type, message))
  }
}
