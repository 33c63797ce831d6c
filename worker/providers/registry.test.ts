/** Channel-type registry: unique one-hub ids, names, chat-capable adapters and lookups. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall } from '../test/stream-harness'
import { anthropicAdapter } from './anthropic/adapter'
import { azureAdapter } from './azure/adapter'
import { geminiAdapter } from './gemini/adapter'
import { bedrockAdapter } from './bedrock/adapter'
import { CHANNEL_TYPE_NAMES } from '../../shared/contract/channel-types'
import { CHANNEL_TYPES, channelType } from './registry'

const ONE_HUB_IDS: Record<number, string> = {
  1: 'OpenAI',
  3: 'Azure OpenAI',
  8: 'Custom (OpenAI-compatible)',
  14: 'Anthropic Claude',
  25: 'Google Gemini',
  28: 'DeepSeek',
  29: 'Moonshot',
  30: 'Mistral',
  31: 'Groq',
  56: 'xAI',
  20: 'OpenRouter',
  45: 'SiliconFlow',
  32: 'AWS Bedrock',
  16: 'Zhipu GLM',
  40: 'Tencent Hunyuan',
  42: 'Vertex AI',
  36: 'Cohere',
  35: 'Cloudflare Workers AI',
  18: 'Xunfei Spark',
  15: 'Baidu Qianfan (文心)',
  17: 'Alibaba Qwen/DashScope',
  26: 'Baichuan',
  27: 'MiniMax',
  33: '01.AI (零一)',
  39: 'Ollama',
  38: 'Coze',
  24: 'Azure Speech',
  47: 'Jina',
  49: 'GitHub Models',
  55: 'Azure OpenAI v1',
  34: 'Midjourney (midjourney-proxy)',
  41: 'Suno (Suno-API)',
  53: 'Kling (video)',
}
/** Asynchronous-task suppliers: called by worker/tasks/, not by the /v1 relay. */
const ASYNC_TASK_IDS = [34, 41, 53]
/** Text-to-speech, or embeddings and rerank, only. */
const NO_CHAT_IDS = [24, 47]
/** Suppliers one-hub only reaches through "Custom": ids outside its range. */
const EXTRA_IDS: Record<number, string> = { 1001: 'Together AI', 1002: 'Fireworks AI', 1003: 'Perplexity', 1004: 'StepFun (阶跃星辰)' }

describe('CHANNEL_TYPES', () => {
  it('has unique ids', () => {
    const ids = CHANNEL_TYPES.map((t) => t.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it.each(CHANNEL_TYPES.map((t) => [t.id, t] as const))('type %i has a name, hints and a chat adapter', (_id, t) => {
    expect(t.name.trim()).not.toBe('')
    expect(t.keyHint.trim()).not.toBe('')
    expect(t.baseUrlHint.trim()).not.toBe('')
    expect(t.adapter.supports('chat')).toBe(!ASYNC_TASK_IDS.includes(t.id) && !NO_CHAT_IDS.includes(t.id))
    expect(Array.isArray(t.models)).toBe(true)
    if (t.defaultBaseUrl) expect(t.defaultBaseUrl).toMatch(/^https:\/\/[^/]+(\/[^/]+)*$/)
  })

  it('uses the one-hub ids', () => {
    const all = { ...ONE_HUB_IDS, ...EXTRA_IDS }
    for (const [id, name] of Object.entries(all)) expect(channelType(Number(id))?.name).toBe(name)
    expect(CHANNEL_TYPES.map((t) => t.id)).toEqual(
      Object.keys(all)
        .map(Number)
        .sort((a, b) => a - b)
    )
    for (const id of Object.keys(EXTRA_IDS)) expect(Number(id)).toBeGreaterThan(1000)
    // The shared catalogue (read by the importer) names exactly the types the registry serves.
    expect(Object.keys(CHANNEL_TYPE_NAMES).map(Number)).toEqual(CHANNEL_TYPES.map((t) => t.id))
  })

  it('wires the translating adapters to their types', () => {
    expect(channelType(3)?.adapter).toBe(azureAdapter)
    expect(channelType(14)?.adapter).toBe(anthropicAdapter)
    expect(channelType(25)?.adapter).toBe(geminiAdapter)
    expect(channelType(32)?.adapter).toBe(bedrockAdapter)
    expect(channelType(99999)).toBeUndefined()
  })

  it('requires a base URL only for Azure, Custom and the self-hosted task servers', () => {
    expect(
      CHANNEL_TYPES.filter((t) => !t.defaultBaseUrl)
        .map((t) => t.id)
        .sort((a, b) => a - b)
    ).toEqual([3, 8, 34, 41, 55])
  })

  it.each([
    [28, 'https://api.deepseek.com/v1/chat/completions'],
    [29, 'https://api.moonshot.cn/v1/chat/completions'],
    [30, 'https://api.mistral.ai/v1/chat/completions'],
    [31, 'https://api.groq.com/openai/v1/chat/completions'],
    [56, 'https://api.x.ai/v1/chat/completions'],
    [20, 'https://openrouter.ai/api/v1/chat/completions'],
    [45, 'https://api.siliconflow.cn/v1/chat/completions'],
    [15, 'https://qianfan.baidubce.com/v2/chat/completions'],
    [17, 'https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions'],
    [26, 'https://api.baichuan-ai.com/v1/chat/completions'],
    [27, 'https://api.minimax.chat/v1/chat/completions'],
    [33, 'https://api.lingyiwanwu.com/v1/chat/completions'],
    [39, 'https://ollama.com/v1/chat/completions'],
    [1001, 'https://api.together.xyz/v1/chat/completions'],
    [1002, 'https://api.fireworks.ai/inference/v1/chat/completions'],
    [1003, 'https://api.perplexity.ai/chat/completions'],
    [1004, 'https://api.stepfun.com/v1/chat/completions'],
    [49, 'https://models.github.ai/inference/chat/completions'],
  ])('compatible type %i calls %s by default', async (id, url) => {
    const req = await channelType(id)!.adapter.buildRequest(chatCall(), channel({ type: id, key: 'k' }))
    expect(req.url).toBe(url)
    expect(req.headers.get('authorization')).toBe('Bearer k')
  })

  it('lets a compatible channel override the base URL', async () => {
    const req = await channelType(1)!.adapter.buildRequest(chatCall(), channel({ baseUrl: 'https://oai.example.com/v1' }))
    expect(req.url).toBe('https://oai.example.com/v1/chat/completions')
  })
})
