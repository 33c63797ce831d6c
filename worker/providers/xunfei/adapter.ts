/**
 * Xunfei Spark (type 18) through its HTTP OpenAI-compatible endpoint (`/v1/chat/completions`;
 * the X1 model on `/v2`). one-hub's `APPID|APISecret|APIKey` key is sent as
 * `Bearer APIKey:APISecret`, which that endpoint accepts; any other key (an APIPassword) as is.
 * The older WebSocket API with the HMAC-signed URL is not used.
 */
import type { ProviderAdapter } from '../types'
import { openAIBaseAdapter, openAIRequest } from '../openai/adapter'
import { joinUrl } from '../url'

export const SPARK_BASE_URL = 'https://spark-api-open.xf-yun.com'

export function sparkBearer(key: string): string {
  const parts = key.split('|').map((p) => p.trim())
  return parts.length === 3 && parts.every(Boolean) ? `${parts[2]}:${parts[1]}` : key.trim()
}

const base = openAIBaseAdapter({ defaultBaseUrl: SPARK_BASE_URL, ops: ['chat'], authHeaders: (key) => ({ authorization: `Bearer ${sparkBearer(key)}` }) })

export const xunfeiAdapter: ProviderAdapter = {
  ...base,
  buildRequest(call, channel) {
    const version = /^x1/i.test(call.model) ? 'v2' : 'v1'
    return openAIRequest(joinUrl(channel.baseUrl || SPARK_BASE_URL, `/${version}/chat/completions`), call, {
      authorization: `Bearer ${sparkBearer(channel.key)}`,
    })
  },
  modelsRequest: undefined,
  parseModels: undefined,
}
