/**
 * Zhipu GLM (type 16): the OpenAI-shaped v4 API (`/api/paas/v4/...`) with the `id.secret` key
 * sent as a cached JWT (raw Authorization header); other key forms go as a bearer token.
 */
import type { ProviderAdapter } from '../types'
import { openAIBaseAdapter, openAIRequest, OPENAI_PATHS, versionedPath } from '../openai/adapter'
import { joinUrl } from '../url'
import { cachedZhipuJwt, splitZhipuKey } from './jwt'
import { keyProblemMessage } from '../../../shared/contract/key-format'

export const ZHIPU_BASE_URL = 'https://open.bigmodel.cn/api/paas'

const base = openAIBaseAdapter({ defaultBaseUrl: ZHIPU_BASE_URL, apiVersion: 'v4', ops: ['chat', 'embeddings', 'images.generations'] })

export const zhipuAdapter: ProviderAdapter = {
  ...base,
  async buildRequest(call, channel) {
    const authorization = splitZhipuKey(channel.key) ? await cachedZhipuJwt(channel.key) : `Bearer ${channel.key}`
    const url = joinUrl(channel.baseUrl || ZHIPU_BASE_URL, versionedPath(OPENAI_PATHS[call.op], 'v4'))
    return openAIRequest(url, call, { authorization })
  },
}

/** Why a key cannot be a Zhipu key (the console's format check). */
export const zhipuKeyProblem = (key: string) => keyProblemMessage(16, key)
