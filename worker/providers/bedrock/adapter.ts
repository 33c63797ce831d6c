/**
 * AWS Bedrock through the Converse API (one schema for Claude, Llama, Nova, Mistral…): chat and
 * stream, SigV4-signed (or a Bedrock API key as bearer), the event-stream answer decoded to SSE.
 */
import type { ChatRequest } from '../chat-types'
import type { ProviderAdapter } from '../types'
import { errorFromBody, joinUrl } from '../url'
import { upstreamJson } from '../../lib/upstream-error'
import { eventStreamToSse } from './event-stream'
import { parseBedrockKey } from './key'
import { toConverseRequest } from './request'
import { toOpenAIChat } from './response'
import { authorizeBedrock } from './sign'
import { BedrockStream } from './stream'

export const bedrockHost = (region: string) => `https://bedrock-runtime.${region}.amazonaws.com`

export const bedrockAdapter: ProviderAdapter = {
  supports: (op) => op === 'chat',
  async buildRequest(call, channel) {
    const creds = parseBedrockKey(channel.key)
    const path = `/model/${encodeURIComponent(call.model)}/${call.stream ? 'converse-stream' : 'converse'}`
    const body = JSON.stringify(toConverseRequest(call.json as unknown as ChatRequest, call.model))
    return authorizeBedrock(
      { method: 'POST', url: joinUrl(channel.baseUrl || bedrockHost(creds.region), path), headers: { 'content-type': 'application/json', accept: 'application/json' }, body },
      creds
    )
  },
  async parseResponse(call, res) {
    const body = await upstreamJson(res)
    return { kind: 'json', ...toOpenAIChat(body, call.model) }
  },
  createStream: (call) => new BedrockStream(call),
  toSseStream: eventStreamToSse,
  parseError(_status, body) {
    // AWS JSON errors use "message" or "Message".
    try {
      const j = JSON.parse(body)
      if (typeof j?.Message === 'string') return { message: j.Message }
    } catch {
      // not JSON
    }
    return errorFromBody(body)
  },
}
