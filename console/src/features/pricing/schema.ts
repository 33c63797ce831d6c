/**
 * Form schemas of the pricing page: a model name is required,
 * unique, and may end with one `*` after some text; type is tokens or times; a channel type is
 * required; multipliers are numbers ≥ 0; extra ratios are distinct kinds with a ratio ≥ 0; the
 * optional long-context tier is a whole threshold ≥ 1 with both ratios, or nothing; the optional
 * fee per request is whole quota units. User
 * groups: symbol (letters, digits, _ and -), name, ratio ≥ 0, API rate (requests per minute).
 * Numbers stay strings in the forms and are converted on submit.
 */
import { z } from 'zod'
import type { UserGroupBody } from '@contract/groups'
import type { PriceBody, PriceTier } from '@contract/pricing'
import type { ExtraRatios } from './api'

/** The token kinds a price can re-weight (one-hub `extra_ratios`). */
export const EXTRA_RATIO_KINDS = [
  'cached_tokens',
  'cached_read_tokens',
  'cached_write_tokens',
  'cached_write_1h_tokens',
  'input_audio_tokens',
  'output_audio_tokens',
  'reasoning_tokens',
  'input_image_tokens',
  'output_image_tokens',
  'input_text_tokens',
  'output_text_tokens',
] as const

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))

const multiplier = z
  .string()
  .trim()
  .min(1, 'pricing:validation.required')
  .refine(isNumber, 'pricing:validation.number')
  .refine((v) => Number(v) >= 0, 'pricing:validation.min0')
  .refine((v) => Number(v) <= 1e9, 'pricing:validation.tooLarge')

/** A wildcard star only as the last character, with text before it. */
export const isValidModelName = (m: string) => !m.includes('*') || (m.indexOf('*') === m.length - 1 && m.length > 1)

const modelName = z.string().trim().min(1, 'pricing:validation.modelRequired').max(200, 'pricing:validation.modelTooLong').refine(isValidModelName, 'pricing:validation.wildcard')

const extraRatioRows = z.array(z.object({ kind: z.string().min(1, 'pricing:validation.kindRequired'), ratio: multiplier })).superRefine((rows, ctx) => {
  const seen = new Set<string>()
  rows.forEach((row, i) => {
    if (row.kind && seen.has(row.kind)) ctx.addIssue({ code: 'custom', path: [i, 'kind'], message: 'pricing:validation.kindDuplicate' })
    seen.add(row.kind)
  })
})

/** An optional number field: empty, or a number ≥ `min` (whole when `whole`) and ≤ `max`. */
const optionalNumber = (opts: { whole: boolean; min: number; minMessage: string; max: number }) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (opts.whole ? /^\d+$/.test(v) : isNumber(v)), opts.whole ? 'pricing:validation.integer' : 'pricing:validation.number')
    .refine((v) => v === '' || Number(v) >= opts.min, opts.minMessage)
    .refine((v) => v === '' || Number(v) <= opts.max, 'pricing:validation.tooLarge')

const priceFields = {
  type: z.enum(['tokens', 'times'], 'pricing:validation.type'),
  channel_type: z.string().min(1, 'pricing:validation.channelType'),
  input: multiplier,
  output: multiplier,
  locked: z.boolean(),
  extra_ratios: extraRatioRows,
  tier_threshold: optionalNumber({ whole: true, min: 1, minMessage: 'pricing:validation.thresholdMin', max: 100_000_000 }),
  tier_input: optionalNumber({ whole: false, min: 0, minMessage: 'pricing:validation.min0', max: 1e9 }),
  tier_output: optionalNumber({ whole: false, min: 0, minMessage: 'pricing:validation.min0', max: 1e9 }),
  fee: optionalNumber({ whole: true, min: 0, minMessage: 'pricing:validation.min0', max: 1e9 }),
}

/** The tier's three fields are all filled in or all empty. */
function tierComplete(v: { tier_threshold: string; tier_input: string; tier_output: string }, ctx: z.RefinementCtx) {
  const filled = [v.tier_threshold, v.tier_input, v.tier_output].map((x) => x.trim() !== '')
  if (filled.every(Boolean) || !filled.some(Boolean)) return
  const names = ['tier_threshold', 'tier_input', 'tier_output'] as const
  names.forEach((name, i) => {
    if (!filled[i]) ctx.addIssue({ code: 'custom', path: [name], message: 'pricing:validation.tierIncomplete' })
  })
}

