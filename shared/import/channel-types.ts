/**
 * Channel type ids of one-api and one-hub → this gateway's ids (which follow one-hub's). one-api's
 * ids agree with one-hub's up to 23 and differ after it, so they are remapped by supplier name.
 * A type this gateway has no adapter for is imported as a disabled Custom channel with the reason,
 * so the key and settings are kept for the operator to re-type.
 */
import { isChannelTypeId } from '../contract/channel-types'

export type SourceKind = 'one-api' | 'one-hub'

export const CUSTOM_TYPE = 8

/** one-api's OpenAI-compatible resellers (ids shared with one-hub): served by the Custom type with their base URL. */
const ONE_API_PROXIES = new Map<number, string>([
  [2, 'API2D'],
  [4, 'CloseAI'],
  [5, 'OpenAI-SB'],
  [6, 'OpenAIMax'],
  [7, 'OhMyGPT'],
  [9, 'Ails'],
  [10, 'AIProxy'],
  [12, 'API2GPT'],
  [13, 'AIGC2D'],
  [21, 'AIProxyLibrary'],
  [22, 'FastGPT'],
])

/** one-api ids after 23 → [name, one-hub/gateway id or undefined]. */
export const ONE_API_AFTER_23: Record<number, [string, number | undefined]> = {
  24: ['Gemini', 25],
  25: ['Moonshot', 29],
  26: ['Baichuan', 26],
  27: ['Minimax', 27],
  28: ['Mistral', 30],
  29: ['Groq', 31],
  30: ['Ollama', 39],
  31: ['LingYiWanWu', 33],
  32: ['StepFun', 1004],
  33: ['AwsClaude', 32],
  34: ['Coze', 38],
  35: ['Cohere', 36],
  36: ['DeepSeek', 28],
  37: ['Cloudflare', 35],
  38: ['DeepL', undefined],
  39: ['TogetherAI', 1001],
  40: ['Doubao', undefined],
  41: ['Novita', undefined],
  42: ['VertexAI', 42],
  43: ['Proxy', undefined],
  44: ['SiliconFlow', 45],
  45: ['XAI', 56],
  46: ['Replicate', 52],
  47: ['BaiduV2', 15],
  48: ['XunfeiV2', undefined],
  49: ['AliBailian', undefined],
  50: ['OpenAICompatible', CUSTOM_TYPE],
  51: ['GeminiOpenAICompatible', CUSTOM_TYPE],
}

export interface TypeMapping {
  /** The gateway type the channel is written with. */
  type: number
  /** Set when the channel cannot work as imported: it is written disabled with this reason. */
  unsupported?: string
}

/** Maps a source channel type id to this gateway's. */
export function mapChannelType(source: SourceKind, id: number): TypeMapping {
  let target: number | undefined = id
  let name = `type ${id}`
  if (source === 'one-api') {
    if (ONE_API_PROXIES.has(id)) return { type: CUSTOM_TYPE }
    if (id > 23) {
      const entry = ONE_API_AFTER_23[id]
      name = entry ? `${entry[0]} (one-api type ${id})` : `one-api type ${id}`
      target = entry?.[1]
    }
  }
  if (target !== undefined && isChannelTypeId(target)) return { type: target }
  return { type: CUSTOM_TYPE, unsupported: `imported from ${source}: ${name} has no adapter here` + (target !== undefined && target !== id ? ` (one-hub type ${target})` : '') }
}
