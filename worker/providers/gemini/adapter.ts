/**
 * Google Gemini: OpenAI chat ↔ generateContent / streamGenerateContent (alt=sse). API version from
 * the channel's "other" field (default v1beta); the key goes in `x-goog-api-key`.
 */
import type { ChatRequest } from '../chat-types'
import type { ChannelInfo, ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { upstreamJson } from '../../lib/upstream-error'
import { toGeminiRequest } from './request'
import { toOpenAIChat } from './response'
import { GeminiStream } from './stream'

const DEFAULT_BASE = 'https://generativelanguage.googleapis.com'
/** `{base}/{version}{path}`, without doubling a version the admin already put in the base URL. */
const apiUrl = (ch: ChannelInfo, path: string) => joinUrl(ch.baseUrl || DEFAULT_BASE, `/${ch.other.trim() || 'v1beta'}${path}`)

export const geminiAdapter: ProviderAdapter = {
  supports: (op) => op === 'chat',
  buildRequest(call, channel) {
    const action = call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
    return new Request(apiUrl(channel, `/models/${encodeURIComponent(call.model)}:${action}`), {
      method: 'POST',
      headers: { 'x-goog-api-key': channel.key, 'content-type': 'application/json' },
      body: JSON.stringify(toGeminiRequest(call.json as unknown as ChatRequest)),
    })
  },
  async parseResponse(call, res) {
    const body = await upstreamJson(res)
    return { kind: 'json', ...toOpenAIChat(body, call.model) }
  },
  createStream: (call) => new GeminiStream(call),
  parseError: (_status, body) => errorFromBody(body),
  modelsRequest: (channel) => new Request(apiUrl(channel, '/models?pageSize=1000'), { headers: { 'x-goog-api-key': channel.key } }),
  parseModels: (body: any) => (Array.isArray(body?.models) ? body.models.map((m: any) => String(m.name).replace(/^models\//, '')) : []),
}
