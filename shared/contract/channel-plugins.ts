/**
 * Channel plugin parameters (one-hub's per-channel `plugin` JSON: `{ plugin: { param: value } }`):
 * which plugins each channel type of this gateway honours and with which parameters. The server
 * validates and applies them (worker/providers/plugins.ts); the console edits the applied ones and
 * lists every other stored plugin as "not used by this channel type". One-hub's other plugins
 * (Zhipu's knowledge base and tools, Qwen's web search, Gemini's code execution, MiniMax voices,
 * `use_openai_api` switches) have no counterpart in these adapters and are kept, not applied.
 */

export type ChannelPlugin = Record<string, Record<string, string | boolean>>

export interface PluginSpec {
  /** Parameter names in the order the form shows them. */
  params: readonly string[]
}

/** Relay operation of each `customize` parameter (one-hub's relay mode numbers). */
export const CUSTOMIZE_OPS = {
  '1': 'chat',
  '2': 'completions',
  '3': 'embeddings',
  '4': 'moderations',
  '5': 'images.generations',
  '6': 'images.edits',
  '7': 'images.variations',
  '9': 'audio.speech',
  '10': 'audio.transcriptions',
  '11': 'audio.translations',
} as const

/** Channel type → plugins it applies. */
export const APPLIED_PLUGINS: Readonly<Record<number, Readonly<Record<string, PluginSpec>>>> = {
  // Custom (OpenAI-compatible): a path per operation, or "disable".
  8: { customize: { params: Object.keys(CUSTOMIZE_OPS) } },
  // Azure Speech: OpenAI voice → Azure voice, optionally "voice|role".
  24: { voice: { params: ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'] } },
  // Ollama behind Cloudflare Zero Trust: the access headers.
  39: { headers: { params: ['CF-Access-Client-Id', 'CF-Access-Client-Secret'] } },
}

/** The stored text as plugins; anything that is not an object of objects reads as none. */
export function parsePlugin(text: string): ChannelPlugin {
  if (!text.trim()) return {}
  try {
    const v = JSON.parse(text)
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {}
    const out: ChannelPlugin = {}
    for (const [name, params] of Object.entries(v)) {
      if (!params || typeof params !== 'object' || Array.isArray(params)) continue
      const kept: Record<string, string | boolean> = {}
      for (const [k, value] of Object.entries(params as Record<string, unknown>)) if (typeof value === 'string' || typeof value === 'boolean') kept[k] = value
      out[name] = kept
    }
    return out
  } catch {
    return {}
  }
}

/** Plugins stored on the channel that its type does not apply. */
export const unusedPlugins = (type: number, plugin: ChannelPlugin): string[] => Object.keys(plugin).filter((name) => !Object.hasOwn(APPLIED_PLUGINS[type] ?? {}, name))
