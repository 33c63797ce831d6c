/**
 * Cloudflare Workers AI (type 35) through its OpenAI-compatible endpoint
 * (`/accounts/{account}/ai/v1/...`), with the `ACCOUNT_ID|API_TOKEN` key. The base URL, when set,
 * replaces `https://api.cloudflare.com/client/v4` (e.g. a proxy).
 */
import type { ProviderAdapter } from '../types'
import { openAIBaseAdapter, openAIRequest, OPENAI_PATHS } from '../openai/adapter'
import { joinUrl } from '../url'
import { keyProblemMessage } from '../../../shared/contract/key-format'

export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4'

export const cloudflareKeyProblem = (key: string) => keyProblemMessage(35, key)

function parts(key: string): { account: string; token: string } {
  const problem = cloudflareKeyProblem(key)
  if (problem) throw new Error(problem)
  const [account, token] = key.split('|').map((p) => p.trim()) as [string, string]
  return { account, token }
}

const base = openAIBaseAdapter({ defaultBaseUrl: CLOUDFLARE_API, ops: ['chat', 'embeddings'] })
const url = (baseUrl: string, account: string, path: string) => joinUrl(baseUrl || CLOUDFLARE_API, `/accounts/${account}/ai${path}`)

export const cloudflareAdapter: ProviderAdapter = {
  ...base,
  buildRequest(call, channel) {
    const { account, token } = parts(channel.key)
    return openAIRequest(url(channel.baseUrl, account, OPENAI_PATHS[call.op]), call, { authorization: `Bearer ${token}` })
  },
  modelsRequest(channel) {
    const { account, token } = parts(channel.key)
    return new Request(joinUrl(channel.baseUrl || CLOUDFLARE_API, `/accounts/${account}/ai/models/search?per_page=1000&task=Text%20Generation`), {
      headers: { authorization: `Bearer ${token}` },
    })
  },
  parseModels: (body: any) => (Array.isArray(body?.result) ? body.result.map((m: any) => String(m.name)) : []),
}
