/**
 * The validation of a raw site-option value, as data and pure functions over the option metadata
 * (settings.ts): the kind check, the zod check the metadata implies (bounds, URL, one of the
 * values) and the few checks of their own (JSON shapes, time zone, Telegram values). The worker's
 * settings registry and the importer (shared/import/map-settings.ts) both validate with it.
 */
import { z } from 'zod'
import { OPTION_META, type OptionKey, type OptionMeta } from './settings'
import { parseOtlpHeaders } from './otlp-headers'

/** Whether `tz` is an IANA time zone name this runtime knows. */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const chatLinkSchema = z.array(
  z.object({
    name: z.string().trim().min(1, 'name is required'),
    url: z.string().trim().min(1, 'url is required'),
    show: z.boolean(),
    sort: z.number().int(),
  })
)

/** At most this many models with fallbacks, and this many fallbacks per model. */
const MAX_FALLBACK_MODELS = 500
export const MAX_FALLBACKS_PER_MODEL = 5

const modelName = z.string().trim().min(1, 'model names must not be empty').max(200, 'model names must be at most 200 characters')

/** model → ordered fallback models: bounded, no model falling back to itself, no cycle. */
export const modelFallbacksSchema = z
  .record(modelName, z.array(modelName).min(1, 'each model needs at least one fallback').max(MAX_FALLBACKS_PER_MODEL, `at most ${MAX_FALLBACKS_PER_MODEL} fallbacks per model`))
  .superRefine((map, ctx) => {
    const models = Object.keys(map)
    if (models.length > MAX_FALLBACK_MODELS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_FALLBACK_MODELS} models` })
    for (const [model, list] of Object.entries(map)) {
      if (list.includes(model)) ctx.addIssue({ code: 'custom', message: `${model} falls back to itself` })
      if (new Set(list).size !== list.length) ctx.addIssue({ code: 'custom', message: `${model} lists a fallback twice` })
    }
    // A cycle (a → b → a) is refused: depth-first search over the fallback edges.
    const state = new Map<string, 1 | 2>()
    const visit = (m: string): string | undefined => {
      if (state.get(m) === 2) return undefined
      if (state.get(m) === 1) return m
      state.set(m, 1)
      for (const next of Object.hasOwn(map, m) ? map[m]! : []) {
        const cyc = visit(next)
        if (cyc) return cyc
      }
      state.set(m, 2)
      return undefined
    }
    for (const m of models) {
      const cyc = visit(m)
      if (cyc) {
        ctx.addIssue({ code: 'custom', message: `fallbacks form a cycle through ${cyc}` })
        return
      }
    }
  })

/** Weighted routes (canary): at most this many rules, and this many targets per rule. */
const MAX_MODEL_ROUTES = 200
export const MAX_ROUTE_TARGETS = 10

/** Rules sending a requested model (optionally only for one group, or one API key by its id) to weighted target models; one rule per model and scope. */
export const modelRoutesSchema = z
  .array(
    z.object({
      model: modelName,
      group: z.string().trim().min(1, 'group names must not be empty').max(64).optional(),
      token_id: z.number().int('token_id must be an API key id').min(1, 'token_id must be an API key id').optional(),
      targets: z
        .array(z.object({ model: modelName, weight: z.number().int('weights must be whole numbers').min(1, 'weights must be at least 1').max(10_000) }))
        .min(1, 'each route needs at least one target')
        .max(MAX_ROUTE_TARGETS, `at most ${MAX_ROUTE_TARGETS} targets per route`),
    }),
    { error: 'must be a list of routes' }
  )
  .max(MAX_MODEL_ROUTES, `at most ${MAX_MODEL_ROUTES} routes`)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>()
    for (const r of rules) {
      if (r.group !== undefined && r.token_id !== undefined) ctx.addIssue({ code: 'custom', message: `${r.model}: a route names a group or an API key, not both` })
      const id = `${r.model}\u0000${r.group ?? ''}\u0000${r.token_id ?? ''}`
      const scope = r.group ? ` (group ${r.group})` : r.token_id ? ` (key #${r.token_id})` : ''
      if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `${r.model}${scope} has two routes` })
      seen.add(id)
      if (new Set(r.targets.map((t) => t.model)).size !== r.targets.length) ctx.addIssue({ code: 'custom', message: `${r.model} lists a target twice` })
    }
  })

const jsonObjectOfNumbers = z.record(z.string(), z.number().min(0))

