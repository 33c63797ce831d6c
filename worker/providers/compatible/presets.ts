/**
 * The OpenAI-compatible suppliers: one preset line each (one-hub type id, default base URL,
 * version segment, operations, suggested models, balance query). They all share the pass-through
 * OpenAI adapter; only the URL, the version segment and the supported operations differ.
 */
import type { RelayOp, UpstreamError } from '../types'
import { openAIBaseAdapter } from '../openai/adapter'
import { deepseekBalance, moonshotBalance, openAIBalance, openRouterBalance, siliconflowBalance, type BalanceQuery } from '../balance'
import type { ChannelTypeId } from '../../../shared/contract/channel-types'
import type { ChannelTypeEntry, Feature } from '../registry'

const CHAT: RelayOp[] = ['chat']
const CHAT_EMBED: RelayOp[] = ['chat', 'embeddings']

interface Preset {
  id: ChannelTypeId
  defaultBaseUrl: string
  models: string[]
  /** Operations the supplier serves (default: every OpenAI operation). */
  ops?: RelayOp[]
  /** Version segment of its paths (default v1). */
  apiVersion?: string
  balance?: BalanceQuery
  features?: Feature[]
  keyHint?: string
  baseUrlHint?: string
  bodyError?: (body: any) => UpstreamError | undefined
  authHeaders?: (key: string) => Record<string, string>
}

/** MiniMax reports failures as `base_resp: {status_code ≠ 0, status_msg}`, often with HTTP 200. */
export function miniMaxError(body: any): UpstreamError | undefined {
  const r = body?.base_resp
  return r && typeof r.status_code === 'number' && r.status_code !== 0 ? { message: String(r.status_msg ?? 'MiniMax error'), code: String(r.status_code) } : undefined
}

export const compatible = (p: Preset): ChannelTypeEntry => ({
  id: p.id,
  adapter: openAIBaseAdapter({ defaultBaseUrl: p.defaultBaseUrl, ops: p.ops, apiVersion: p.apiVersion, bodyError: p.bodyError, authHeaders: p.authHeaders }),
  defaultBaseUrl: p.defaultBaseUrl,
  keyHint: p.keyHint ?? 'sk-…',
  baseUrlHint: p.baseUrlHint ?? p.defaultBaseUrl,
  balance: p.balance,
  features: p.features ?? ['stream', 'tools'],
  models: p.models,
})

const ALL: Feature[] = ['stream', 'tools', 'vision']

