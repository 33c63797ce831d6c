/**
 * Applying a channel's plugin parameters (catalogue: shared/contract/channel-plugins.ts) in the
 * adapters that understand them: Custom channels' per-operation paths (or a disabled operation),
 * Azure Speech's voice map and Ollama's Cloudflare Access headers. Each reads only its own type's
 * plugin, so a plugin stored on another type changes nothing.
 */
import { APPLIED_PLUGINS, CUSTOMIZE_OPS } from '../../shared/contract/channel-plugins'
import type { ChannelInfo, RelayOp } from './types'

const param = (channel: ChannelInfo, plugin: string, name: string): string => {
  if (!Object.hasOwn(APPLIED_PLUGINS[channel.type] ?? {}, plugin)) return ''
  const value = channel.plugin?.[plugin]?.[name]
  return typeof value === 'string' ? value.trim() : ''
}

const customizeKey = (op: RelayOp) => Object.entries(CUSTOMIZE_OPS).find(([, o]) => o === op)?.[0]

/** Custom channels: the path the plugin sets for this operation ('' = the default path). */
export function customPath(channel: ChannelInfo, op: RelayOp): string {
  const key = customizeKey(op)
  const path = key ? param(channel, 'customize', key) : ''
  return path === 'disable' ? '' : path
}

/** Custom channels: the plugin turned this operation off ("disable"). */
export const pluginDisables = (channel: ChannelInfo, op: RelayOp): boolean => {
  const key = customizeKey(op)
  return key !== undefined && param(channel, 'customize', key) === 'disable'
}

/** Ollama: the Cloudflare Zero Trust access headers set in the plugin. */
export function pluginHeaders(channel: ChannelInfo): Record<string, string> {
  const spec = APPLIED_PLUGINS[channel.type]?.headers
  if (!spec) return {}
  const out: Record<string, string> = {}
  for (const name of spec.params) {
    const value = param(channel, 'headers', name)
    if (value) out[name] = value
  }
  return out
}

/** Azure Speech: the operator's mapping of an OpenAI voice name, split into voice and role. */
export function mappedVoice(channel: ChannelInfo, voice: string): { voice: string; role: string } | undefined {
  const value = param(channel, 'voice', voice.toLowerCase())
  if (!value) return undefined
  const [name, role = ''] = value.split('|').map((s) => s.trim())
  return name ? { voice: name, role } : undefined
}
