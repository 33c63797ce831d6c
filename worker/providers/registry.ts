/**
 * Channel type → adapter and the metadata the console shows (key and base-URL hints; ids and names
 * come from the catalogue in shared/contract/channel-types.ts). The only place that switches on the
 * supplier type. Type ids follow one-hub so data imports.
 */
import { CHANNEL_TYPE_NAMES, type ChannelTypeId } from '../../shared/contract/channel-types'
import type { ProviderAdapter } from './types'
import { azureAdapter } from './azure/adapter'
import { anthropicAdapter } from './anthropic/adapter'
import { geminiAdapter } from './gemini/adapter'
import { bedrockAdapter } from './bedrock/adapter'
import { ZHIPU_BASE_URL, zhipuAdapter } from './zhipu/adapter'
import { HUNYUAN_BASE_URL, hunyuanAdapter } from './hunyuan/adapter'
import { vertexAdapter } from './vertex/adapter'
import { COHERE_BASE_URL, cohereAdapter } from './cohere/adapter'
import { CLOUDFLARE_API, cloudflareAdapter } from './cloudflare/adapter'
import { SPARK_BASE_URL, xunfeiAdapter } from './xunfei/adapter'
import { baiduAdapter, QIANFAN_V2_URL } from './baidu/adapter'
import { COZE_BASE_URL, cozeAdapter } from './coze/adapter'
import { azureSpeechAdapter } from './azure-speech/adapter'
import type { BalanceQuery } from './balance'
import { COMPATIBLE_PRESETS } from './compatible/presets'
import { ASYNC_TASK_TYPES } from './async-task/types'

export interface ChannelType {
  id: number
  name: string
  adapter: ProviderAdapter
  /** Base URL used when the channel leaves it empty ('' = the admin must give one). */
  defaultBaseUrl: string
  keyHint: string
  baseUrlHint: string
  /** Meaning of the "other" field, when the type uses it. */
  otherHint?: string
  /** How to read the supplier's account balance, when it exposes one. */
  balance?: BalanceQuery
  /** Models suggested in the channel form's picker. */
  models: string[]
  /** Chat features beyond plain chat (the operations come from `adapter.supports`). */
  features?: Feature[]
  /** The supplier cannot fetch image URLs in prompts itself: the gateway sends them inline (relay/prompt-images.ts). */
  inlineImages?: boolean
}

/** A registry entry: everything but the name, which the catalogue gives for its id. */
export type ChannelTypeEntry = Omit<ChannelType, 'id' | 'name'> & { id: ChannelTypeId }

/** Chat features a type offers for its usual models: streaming, tool calls, image input. */
export type Feature = 'stream' | 'tools' | 'vision'

