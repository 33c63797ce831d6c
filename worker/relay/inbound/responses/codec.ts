/**
 * The Responses API inbound codec, one per request: it knows the response id, the parsed request
 * and the stored conversation it continues, and reports the finished response (to be stored).
 * OpenAI channels (type 1) get the request natively (native.ts). Errors keep the OpenAI envelope,
 * which the `openai` SDK already maps to its classes.
 */
import { openAIBody, type ApiError } from '../../../lib/errors'
import { NativePassThrough } from '../native'
import type { InboundCodec } from '../types'
import { responsesNativeSpec } from './native'
import { toChatBody, type ChatMessage, type ResponsesRequest } from './request'
import { toResponse, type ResponseContext } from './response'
import { ResponsesStreamEncoder } from './stream'

export function responsesCodec(opts: { req: ResponsesRequest; history: ChatMessage[]; onComplete?: (response: Record<string, any>) => void }): InboundCodec {
  const ctx: ResponseContext = { id: `resp_${crypto.randomUUID().replace(/-/g, '')}`, createdAt: Math.floor(Date.now() / 1000), req: opts.req }
  const native = new NativePassThrough(responsesNativeSpec(opts.history))
  native.keep(opts.req as Record<string, unknown>)
  return {
    format: 'responses',
    toOpenAI: () => toChatBody(opts.req, opts.history),
    fromOpenAI(answer) {
      const response = (native.answerFor(answer) as Record<string, any> | undefined) ?? toResponse(ctx, answer)
      opts.onComplete?.(response)
      return response
    },
    createStreamEncoder: () => new ResponsesStreamEncoder(ctx, opts.onComplete),
    errorResponse: (err: ApiError, requestId?: string) => Response.json(openAIBody(err, requestId), { status: err.status }),
    nativeAdapter: (type) => native.adapterFor(type),
  }
}