/** Checks beyond what the metadata says (applied instead of the derived one). */
const EXTRA_CHECKS: Partial<Record<OptionKey, z.ZodType<unknown>>> = {
  ChatLinks: chatLinkSchema,
  BudgetTimezone: z.string().refine(isTimeZone, 'must be an IANA time zone such as UTC or Asia/Shanghai'),
  ModelOutputLimits: z.record(z.string(), z.number().int().min(1).max(10_000_000)),
  ImagePriceRatios: z.record(z.string(), z.record(z.string(), z.number().min(0).max(1000))),
  PromptEstimateMargins: z.record(z.string(), z.number().min(1).max(10)),
  DefaultModelPrice: z.union([
    z.literal(''),
    z.string().transform((v, ctx) => {
      try {
        const parsed = z.object({ type: z.enum(['tokens', 'times']), input: z.number().min(0), output: z.number().min(0) }).safeParse(JSON.parse(v))
        if (!parsed.success) ctx.addIssue({ code: 'custom', message: 'must be {"type":"tokens"|"times","input":n,"output":n}' })
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be valid JSON' })
      }
      return v
    }),
  ]),
  ModelFallbacks: modelFallbacksSchema,
  ModelRoutes: modelRoutesSchema,
  RechargeDiscount: jsonObjectOfNumbers,
  PiiMaskingGroups: z.record(z.string().trim().min(1, 'group names must not be empty'), z.boolean({ error: 'each group must map to true or false' })),
  SensitiveWords: z.string().max(1_000_000, 'must be at most 1,000,000 characters'),
  GroupRatio: jsonObjectOfNumbers,
  TelegramWebhookSecret: z.string().regex(/^[A-Za-z0-9_-]{0,256}$/, 'must be at most 256 characters of A-Z a-z 0-9 _ -'),
  TelegramApiBase: z.url('must be a valid URL').regex(/^https?:\/\//, 'must be an http(s) URL'),
  OtlpEndpoint: z.union([z.literal(''), z.url('must be a valid URL').regex(/^https?:\/\//, 'must be an http(s) URL')]),
  OtlpHeaders: z.string().superRefine((v, ctx) => {
    const parsed = parseOtlpHeaders(v)
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message })
  }),
  OtlpSampleRate: z.coerce.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1'),
}

/** The check the metadata implies: integer/number bounds, a URL or empty, one of the values. */
function derivedCheck(meta: OptionMeta): z.ZodType<unknown> | undefined {
  if (meta.kind === 'int')
    return z.coerce
      .number()
      .int()
      .min(meta.min ?? 0)
      .max(meta.max ?? Number.MAX_SAFE_INTEGER)
  if (meta.kind === 'float')
    return z.coerce
      .number()
      .min(meta.min ?? 0)
      .max(meta.max ?? Number.MAX_VALUE)
  if (meta.url) return z.union([z.literal(''), z.url('must be a valid URL')])
  if (meta.values) return z.enum(meta.values as [string, ...string[]])
  return undefined
}

/** The zod check of an option's value after its kind check (undefined = the kind check is all). */
function optionCheck(key: OptionKey): z.ZodType<unknown> | undefined {
  return EXTRA_CHECKS[key] ?? derivedCheck(OPTION_META[key])
}

export const isOptionKey = (key: string): key is OptionKey => Object.hasOwn(OPTION_META, key)

const CHECKS = new Map<OptionKey, z.ZodType<unknown> | undefined>()

/** Validate a raw option value; returns the normalised string or an error message. */
export function checkOptionValue(key: OptionKey, raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const meta: OptionMeta = OPTION_META[key]
  let value = raw.trim()
  switch (meta.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false') return { ok: false, message: `${key} must be true or false` }
      break
    case 'int':
      if (!/^-?\d+$/.test(value)) return { ok: false, message: `${key} must be an integer` }
      break
    case 'float':
      if (value === '' || !Number.isFinite(Number(value))) return { ok: false, message: `${key} must be a number` }
      break
    case 'json':
      try {
        value = JSON.stringify(JSON.parse(value))
      } catch {
        return { ok: false, message: `${key} must be valid JSON` }
      }
      break
    case 'string':
      value = raw
      break
  }
  if (!CHECKS.has(key)) CHECKS.set(key, optionCheck(key))
  const check = CHECKS.get(key)
  if (check) {
    const parsed = check.safeParse(meta.kind === 'json' ? JSON.parse(value) : value)
    if (!parsed.success) return { ok: false, message: `${key}: ${parsed.error.issues[0]?.message ?? 'invalid value'}` }
  }
  return { ok: true, value }
}
