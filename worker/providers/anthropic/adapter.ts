/** Anthropic Claude: OpenAI chat ↔ Messages API (request, answer and stream), chat only. */
import type { ChatRequest } from '../chat-types'
import type { ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { upstreamJson } from '../../lib/upstream-error'
import { toAnthropicRequest } from './request'
import { toOpenAIChat } from './response'
import { AnthropicStream } from './stream'

export const ANTHROPIC_VERSION = '2023-06-01'
const headers = (key: string) => ({ 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION })

export const anthropicAdapter: ProviderAdapter = {
  supports: (op) => op === 'chat',
  buildRequest(call, channel) {
    const body = toAnthropicRequest(call.json as unknown as ChatRequest, call.model, call.stream)
    return new Request(joinUrl(channel.baseUrl || 'https://api.anthropic.com', '/v1/messages'), {
      method: 'POST',
      headers: { ...headers(channel.key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  },
  async parseResponse(_call, res) {
    const body = await upstreamJson(res)
    return { kind: 'json', ...toOpenAIChat(body) }
  },
  createStream: (call) => new AnthropicStream(call),
  parseError: (_status, body) => errorFromBody(body),
  modelsRequest: (channel) => new Request(joinUrl(channel.baseUrl || 'https://api.anthropic.com', '/v1/models'), { headers: headers(channel.key) }),
  parseModels: (body: any) => (Array.isArray(body?.data) ? body.data.map((m: any) => String(m.id)) : []),
}
