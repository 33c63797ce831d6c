/**
 * Native pass-through for a client whose format the chosen channel speaks itself (an Anthropic
 * client on an Anthropic channel, a Gemini client on a Gemini channel): the client's validated
 * body goes upstream as sent (with the upstream model and the output cap the wallet paid for) and
 * the native answer and stream events come back unchanged (image URLs the relay fetched for the
 * channel, prompt-images.ts, go inline in the client's own format). The relay still sees chat — the supplier
 * adapter's own converter reads usage and text for billing, and the JSON it caches is the chat
 * answer — so billing, retries and the response cache do not depend on the format.
 *
 * A format with a byte pass-through (`passThrough`: Anthropic, Gemini) streams the supplier's bytes
 * to the client as they came (inbound/<format>/stream-pass.ts, chosen by relay-request.ts). Without
 * one (Responses), native stream events travel through the relay wrapped as `{"native": event}` and
 * the codec's stream encoder unwraps them. A native JSON answer is kept here under the id of its
 * chat view.
 */
import type { Usage } from '../../billing/formula'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import type { ChannelInfo, ParsedResponse, ProviderAdapter, RelayCall, StreamTransformer, UpstreamError } from '../../providers/types'
import type { SseEvent } from '../../../shared/contract/sse'
import { withInlineImages } from '../prompt-images'
import type { StreamSource } from '../stream-bytes'

export interface NativeSpec {
  /** Channel types that speak the format natively. */
  channelTypes: readonly number[]
  /** The upstream request for the client's body (model, stream flag and output cap already applied by `prepare`). */
  buildRequest(body: Record<string, unknown>, call: RelayCall, channel: ChannelInfo): Request
  /** The client's body for this call: upstream model, stream flag, the wallet's output cap. */
  prepare(body: Record<string, unknown>, call: RelayCall): Record<string, unknown>
  /** The supplier adapter's chat view of a native answer (for usage, text and the cache). */
  toChat(answer: unknown, call: RelayCall): { body: unknown; usage?: Usage; text: string }
  /** The supplier adapter's chat stream converter, used only for usage, text and in-stream errors. */
  chatStream(call: RelayCall): StreamTransformer
  /** The stream source forwarding the supplier's bytes unchanged to a client of this format. */
  passThrough?(call: RelayCall): StreamSource
  parseError(status: number, body: string): UpstreamError
}

/** Wraps the chat converter: native events pass through wrapped; usage/text/errors come from the converter. */
class PassThroughStream implements StreamTransformer {
  constructor(private readonly inner: StreamTransformer) {}

  onEvent(event: SseEvent): string[] {
    this.inner.onEvent(event)
    let data: unknown
    try {
      data = JSON.parse(event.data)
    } catch {
      return []
    }
    // In-stream errors are reported through error(); the relay then writes its own error payload.
    if (!data || typeof data !== 'object' || 'error' in data || (data as { type?: unknown }).type === 'error') return []
    return [JSON.stringify({ native: data })]
  }
  usage = () => this.inner.usage()
  text = () => this.inner.text()
  error = () => this.inner.error?.()
  usageChunk = () => JSON.stringify({ native_usage: true })
}

/** A native adapter; `passThrough`, when the format has one, replaces `createStream` for streams. */
export type NativeAdapter = ProviderAdapter & { passThrough?(call: RelayCall): StreamSource }

export class NativePassThrough {
  private body: Record<string, unknown> | undefined
  private readonly answers = new Map<string, unknown>()

  constructor(private readonly spec: NativeSpec) {}

  /** The client's validated body (set by the codec when it converts the request); `models` (the request's fallbacks) is the gateway's, never sent. */
  keep(body: Record<string, unknown>) {
    const { models: _fallbacks, ...rest } = body
    this.body = rest
  }

  adapterFor(channelType: number): NativeAdapter | undefined {
    if (!this.body || !this.spec.channelTypes.includes(channelType)) return undefined
    const spec = this.spec
    const body = this.body
    return {
      supports: (op) => op === 'chat',
      buildRequest: (call, channel) => spec.buildRequest(spec.prepare(call.images ? withInlineImages(body, call.images) : body, call), call, channel),
      parseResponse: async (call, res): Promise<ParsedResponse> => {
        const text = await res.text()
        let answer: unknown
        try {
          answer = JSON.parse(text)
        } catch (err) {
          throw new MalformedUpstreamError(`upstream returned malformed JSON: ${(err as Error).message}`)
        }
        const chat = spec.toChat(answer, call)
        this.answers.set(String((chat.body as { id?: unknown }).id), answer)
        return { kind: 'json', ...chat }
      },
      createStream: (call) => new PassThroughStream(spec.chatStream(call)),
      passThrough: spec.passThrough,
      parseError: (status, text) => spec.parseError(status, text),
    }
  }

  /** The native answer behind a chat answer this request received, if it came from a native channel. */
  answerFor(chat: Record<string, unknown>): unknown {
    return this.answers.get(String(chat.id))
  }
}
