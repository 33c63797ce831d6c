/** Cohere (type 36): chat v2 (stream, tools, vision), embed v2 and rerank v2 with a bearer key. */
import type { ChatRequest } from '../chat-types'
import type { ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { upstreamJson } from '../../lib/upstream-error'
import { toCohereChat, toOpenAIChat } from './chat'
import { fromCohereEmbed, fromCohereRerank, toCohereEmbed, toCohereRerank } from './embed-rerank'
import { CohereStream } from './stream'

export const COHERE_BASE_URL = 'https://api.cohere.com'

const PATHS = { chat: '/v2/chat', embeddings: '/v2/embed', rerank: '/v2/rerank' } as const
type CohereOp = keyof typeof PATHS
const isCohereOp = (op: string): op is CohereOp => op in PATHS

export const cohereAdapter: ProviderAdapter = {
  supports: isCohereOp,
  buildRequest(call, channel) {
    if (!isCohereOp(call.op)) throw new Error(`Cohere does not serve ${call.op}`)
    const json = call.json ?? {}
    const body =
      call.op === 'chat'
        ? toCohereChat(json as unknown as ChatRequest, call.model, call.stream)
        : call.op === 'embeddings'
          ? toCohereEmbed(json, call.model)
          : toCohereRerank(json, call.model)
    return new Request(joinUrl(channel.baseUrl || COHERE_BASE_URL, PATHS[call.op]), {
      method: 'POST',
      headers: { authorization: `Bearer ${channel.key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    })
  },
  async parseResponse(call, res) {
    const body = await upstreamJson(res)
    if (call.op === 'embeddings') return { kind: 'json', ...fromCohereEmbed(body, call.json ?? {}, call.model) }
    if (call.op === 'rerank') return { kind: 'json', ...fromCohereRerank(body, call.json ?? {}, call.model) }
    return { kind: 'json', ...toOpenAIChat(body, call.model) }
  },
  createStream: (call) => new CohereStream(call),
  parseError: (_status, body) => errorFromBody(body),
  modelsRequest: (channel) => new Request(joinUrl(channel.baseUrl || COHERE_BASE_URL, '/v1/models?page_size=1000'), { headers: { authorization: `Bearer ${channel.key}` } }),
  parseModels: (body: any) => (Array.isArray(body?.models) ? body.models.map((m: any) => String(m.name)) : []),
}