const TRANSLATED: ChannelTypeEntry[] = [
  {
    id: 3,
    adapter: azureAdapter,
    defaultBaseUrl: '',
    keyHint: 'Azure resource key',
    baseUrlHint: 'https://{resource}.openai.azure.com',
    otherHint: 'API version, e.g. 2024-10-21',
    models: ['gpt-4o', 'gpt-4o-mini', 'gpt-35-turbo'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 14,
    adapter: anthropicAdapter,
    defaultBaseUrl: 'https://api.anthropic.com',
    keyHint: 'sk-ant-…',
    baseUrlHint: 'https://api.anthropic.com',
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-3-5-haiku-latest'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 25,
    adapter: geminiAdapter,
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    keyHint: 'AIza…',
    baseUrlHint: 'https://generativelanguage.googleapis.com',
    otherHint: 'API version (default v1beta)',
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash'],
    features: ['stream', 'tools', 'vision'],
    // fileData takes only the Files API's own URIs (and videos); any other image must come as inlineData.
    inlineImages: true,
  },
  {
    id: 32,
    adapter: bedrockAdapter,
    // A template for the console: the adapter puts the key's region into it.
    defaultBaseUrl: 'https://bedrock-runtime.{region}.amazonaws.com',
    keyHint: 'Region|AccessKeyID|SecretAccessKey[|SessionToken] or Region|BedrockAPIKey',
    baseUrlHint: 'https://bedrock-runtime.{region}.amazonaws.com (the region comes from the key)',
    models: [
      'anthropic.claude-3-5-haiku-20241022-v1:0',
      'us.anthropic.claude-sonnet-4-20250514-v1:0',
      'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      'meta.llama3-1-70b-instruct-v1:0',
      'us.meta.llama3-3-70b-instruct-v1:0',
      'amazon.nova-pro-v1:0',
      'amazon.nova-lite-v1:0',
    ],
    features: ['stream', 'tools', 'vision'],
    // Converse takes image bytes only.
    inlineImages: true,
  },
  {
    id: 16,
    adapter: zhipuAdapter,
    defaultBaseUrl: ZHIPU_BASE_URL,
    keyHint: 'id.secret (sent as a signed JWT)',
    baseUrlHint: `${ZHIPU_BASE_URL} (the /v4 paths are appended)`,
    models: ['glm-4-plus', 'glm-4-air', 'glm-4-flash', 'glm-4v-plus', 'glm-z1-air', 'embedding-3', 'cogview-3-plus'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 40,
    adapter: hunyuanAdapter,
    defaultBaseUrl: HUNYUAN_BASE_URL,
    keyHint: 'SecretId|SecretKey (TC3-HMAC-SHA256 signed)',
    baseUrlHint: HUNYUAN_BASE_URL,
    otherHint: 'Region (optional), e.g. ap-guangzhou',
    models: ['hunyuan-turbos-latest', 'hunyuan-turbo', 'hunyuan-large', 'hunyuan-standard', 'hunyuan-lite', 'hunyuan-vision', 'hunyuan-functioncall'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 42,
    adapter: vertexAdapter,
    // A template for the console: the adapter puts the region from "other" into it.
    defaultBaseUrl: 'https://{region}-aiplatform.googleapis.com',
    keyHint: 'The service-account JSON file (its private key signs the OAuth token request)',
    baseUrlHint: 'https://{region}-aiplatform.googleapis.com (region "global": https://aiplatform.googleapis.com)',
    otherHint: "Region|ProjectID, e.g. us-central1|my-project (project defaults to the service account's)",
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash', 'claude-sonnet-4@20250514', 'claude-3-5-haiku@20241022', 'claude-opus-4-1@20250805'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 36,
    adapter: cohereAdapter,
    defaultBaseUrl: COHERE_BASE_URL,
    keyHint: 'Cohere API key',
    baseUrlHint: COHERE_BASE_URL,
    models: ['command-a-03-2025', 'command-r-plus-08-2024', 'command-r-08-2024', 'command-a-vision-07-2025', 'embed-v4.0', 'embed-multilingual-v3.0', 'rerank-v3.5'],
    features: ['stream', 'tools', 'vision'],
  },
  {
    id: 35,
    adapter: cloudflareAdapter,
    defaultBaseUrl: CLOUDFLARE_API,
    keyHint: 'ACCOUNT_ID|API_TOKEN',
    baseUrlHint: `${CLOUDFLARE_API} (the /accounts/{id}/ai/v1 paths are appended)`,
    models: ['@cf/meta/llama-3.3-70b-instruct-fp8-fast', '@cf/meta/llama-3.1-8b-instruct', '@cf/qwen/qwq-32b', '@cf/baai/bge-m3'],
    features: ['stream', 'tools'],
  },
  {
    id: 18,
    adapter: xunfeiAdapter,
    defaultBaseUrl: SPARK_BASE_URL,
    keyHint: 'APPID|APISecret|APIKey (sent as APIKey:APISecret) or the HTTP APIPassword',
    baseUrlHint: SPARK_BASE_URL,
    models: ['lite', 'generalv3', 'pro-128k', 'generalv3.5', 'max-32k', '4.0Ultra', 'x1'],
    features: ['stream', 'tools'],
  },
  {
    id: 15,
    adapter: baiduAdapter,
    defaultBaseUrl: QIANFAN_V2_URL,
    keyHint: 'Qianfan API key (bce-v3/ALTAK-…) for the v2 endpoint, or a legacy application APIKey|SecretKey',
    baseUrlHint: `${QIANFAN_V2_URL} (v2 keys) · https://aip.baidubce.com (APIKey|SecretKey keys)`,
    models: ['ernie-4.0-8k-latest', 'ernie-4.0-turbo-8k', 'ernie-3.5-8k', 'ernie-speed-128k', 'ernie-lite-8k', 'embedding-v1'],
    features: ['stream', 'tools'],
  },
  {
    id: 38,
    adapter: cozeAdapter,
    defaultBaseUrl: COZE_BASE_URL,
    keyHint: 'Personal access token (pat_…); models are named coze-{bot_id}',
    baseUrlHint: `${COZE_BASE_URL} (China: https://api.coze.cn)`,
    models: [],
    features: ['stream'],
  },
  {
    id: 24,
    adapter: azureSpeechAdapter,
    // A template for the console: the adapter puts the region from "other" into it.
    defaultBaseUrl: 'https://{region}.tts.speech.microsoft.com',
    keyHint: 'Speech resource key',
    baseUrlHint: 'https://{region}.tts.speech.microsoft.com',
    otherHint: 'Region of the Speech resource, e.g. eastus',
    models: ['tts-1', 'tts-1-hd'],
  },
]

/** Every type, in id order (the console lists them in this order). */
export const CHANNEL_TYPES: ChannelType[] = [...TRANSLATED, ...COMPATIBLE_PRESETS, ...ASYNC_TASK_TYPES]
  .map((t) => ({ ...t, name: CHANNEL_TYPE_NAMES[t.id] }))
  .sort((a, b) => a.id - b.id)

const BY_ID = new Map(CHANNEL_TYPES.map((t) => [t.id, t]))

export function channelType(id: number): ChannelType | undefined {
  return BY_ID.get(id)
}
