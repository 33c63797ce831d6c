/**
 * The Anthropic Messages inbound codec, one per request: request, answer, stream and error
 * conversions behind one InboundCodec, plus the native pass-through to Anthropic channels
 * (type 14), which receive the client's body as sent (standard-price anthropic-betas forwarded,
 * premium options removed: premium-options.ts); their streams reach the client as the supplier's
 * bytes (stream-pass.ts).
 */
import { ANTHROPIC_VERSION } from '../../../providers/anthropic/adapter'
import { toOpenAIChat } from '../../../providers/anthropic/response'
import { AnthropicStream } from '../../../providers/anthropic/stream'
import { errorFromBody, joinUrl } from '../../../providers/url'
import { withoutPremiumOptions } from '../../premium-options'
import { NativePassThrough } from '../native'
import type { InboundCodec } from '../types'
import { chatFromMessages, parseMessages } from './request'
import { anthropicErrorResponse, toMessage } from './response'
import { AnthropicStreamEncoder } from './stream'
import { AnthropicPassThrough } from './stream-pass'

/** Channel types that speak Anthropic Messages natively. */
export const ANTHROPIC_NATIVE_TYPES = [14] as const

export function anthropicCodec(opts: { beta?: string } = {}): InboundCodec {
  const native = new NativePassThrough({
    channelTypes: ANTHROPIC_NATIVE_TYPES,
    prepare(body, call) {
      const out: Record<string, unknown> = withoutPremiumOptions({ ...body, model: call.model })
      delete out.stream
      if (call.stream) out.stream = true
      // The one output limit the wallet held for (thinking.budget_tokens counts inside it).
      if (call.maxOutputTokens !== undefined) out.max_tokens = call.maxOutputTokens
      return out
    },
    buildRequest: (body, _call, channel) =>
      new Request(joinUrl(channel.baseUrl || 'https://api.anthropic.com', '/v1/messages'), {
        method: 'POST',
        headers: {
          'x-api-key': channel.key,
          'anthropic-version': ANTHROPIC_VERSION,
          'content-type': 'application/json',
          ...(opts.beta ? { 'anthropic-beta': opts.beta } : {}),
        },
        body: JSON.stringify(body),
      }),
    toChat: (answer) => toOpenAIChat(answer),
    chatStream: (call) => new AnthropicStream(call),
    passThrough: (call) => new AnthropicPassThrough(call),
    parseError: (_status, text) => errorFromBody(text),
  })
  return {
    format: 'anthropic',
    toOpenAI(body) {
      const req = parseMessages(body)
      native.keep(req as Record<string, unknown>)
      return chatFromMessages(req as typeof req & { max_tokens: number })
    },
    fromOpenAI: (answer) => native.answerFor(answer) ?? toMessage(answer),
    createStreamEncoder: () => new AnthropicStreamEncoder(),
    errorResponse: anthropicErrorResponse,
    nativeAdapter: (type) => native.adapterFor(type),
  }
}
