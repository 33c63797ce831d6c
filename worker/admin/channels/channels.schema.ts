/**
 * Channel form validation: name, type, key, models, group required; base URL required
 * for types without a default (trailing slash removed); JSON fields must be objects; wildcards
 * only as the last character after some text; priority ≥ 0; weight ≥ 1; proxy http(s)/socks5 host:port;
 * plugin parameters per channel-plugin.schema.ts.
 */
import { z } from 'zod'
import { channelType } from '../../providers/registry'
import { pluginParams, pluginText } from './channel-plugin.schema'
import { CHANNEL_STATUS } from '../../../shared/contract/enums'
import { jsonKey, keyFieldProblem, keyProblemText } from '../../../shared/contract/key-format'
import type { ChannelBatchValue, ChannelBody, ChannelPatch, ProviderModelsBody } from '../../../shared/contract/channels'
import { accepting } from '../../lib/validate'

const list = (label: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
    .refine((v) => v.length > 0, `${label} cannot be empty`)

export const modelName = z
  .string()
  .refine((m) => !m.includes('*') || (m.indexOf('*') === m.length - 1 && m.length > 1), 'a wildcard * is allowed only as the last character, after some text')

const jsonObject = (label: string) =>
  z
    .string()
    .trim()
    .max(20_000)
    .default('')
    .refine((v) => {
      if (!v) return true
      try {
        const parsed = JSON.parse(v)
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      } catch {
        return false
      }
    }, `${label} must be a valid JSON object`)

const baseUrl = z
  .string()
  .trim()
  .max(2000)
  .default('')
  .transform((v) => v.replace(/\/+$/, ''))
  .refine((v) => v === '' || v.split('\n').every((u) => /^https?:\/\/[^\s/]+/i.test(u.trim())), 'must be an http(s) URL')

export const proxy = z
  .string()
  .trim()
  .max(300)
  .default('')
  .refine((v) => v === '' || /^(https?|socks5h?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?[^\s:/]+:\d{1,5}\/?$/i.test(v), 'must look like http://host:port or socks5://host:port')

const channelObject = z.object({
  type: z.coerce
    .number()
    .int()
    .refine((t) => channelType(t) !== undefined, 'Channel type error'),
  name: z.string().trim().min(1, 'Name is required').max(100),
  key: z.string().trim().min(1, 'Key cannot be empty').max(100_000),
  base_url: baseUrl,
  other: z.string().trim().max(200).default(''),
  models: list('Models').pipe(z.array(modelName.pipe(z.string().max(200))).max(2000)),
  group: list('Group'),
  tag: z.string().trim().max(100).default(''),
  model_mapping: jsonObject('Model mapping'),
  model_headers: jsonObject('Headers'),
  custom_parameter: jsonObject('Extra parameters'),
  priority: z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(1_000_000).default(0),
  weight: z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(1_000_000).default(1),
  test_model: z.string().trim().max(200).default(''),
  proxy,
  only_chat: z.boolean().default(false),
  auto_ban: z.boolean().default(true),
  plugin: pluginText.default(''),
  /** 'batch': one channel per key line; 'pool': one channel rotating over all the lines. */
  key_mode: z.enum(['batch', 'pool']).default('batch'),
  /** Per-channel auto-disable overrides: failures within the window (seconds); 0 = the global settings. */
  auto_disable_threshold: z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(100, 'must be at most 100').default(0),
  auto_disable_window: z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(86400, 'must be at most 86400').default(0),
})

function baseUrlRequired(v: { type: number; base_url: string }, ctx: z.RefinementCtx) {
  const type = channelType(v.type)
  if (type && !type.defaultBaseUrl && !v.base_url) ctx.addIssue({ code: 'custom', path: ['base_url'], message: 'Base URL is required for this channel type' })
}

/** Each key (one per line in batch mode, or one JSON document) must have the type's format; an empty update key keeps the old one. */
function keyFormat(v: { type: number; key: string }, ctx: z.RefinementCtx) {
  const problem = keyFieldProblem(v.type, v.key)
  if (problem) ctx.addIssue({ code: 'custom', path: ['key'], message: keyProblemText[problem.code](problem.value) })
}

/** One JSON key stays one key (batch mode splits keys by line). */
const compactJsonKey = <T extends { key: string }>(v: T): T => {
  const json = jsonKey(v.key)
  return json ? { ...v, key: json } : v
}

export const channelFields = accepting<ChannelBody>()(channelObject.superRefine(baseUrlRequired).superRefine(keyFormat).superRefine(pluginParams).transform(compactJsonKey))

export type ChannelFields = z.infer<typeof channelFields>

/** An update may leave the key empty: the channel keeps its current key (admins never see it). */
export const updateChannelSchema = accepting<ChannelBody & { id: number }>()(
  channelObject
    .extend({
      id: z.coerce.number().int().positive(),
      key: z.string().trim().max(100_000).default(''),
      // Left out, the pool settings stay as they are (older clients never turn a pool into one multi-line key).
      key_mode: channelObject.shape.key_mode.removeDefault().optional(),
      auto_disable_threshold: channelObject.shape.auto_disable_threshold.removeDefault().optional(),
      auto_disable_window: channelObject.shape.auto_disable_window.removeDefault().optional(),
      // Left out (older clients), the plugin parameters stay as they are.
      plugin: pluginText.optional(),
    })
    .superRefine(baseUrlRequired)
    .superRefine(keyFormat)
    .superRefine(pluginParams)
    .transform(compactJsonKey)
)

/** Inline edits from the list (priority, weight, status) without the full form. */
export const patchChannelSchema = accepting<ChannelPatch>()(
  z.object({
    id: z.coerce.number().int().positive(),
    priority: z.coerce.number().int().min(0, 'must be at least 0').max(1_000_000).optional(),
    weight: z.coerce.number().int().min(1, 'must be at least 1').max(1_000_000).optional(),
    status: z.union([z.literal(CHANNEL_STATUS.ENABLED), z.literal(CHANNEL_STATUS.MANUAL_DISABLED)]).optional(),
  })
)

export const channelListQuery = z.object({
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(10),
  order: z.string().trim().max(40).optional(),
  name: z.string().trim().max(100).optional(),
  type: z.coerce.number().int().optional(),
  status: z.coerce.number().int().min(1).max(4).optional(),
  group: z.string().trim().max(64).optional(),
  model: z.string().trim().max(200).optional(),
  tag: z.string().trim().max(100).optional(),
  key: z.string().trim().max(200).optional(),
})

export const channelKeyParam = z.object({ id: z.coerce.number().int().positive(), hash: z.string().regex(/^[0-9a-f]{16}$/, 'must be a key hash') })

export const historyQuery = z.object({
  p: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
})

export const idsSchema = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1, 'select at least one channel').max(1000) })

export const batchValueSchema = accepting<ChannelBatchValue>()(idsSchema.extend({ value: z.string().trim().min(1, 'is required').max(200) }))

/** Without a key, `id` names a saved channel whose stored key is used (admins editing a channel). */
export const providerModelsSchema = accepting<ProviderModelsBody>()(
  z.object({
    type: z.coerce
      .number()
      .int()
      .refine((t) => channelType(t) !== undefined, 'Channel type error'),
    id: z.coerce.number().int().positive().optional(),
    key: z.string().trim().max(100_000).default(''),
    base_url: baseUrl,
    other: z.string().trim().max(200).default(''),
  })
)
