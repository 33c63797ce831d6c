/**
 * The Gemini native inbound codecs, one per request (the model and action come from the URL):
 * generateContent / streamGenerateContent over the chat op, embedContent / batchEmbedContents over
 * the embeddings op. Gemini channels (type 25) get generate requests natively (native.ts), their
 * streams reaching the client as the supplier's bytes (stream-pass.ts). Errors in Google's envelope.
 */
import { toOpenAIChat } from '../../../providers/gemini/response'
import { GeminiStream } from '../../../providers/gemini/stream'
import { errorFromBody, joinUrl } from '../../../providers/url'
import { NativePassThrough } from '../native'
import type { InboundCodec } from '../types'
import { parseGenerate, toChatRequest, toEmbeddingsRequest, withGeminiOutputLimit } from './request'
import { googleErrorResponse, toEmbedResponse, toGenerateResponse } from './response'
import { GeminiStreamEncoder } from './stream'
import { GeminiPassThrough } from './stream-pass'

/** Channel types that speak Gemini generateContent natively. */
export const GEMINI_NATIVE_TYPES = [25] as const

function nativeGemini() {
  return new NativePassThrough({
    channelTypes: GEMINI_NATIVE_TYPES,
    prepare: (body, call) => withGeminiOutputLimit(body, call.maxOutputTokens),
    buildRequest(body, call, channel) {
      const action = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
      const path = `/${channel.other.trim() || 'v1beta'}/models/${encodeURIComponent(call.model)}:${action}`
      return new Request(joinUrl(channel.baseUrl || 'https://generativelanguage.googleapis.com', path), {
        method: 'POST',
        headers: { 'x-goog-api-key': channel.key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    },
    toChat: (answer, call) => toOpenAIChat(answer, call.model),
    chatStream: (call) => new GeminiStream(call),
    passThrough: (call) => new GeminiPassThrough(call),
    parseError: (_status, text) => errorFromBody(text),
  })
}

export function geminiGenerateCodec(model: string, stream: boolean): InboundCodec {
  const native = nativeGemini()
  return {
    format: 'gemini',
    toOpenAI(body) {
      const req = parseGenerate(body)
      native.keep(req as Record<string, unknown>)
      return toChatRequest(req, model, stream)
    },
    fromOpenAI: (answer) => native.answerFor(answer) ?? toGenerateResponse(answer),
    createStreamEncoder: () => new GeminiStreamEncoder(),
    errorResponse: googleErrorResponse,
    nativeAdapter: (type) => native.adapterFor(type),
  }
}

export function geminiEmbedCodec(model: string, batch: boolean): InboundCodec {
  return {
    format: 'gemini',
    toOpenAI: (body) => toEmbeddingsRequest(body, model, batch),
    fromOpenAI: (answer) => toEmbedResponse(answer, batch),
    createStreamEncoder: () => new GeminiStreamEncoder(),
    errorResponse: googleErrorResponse,
  }
}