export const COMPATIBLE_PRESETS: ChannelTypeEntry[] = [
  {
    ...compatible({
      id: 1,
      defaultBaseUrl: 'https://api.openai.com',
      models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'text-embedding-3-small', 'text-embedding-3-large', 'dall-e-3', 'whisper-1', 'tts-1'],
      balance: openAIBalance,
      features: ALL,
    }),
    keyHint: 'sk-… (one key per line in batch mode)',
  },
  {
    ...compatible({ id: 8, defaultBaseUrl: '', models: [], balance: openAIBalance, features: ALL }),
    baseUrlHint: 'https://your-relay.example.com (the /v1 paths are appended)',
  },
  compatible({
    id: 28,
    defaultBaseUrl: 'https://api.deepseek.com',
    ops: ['chat', 'completions'],
    models: ['deepseek-chat', 'deepseek-reasoner'],
    balance: deepseekBalance,
  }),
  compatible({
    id: 29,
    defaultBaseUrl: 'https://api.moonshot.cn',
    ops: CHAT,
    models: ['moonshot-v1-8k', 'moonshot-v1-32k', 'kimi-k2-0711-preview'],
    balance: moonshotBalance,
    features: ALL,
  }),
  compatible({
    id: 30,
    keyHint: 'Mistral API key',
    defaultBaseUrl: 'https://api.mistral.ai',
    ops: ['chat', 'embeddings', 'moderations'],
    models: ['mistral-large-latest', 'mistral-small-latest', 'pixtral-large-latest', 'mistral-embed'],
    features: ALL,
  }),
  compatible({
    id: 31,
    keyHint: 'gsk_…',
    defaultBaseUrl: 'https://api.groq.com/openai',
    ops: ['chat', 'audio.transcriptions', 'audio.translations'],
    models: ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant', 'whisper-large-v3'],
  }),
  compatible({
    id: 56,
    keyHint: 'xai-…',
    defaultBaseUrl: 'https://api.x.ai',
    ops: ['chat', 'images.generations'],
    models: ['grok-4', 'grok-3-mini', 'grok-2-image'],
    features: ALL,
  }),
  compatible({
    id: 20,
    keyHint: 'sk-or-v1-…',
    defaultBaseUrl: 'https://openrouter.ai/api',
    ops: ['chat', 'completions'],
    models: ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5'],
    balance: openRouterBalance,
    features: ALL,
  }),
  compatible({
    id: 45,
    defaultBaseUrl: 'https://api.siliconflow.cn',
    ops: ['chat', 'embeddings', 'rerank', 'images.generations', 'audio.speech', 'audio.transcriptions'],
    models: ['deepseek-ai/DeepSeek-V3', 'Qwen/Qwen2.5-72B-Instruct', 'BAAI/bge-m3', 'BAAI/bge-reranker-v2-m3'],
    balance: siliconflowBalance,
  }),
  compatible({
    id: 17,
    defaultBaseUrl: 'https://dashscope.aliyuncs.com/compatible-mode',
    ops: CHAT_EMBED,
    models: ['qwen-max', 'qwen-plus', 'qwen-turbo', 'qwen-vl-max', 'text-embedding-v3'],
    features: ALL,
    baseUrlHint: 'https://dashscope.aliyuncs.com/compatible-mode (international: https://dashscope-intl.aliyuncs.com/compatible-mode)',
  }),
  compatible({
    id: 26,
    defaultBaseUrl: 'https://api.baichuan-ai.com',
    ops: CHAT_EMBED,
    models: ['Baichuan4-Turbo', 'Baichuan4', 'Baichuan3-Turbo', 'Baichuan-Text-Embedding'],
  }),
  compatible({
    id: 27,
    keyHint: 'MiniMax API key',
    defaultBaseUrl: 'https://api.minimax.chat',
    ops: CHAT,
    models: ['MiniMax-Text-01', 'abab6.5s-chat'],
    bodyError: miniMaxError,
  }),
  compatible({ id: 33, defaultBaseUrl: 'https://api.lingyiwanwu.com', ops: CHAT, models: ['yi-lightning', 'yi-large', 'yi-vision'], features: ALL }),
  compatible({
    id: 39,
    defaultBaseUrl: 'https://ollama.com',
    ops: CHAT_EMBED,
    models: ['llama3.2', 'qwen2.5', 'nomic-embed-text'],
    keyHint: 'ollama.com API key (any text for a local server)',
    baseUrlHint: 'http://127.0.0.1:11434 for a local server (its /v1 OpenAI-compatible endpoint is used)',
    features: ALL,
  }),
  compatible({
    id: 47,
    defaultBaseUrl: 'https://api.jina.ai',
    ops: ['embeddings', 'rerank'],
    models: ['jina-embeddings-v3', 'jina-clip-v2', 'jina-reranker-v2-base-multilingual', 'jina-reranker-m0'],
    keyHint: 'jina_…',
    features: [],
  }),
  compatible({
    id: 49,
    defaultBaseUrl: 'https://models.github.ai/inference',
    apiVersion: '',
    ops: ['chat', 'embeddings'],
    models: ['openai/gpt-4.1', 'openai/gpt-4.1-mini', 'meta/Llama-3.3-70B-Instruct', 'deepseek/DeepSeek-V3-0324', 'openai/text-embedding-3-small'],
    keyHint: 'GitHub token with the models:read permission (github_pat_… or ghp_…)',
    features: ALL,
  }),
  {
    ...compatible({
      id: 55,
      defaultBaseUrl: '',
      apiVersion: 'openai/v1',
      ops: ['chat', 'completions', 'embeddings', 'images.generations', 'audio.speech', 'audio.transcriptions', 'audio.translations'],
      models: ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o', 'o4-mini'],
      keyHint: 'Azure resource key',
      authHeaders: (key) => ({ 'api-key': key }),
      features: ALL,
    }),
    baseUrlHint: 'https://{resource}.openai.azure.com (the /openai/v1 paths are appended; the model is the deployment name)',
  },
  // Suppliers one-hub reaches only through "Custom": ids above one-hub's range so they never collide.
  compatible({
    id: 1001,
    keyHint: 'Together API key',
    defaultBaseUrl: 'https://api.together.xyz',
    ops: ['chat', 'completions', 'embeddings', 'images.generations', 'rerank'],
    models: ['meta-llama/Llama-3.3-70B-Instruct-Turbo', 'deepseek-ai/DeepSeek-V3'],
  }),
  compatible({
    id: 1002,
    keyHint: 'fw_…',
    defaultBaseUrl: 'https://api.fireworks.ai/inference',
    ops: ['chat', 'completions', 'embeddings'],
    models: ['accounts/fireworks/models/llama-v3p3-70b-instruct', 'accounts/fireworks/models/deepseek-v3'],
  }),
  compatible({
    id: 1003,
    keyHint: 'pplx-…',
    defaultBaseUrl: 'https://api.perplexity.ai',
    apiVersion: '',
    ops: CHAT,
    models: ['sonar', 'sonar-pro', 'sonar-reasoning'],
    features: ['stream'],
  }),
  compatible({
    id: 1004,
    keyHint: 'StepFun API key',
    defaultBaseUrl: 'https://api.stepfun.com',
    ops: ['chat', 'embeddings', 'images.generations', 'audio.speech', 'audio.transcriptions'],
    models: ['step-1-8k', 'step-1-32k', 'step-1v-8k', 'step-2-16k'],
    features: ALL,
  }),
]
