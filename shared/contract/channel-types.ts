/**
 * The channel-type catalogue as data: this gateway's type ids (one-hub's, so its data imports; ids
 * above 1000 are suppliers one-hub reaches only through Custom) and their display names.
 * worker/providers/registry.ts attaches an adapter and hints to every id here; the importer maps a
 * source channel type onto one of these ids (shared/import/channel-types.ts).
 */
export const CHANNEL_TYPE_NAMES = {
  1: 'OpenAI',
  3: 'Azure OpenAI',
  8: 'Custom (OpenAI-compatible)',
  14: 'Anthropic Claude',
  15: 'Baidu Qianfan (文心)',
  16: 'Zhipu GLM',
  17: 'Alibaba Qwen/DashScope',
  18: 'Xunfei Spark',
  20: 'OpenRouter',
  24: 'Azure Speech',
  25: 'Google Gemini',
  26: 'Baichuan',
  27: 'MiniMax',
  28: 'DeepSeek',
  29: 'Moonshot',
  30: 'Mistral',
  31: 'Groq',
  32: 'AWS Bedrock',
  33: '01.AI (零一)',
  34: 'Midjourney (midjourney-proxy)',
  35: 'Cloudflare Workers AI',
  36: 'Cohere',
  38: 'Coze',
  39: 'Ollama',
  40: 'Tencent Hunyuan',
  41: 'Suno (Suno-API)',
  42: 'Vertex AI',
  45: 'SiliconFlow',
  47: 'Jina',
  49: 'GitHub Models',
  53: 'Kling (video)',
  55: 'Azure OpenAI v1',
  56: 'xAI',
  1001: 'Together AI',
  1002: 'Fireworks AI',
  1003: 'Perplexity',
  1004: 'StepFun (阶跃星辰)',
} as const

export type ChannelTypeId = keyof typeof CHANNEL_TYPE_NAMES

/** Whether this gateway has the type (an adapter in the registry). */
export const isChannelTypeId = (id: number): id is ChannelTypeId => Object.hasOwn(CHANNEL_TYPE_NAMES, id)
