/**
 * Channel type → adapter and the metadata the console shows (name, key and base-URL hints).
 * The only place that switches on the supplier type. Type ids follow one-hub so data imports.
 */
import type { ProviderAdapter } from './types'
import { openAIBaseAdapter } from './openai/adapter'
import { azureAdapter } from './azure/adapter'
import { anthropicAdapter } from './anthropic/adapter'
import { geminiAdapter } from './gemini/adapter'
import { deepseekBalance, moonshotBalance, openAIBalance, siliconflowBalance, type BalanceQuery } from './balance'

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
}

const compatible = (id: number, name: string, defaultBaseUrl: string, models: string[], balance?: BalanceQuery): ChannelType => ({
  id,
  name,
  adapter: openAIBaseAdapter({ defaultBaseUrl }),
  defaultBaseUrl,
  keyHint: 'sk-…',
  baseUrlHint: defaultBaseUrl,
  balance,
  models,
})

export const CHANNEL_TYPES: ChannelType[] = [
  {
    ...compatible(1, 'OpenAI', 'https://api.openai.com', ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'text-embedding-3-small', 'text-embedding-3-large', 'dall-e-3', 'whisper-1', 'tts-1'], openAIBalance),
    keyHint: 'sk-… (one key per line in batch mode)',
  },
  {
    id: 3,
    name: 'Azure OpenAI',
    adapter: azureAdapter,
    defaultBaseUrl: '',
    keyHint: 'Azure resource key',
    baseUrlHint: 'https://{resource}.openai.azure.com',
    otherHint: 'API version, e.g. 2024-10-21',
    models: ['gpt-4o', 'gpt-4o-mini', 'gpt-35-turbo'],
  },
  {
    ...compatible(8, 'Custom (OpenAI-compatible)', '', [], openAIBalance),
    baseUrlHint: 'https://your-relay.example.com (the /v1 paths are appended)',
  },
  {
    id: 14,
    name: 'Anthropic Claude',
    adapter: anthropicAdapter,
    defaultBaseUrl: 'https://api.anthropic.com',
    keyHint: 'sk-ant-…',
    baseUrlHint: 'https://api.anthropic.com',
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1', 'claude-3-5-haiku-latest'],
  },
  {
    id: 25,
    name: 'Google Gemini',
    adapter: geminiAdapter,
    defaultBaseUrl: 'https://generativelanguage.googleapis.com',
    keyHint: 'AIza…',
    baseUrlHint: 'https://generativelanguage.googleapis.com',
    otherHint: 'API version (default v1beta)',
    models: ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.0-flash'],
  },
  compatible(28, 'DeepSeek', 'https://api.deepseek.com', ['deepseek-chat', 'deepseek-reasoner'], deepseekBalance),
  compatible(29, 'Moonshot', 'https://api.moonshot.cn', ['moonshot-v1-8k', 'moonshot-v1-32k', 'kimi-k2-0711-preview'], moonshotBalance),
  compatible(30, 'Mistral', 'https://api.mistral.ai', ['mistral-large-latest', 'mistral-small-latest', 'mistral-embed']),
  compatible(31, 'Groq', 'https://api.groq.com/openai', ['llama-3.3-70b-versatile', 'llama-3.1-8b-instant']),
  compatible(56, 'xAI', 'https://api.x.ai', ['grok-4', 'grok-3-mini']),
  compatible(20, 'OpenRouter', 'https://openrouter.ai/api', ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4.5']),
  compatible(45, 'SiliconFlow', 'https://api.siliconflow.cn', ['deepseek-ai/DeepSeek-V3', 'Qwen/Qwen2.5-72B-Instruct', 'BAAI/bge-reranker-v2-m3'], siliconflowBalance),
]

const BY_ID = new Map(CHANNEL_TYPES.map((t) => [t.id, t]))

export function channelType(id: number): ChannelType | undefined {
  return BY_ID.get(id)
}