/** `taken(model)`: whether another price already uses that name. */
export const priceFormSchema = (taken: (model: string) => boolean) =>
  z.object({ model: modelName.refine((m) => !taken(m), 'pricing:validation.modelTaken'), ...priceFields }).superRefine(tierComplete)
export type PriceFormValues = z.infer<ReturnType<typeof priceFormSchema>>

/** Merged edit: `taken(model)` is true for models priced outside the group being edited. */
export const mergedFormSchema = (taken: (model: string) => boolean) =>
  z
    .object({
      models: z
        .array(z.string())
        .min(1, 'pricing:validation.modelsRequired')
        .superRefine((models, ctx) => {
          const bad = models.find((m) => !isValidModelName(m))
          if (bad) ctx.addIssue({ code: 'custom', message: 'pricing:validation.wildcard' })
          const used = models.filter(taken)
          if (used.length) ctx.addIssue({ code: 'custom', message: 'pricing:validation.modelTaken' })
        }),
      ...priceFields,
    })
    .superRefine(tierComplete)
export type MergedFormValues = z.infer<ReturnType<typeof mergedFormSchema>>

export type PriceFieldValues = Omit<PriceFormValues, 'model'>

export function ratiosToRows(ratios: ExtraRatios | null | undefined): PriceFieldValues['extra_ratios'] {
  return Object.entries(ratios ?? {}).map(([kind, ratio]) => ({ kind, ratio: String(ratio) }))
}

export function rowsToRatios(rows: PriceFieldValues['extra_ratios']): ExtraRatios | null {
  return rows.length ? Object.fromEntries(rows.map((r) => [r.kind, Number(r.ratio)])) : null
}

/** A price's tier and fee as form values (empty strings when it has none). */
export function tierToValues(p: { tier: PriceTier | null; fee: number }): Pick<PriceFieldValues, 'tier_threshold' | 'tier_input' | 'tier_output' | 'fee'> {
  return {
    tier_threshold: p.tier ? String(p.tier.threshold_tokens) : '',
    tier_input: p.tier ? String(p.tier.input) : '',
    tier_output: p.tier ? String(p.tier.output) : '',
    fee: p.fee ? String(p.fee) : '',
  }
}

export const NO_TIER = { tier_threshold: '', tier_input: '', tier_output: '', fee: '' } as const

/** Form values → the body of POST/PUT /api/prices/single (and the shared fields of /multiple). */
export function toPriceFields(v: PriceFieldValues): Omit<PriceBody, 'model'> {
  return {
    type: v.type,
    channel_type: Number(v.channel_type),
    input: Number(v.input),
    output: Number(v.output),
    locked: v.locked,
    extra_ratios: rowsToRatios(v.extra_ratios),
    tier: v.tier_threshold.trim() ? { threshold_tokens: Number(v.tier_threshold), input: Number(v.tier_input), output: Number(v.tier_output) } : null,
    fee: Number(v.fee || 0),
  }
}

export const groupFormSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, 'pricing:validation.symbolRequired')
    .max(32, 'pricing:validation.symbolTooLong')
    .regex(/^[A-Za-z0-9_-]+$/, 'pricing:validation.symbolChars'),
  name: z.string().trim().min(1, 'pricing:validation.nameRequired').max(50, 'pricing:validation.nameTooLong'),
  ratio: multiplier.refine((v) => Number(v) <= 1000, 'pricing:validation.ratioMax'),
  api_rate: z
    .string()
    .trim()
    .min(1, 'pricing:validation.required')
    .refine((v) => /^\d+$/.test(v), 'pricing:validation.integer')
    .refine((v) => Number(v) <= 1_000_000, 'pricing:validation.tooLarge'),
  tpm: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d+$/.test(v), 'pricing:validation.integer')
    .refine((v) => Number(v) <= 100_000_000, 'pricing:validation.tooLarge'),
  public: z.boolean(),
  enable: z.boolean(),
})
export type GroupFormValues = z.infer<typeof groupFormSchema>

export const toGroupBody = (v: GroupFormValues): UserGroupBody => ({
  symbol: v.symbol,
  name: v.name,
  ratio: Number(v.ratio),
  api_rate: Number(v.api_rate),
  tpm: Number(v.tpm || 0),
  public: v.public,
  enable: v.enable,
})
