/**
 * The Gemini native inbound codecs, one per request (the model and action come from the URL):
 * generateContent / streamGenerateContent over the chat op, embedContent / batchEmbedContents over
 * the embeddings op. Errors in Google's envelope.
 */
import type { InboundCodec } from '../types'
import { parseGenerate, toChatRequest, toEmbeddingsRequest } from './request'
import { googleErrorResponse, toEmbedResponse, toGenerateResponse } from './response'
import { GeminiStreamEncoder } from './stream'

export function geminiGenerateCodec(model: string, stream: boolean): InboundCodec {
  return {
    format: 'gemini',
    toOpenAI: (body) => toChatRequest(parseGenerate(body), model, stream),
    fromOpenAI: toGenerateResponse,
    createStreamEncoder: () => new GeminiStreamEncoder(),
    errorResponse: googleErrorResponse,
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

