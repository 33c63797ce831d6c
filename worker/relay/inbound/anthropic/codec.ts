/** The Anthropic Messages inbound codec: request, answer, stream and error conversions behind one InboundCodec. */
import type { InboundCodec } from '../types'
import { toChatRequest } from './request'
import { anthropicErrorResponse, toMessage } from './response'
import { AnthropicStreamEncoder } from './stream'

export const anthropicCodec: InboundCodec = {
  format: 'anthropic',
  toOpenAI: toChatRequest,
  fromOpenAI: toMessage,
  createStreamEncoder: () => new AnthropicStreamEncoder(),
  errorResponse: anthropicErrorResponse,
}
