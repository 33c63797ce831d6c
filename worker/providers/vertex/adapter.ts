/**
 * Google Vertex AI (type 42): Gemini models through generateContent / streamGenerateContent and
 * Claude models through rawPredict / streamRawPredict, with an OAuth token from the channel's
 * service-account JSON. `other` is `Region|ProjectID` (project defaults to the account's own).
 * Unlike the other adapters this one does I/O: the token exchange, cached per service account.
 */
import type { ChatRequest } from '../chat-types'
import type { ChannelInfo, ProviderAdapter, RelayCall } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { upstreamJson } from '../../lib/upstream-error'
import { toAnthropicRequest } from '../anthropic/request'
import { toOpenAIChat as anthropicToOpenAI } from '../anthropic/response'
import { AnthropicStream } from '../anthropic/stream'
import { toGeminiRequest } from '../gemini/request'
import { toOpenAIChat as geminiToOpenAI } from '../gemini/response'
import { GeminiStream } from '../gemini/stream'
import { parseServiceAccount, tokenSource, type Fetcher } from './token'

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16'
export const DEFAULT_REGION = 'us-central1'

const isClaude = (model: string) => model.startsWith('claude')

export const vertexHost = (region: string) => (region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`)

/** `Region|ProjectID` from `other`, with the region defaulting to us-central1 and the project to the account's. */
export function vertexLocation(other: string, saProject: string | undefined): { region: string; project: string } {
  const [region, project] = other.split('|').map((p) => p.trim())
  const p = project || saProject
  if (!p) throw new Error('Vertex AI needs a project id: put Region|ProjectID in the channel\'s "other" field')
  return { region: region || DEFAULT_REGION, project: p }
}

function modelUrl(call: RelayCall, channel: ChannelInfo, region: string, project: string): string {
  const claude = isClaude(call.model)
  const publisher = claude ? 'anthropic' : 'google'
  const action = claude ? (call.stream ? 'streamRawPredict' : 'rawPredict') : call.stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  const model = encodeURIComponent(call.model).replace(/%40/g, '@')
  return joinUrl(channel.baseUrl || vertexHost(region), `/v1/projects/${project}/locations/${region}/publishers/${publisher}/models/${model}:${action}`)
}

export function createVertexAdapter(fetcher: Fetcher): ProviderAdapter {
  const accessToken = tokenSource(fetcher)
  return {
    supports: (op) => op === 'chat',
    async buildRequest(call, channel) {
      const sa = parseServiceAccount(channel.key)
      const { region, project } = vertexLocation(channel.other, sa.project_id)
      const json = call.json as unknown as ChatRequest
      let body: Record<string, unknown>
      if (isClaude(call.model)) {
        const { model: _model, ...rest } = toAnthropicRequest(json, call.model, call.stream)
        body = { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest }
      } else body = toGeminiRequest(json)
      return new Request(modelUrl(call, channel, region, project), {
        method: 'POST',
        headers: { authorization: `Bearer ${await accessToken(sa)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    },
    async parseResponse(call, res) {
      const body = await upstreamJson(res)
      return { kind: 'json', ...(isClaude(call.model) ? anthropicToOpenAI(body) : geminiToOpenAI(body, call.model)) }
    },
    createStream: (call) => (isClaude(call.model) ? new AnthropicStream(call) : new GeminiStream(call)),
    parseError: (_status, body) => errorFromBody(body),
  }
}

export const vertexAdapter = createVertexAdapter((req) => fetch(req))
