/**
 * The Responses API inbound codec, one per request: it knows the response id, the parsed request
 * and the stored conversation it continues, and reports the finished response (to be stored).
 * Errors keep the OpenAI envelope, which the `openai` SDK already maps to its classes.
 */
import { openAIBody, type ApiError } from '../../../lib/errors'
import type { InboundCodec } from '../types'
import { toChatBody, type ChatMessage, type ResponsesRequest } from './request'
import { toResponse, type ResponseContext } from './response'
import { ResponsesStreamEncoder } from './stream'

export function responsesCodec(opts: {
  req: ResponsesRequest
  history: ChatMessage[]
  onComplete?: (response: Record<string, any>) => void
}): InboundCodec {
  const ctx: ResponseContext = { id: `resp_${crypto.randomUUID().replace(/-/g, '')}`, createdAt: Math.floor(Date.now() / 1000), req: opts.req }
  return {
    format: 'responses',
    toOpenAI: () => toChatBody(opts.req, opts.history),
    fromOpenAI(answer) {
      const response = toResponse(ctx, answer)
      opts.onComplete?.(response)
      return response
    },
    createStreamEncoder: () => new ResponsesStreamEncoder(ctx, opts.onComplete),
    errorResponse: (err: ApiError, requestId?: string) => Response.json(openAIBody(err, requestId), { status: err.status }),
  }
}
