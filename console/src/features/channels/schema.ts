/**
 * Channels page schemas: the URL search type of the list and the create/edit form:
 * name, type (one the gateway knows), key, models and groups required; base URL required for types without a default (trailing slash removed); model mapping, headers and extra
 * parameters must be JSON objects; a wildcard * only last and after some text; priority ≥ 0;
 * weight ≥ 1; proxy http(s)/socks5://host:port; the key format of signed types (shared/contract/key-format.ts);
 * key mode batch/pool; auto-disable overrides 0–100 failures within 0–86400 s (0 = the settings).
 * Messages are i18n keys.
 */
import { z } from 'zod'
import type { ChannelBody } from '@contract/channels'
import { splitList } from './options'
import type { Channel, ChannelType } from '@contract/channels'
import { keyFieldProblem } from '@contract/key-format'

/** URL search of the list (validated by the route): paging, sort, filters and the by-tag view. */
export interface ChannelsSearch {
  p?: number
  page_size?: number
  order?: string
  name?: string
  type?: number
  status?: number
  group?: string
  model?: string
  tag?: string
  /** 'tag': the by-tag view (pick a tag, see its channels). */
  view?: 'tag'
}

/** A wildcard is allowed only as the last character, after some text (`gpt-4*`). */
export const validModelName = (m: string) => !m.includes('*') || (m.indexOf('*') === m.length - 1 && m.length > 1)

const jsonObject = (message: string) =>
  z
    .string()
    .trim()
    .refine((v) => {
      if (!v) return true
      try {
        const parsed: unknown = JSON.parse(v)
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      } catch {
        return false
      }
    }, message)

const PROXY = /^(https?|socks5h?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?[^\s:/]+:\d{1,5}\/?$/i
const URL_LINE = /^https?:\/\/[^\s/]+/i
const isInt = (v: string) => /^\d+$/.test(v.trim())

/** `edit`: the key may stay empty, which keeps the saved key (admins below root never see it). */
export function channelFormSchema(types: ChannelType[], edit = false) {
  return z
    .object({
      type: z.string().min(1, 'channels:validation.typeRequired'),
      name: z.string().trim().min(1, 'channels:validation.nameRequired').max(100, 'channels:validation.nameMax'),
      key: edit ? z.string().trim() : z.string().trim().min(1, 'channels:validation.keyRequired'),
      base_url: z.string().trim(),
      other: z.string().trim().max(200, 'channels:validation.otherMax'),
      models: z
        .array(z.string())
        .min(1, 'channels:validation.modelsRequired')
        .refine((list) => list.every(validModelName), 'channels:validation.wildcard'),
      group: z.array(z.string()).min(1, 'channels:validation.groupRequired'),
      tag: z.string().trim().max(100, 'channels:validation.tagMax'),
      model_mapping: jsonObject('channels:validation.mappingJson'),
      model_headers: jsonObject('channels:validation.headersJson'),
      custom_parameter: jsonObject('channels:validation.parametersJson'),
      priority: z.string().refine(isInt, 'channels:validation.priorityMin'),
      weight: z.string().refine((v) => isInt(v) && Number(v) >= 1, 'channels:validation.weightMin'),
      test_model: z.string().trim(),
      proxy: z
        .string()
        .trim()
        .refine((v) => v === '' || PROXY.test(v), 'channels:validation.proxy'),
      only_chat: z.boolean(),
      auto_ban: z.boolean(),
      plugin: z.string(),
      key_mode: z.enum(['batch', 'pool']),
      auto_disable_threshold: z.string().refine((v) => isInt(v) && Number(v) <= 100, 'channels:validation.thresholdRange'),
      auto_disable_window: z.string().refine((v) => isInt(v) && Number(v) <= 86400, 'channels:validation.windowRange'),
    })
    .superRefine((v, ctx) => {
      const type = types.find((t) => String(t.id) === v.type)
      // A type the gateway does not know (an imported channel's, say) cannot be saved as it is.
      if (v.type && !type && types.length > 0) ctx.addIssue({ code: 'custom', path: ['type'], message: 'channels:validation.typeError' })
      const urls = v.base_url
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean)
      if (type && !type.default_base_url && urls.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['base_url'], message: 'channels:validation.baseUrlRequired' })
      } else if (!urls.every((u) => URL_LINE.test(u))) {
        ctx.addIssue({ code: 'custom', path: ['base_url'], message: 'channels:validation.baseUrl' })
      }
      const keyProblem = v.key ? keyFieldProblem(Number(v.type), v.key) : undefined
      if (keyProblem) ctx.addIssue({ code: 'custom', path: ['key'], message: `channels:validation.${keyProblem.code}` })
    })
}
export type ChannelFormValues = z.infer<ReturnType<typeof channelFormSchema>>

export function channelFormDefaults(channel?: Channel, type?: ChannelType): ChannelFormValues {
  return {
    type: String(channel?.type ?? type?.id ?? ''),
    name: channel?.name ?? '',
    key: channel?.key ?? '',
    base_url: channel?.base_url ?? '',
    other: channel?.other ?? '',
    models: splitList(channel?.models),
    group: channel ? splitList(channel.group) : ['default'],
    tag: channel?.tag ?? '',
    model_mapping: channel?.model_mapping ?? '',
    model_headers: channel?.model_headers ?? '',
    custom_parameter: channel?.custom_parameter ?? '',
    priority: String(channel?.priority ?? 0),
    weight: String(channel?.weight ?? 1),
    test_model: channel?.test_model ?? '',
    proxy: channel?.proxy ?? '',
    only_chat: channel?.only_chat ?? false,
    auto_ban: channel?.auto_ban ?? true,
    plugin: channel?.plugin ?? '',
    key_mode: channel?.key_mode ?? 'batch',
    auto_disable_threshold: String(channel?.auto_disable_threshold ?? 0),
    auto_disable_window: String(channel?.auto_disable_window ?? 0),
  }
}

/** Form values → request body; base URLs lose their trailing slashes (one per line in batch mode). */
export function channelBody(v: ChannelFormValues): ChannelBody {
  return {
    type: Number(v.type),
    name: v.name,
    key: v.key,
    base_url: v.base_url
      .split('\n')
      .map((u) => u.trim().replace(/\/+$/, ''))
      .filter(Boolean)
      .join('\n'),
    other: v.other,
    models: v.models,
    group: v.group,
    tag: v.tag,
    model_mapping: v.model_mapping,
    model_headers: v.model_headers,
    custom_parameter: v.custom_parameter,
    priority: Number(v.priority),
    weight: Number(v.weight),
    test_model: v.test_model,
    proxy: v.proxy,
    only_chat: v.only_chat,
    auto_ban: v.auto_ban,
    plugin: v.plugin,
    key_mode: v.key_mode,
    auto_disable_threshold: Number(v.auto_disable_threshold),
    auto_disable_window: Number(v.auto_disable_window),
  }
}

/** Inline priority / weight edits. */
export const inlineNumberValid = (field: 'priority' | 'weight', v: string) => isInt(v) && Number(v) >= (field === 'weight' ? 1 : 0) && Number(v) <= 1_000_000
