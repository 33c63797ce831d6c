/**
 * The plan editor's form and its mapping to the API body. Inputs stay strings in the form (price in
 * USD; a quota allowance in dollars when the site shows currency, in quota units otherwise — like
 * every quota input of the console); each window and model item picks its kind (quota, requests, or
 * for a model "not included"). `toBody` builds the PlanBody, and the form is checked with the
 * shared `planBodySchema` on top of the per-field checks, so the editor never sends what the server
 * would refuse.
 */
import { z } from 'zod'
import { inputToQuota, quotaToInput } from '@/lib/format'
import {
  PLAN_CHANNEL_TAGS_MAX,
  PLAN_DURATION_UNITS,
  PLAN_PERIODS,
  type Plan,
  type PlanBody,
  type PlanModelItem,
  type PlanWindow,
  planBodySchema,
  planGrantSchema,
} from '@contract/plans'

/** Messages are keys of the `plans` namespace. */
const K = (key: string) => `plans:validation.${key}`

export const WINDOW_KINDS = ['quota', 'requests'] as const
export const MODEL_KINDS = ['quota', 'requests', 'excluded'] as const

const isNumber = (v: string) => v.trim() !== '' && Number.isFinite(Number(v))
const whole = (min: number) =>
  z
    .string()
    .trim()
    .refine((v) => /^-?\d+$/.test(v) && Number(v) >= min, min > 0 ? K('wholePositive') : K('whole'))

/** An allowance: above 0, and a whole number when it counts requests. */
function checkAmount(kind: string, amount: string, ctx: z.RefinementCtx) {
  if (kind === 'excluded') return
  if (!(isNumber(amount) && Number(amount) > 0)) ctx.addIssue({ code: 'custom', path: ['amount'], message: K('positive') })
  else if (kind === 'requests' && !Number.isInteger(Number(amount))) ctx.addIssue({ code: 'custom', path: ['amount'], message: K('wholePositive') })
}

const windowRow = z.object({ period: z.enum(PLAN_PERIODS), kind: z.enum(WINDOW_KINDS), amount: z.string().trim() }).superRefine((w, ctx) => checkAmount(w.kind, w.amount, ctx))
const modelRow = z
  .object({ pattern: z.string().trim().min(1, 'validation.required').max(128, K('patternMax')), kind: z.enum(MODEL_KINDS), amount: z.string().trim() })
  .superRefine((m, ctx) => checkAmount(m.kind, m.amount, ctx))

export type WindowRow = z.infer<typeof windowRow>
export type ModelRow = z.infer<typeof modelRow>

const formObject = z.object({
  name: z.string().trim().min(1, 'validation.required').max(64, K('nameMax')),
  description: z.string().max(2000, K('descriptionMax')),
  price: z
    .string()
    .trim()
    .refine((v) => isNumber(v) && Number(v) >= 0 && Number(v) <= 100_000, K('price')),
  duration_unit: z.enum(PLAN_DURATION_UNITS),
  duration_count: whole(1),
  windows: z.array(windowRow).max(8, K('windowsMax')),
  models: z.array(modelRow).max(64, K('modelsMax')),
  group: z.string(),
  channel_tags: z.array(z.string()).max(PLAN_CHANNEL_TAGS_MAX, K('channelTagsMax')),
  allow_balance_fallback: z.boolean(),
  max_per_user: whole(0),
  priority: z
    .string()
    .trim()
    .refine((v) => /^-?\d+$/.test(v), K('whole')),
  published: z.boolean(),
})
export type PlanFormValues = z.infer<typeof formObject>

/**
 * Where an issue of the shared schema is shown, and with which message: a window's or item's refused
 * allowance (a quota rounding to 0 units, past the safe-integer range) under its amount input; any
 * other issue as the server words it.
 */
function placeIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  const [list, index] = issue.path
  if ((list === 'windows' || list === 'models') && typeof index === 'number') return { path: [list, index, 'amount'], message: K('allowance') }
  return { path: issue.path.length ? issue.path : ['name'], message: issue.message }
}

export const planFormSchema = formObject.superRefine((v, ctx) => {
  // The server's own schema last (integer allowances, bounds), once every field reads well.
  if (!formObject.safeParse(v).success) return
  const server = planBodySchema.safeParse(toBody(v))
  if (server.success) return
  for (const issue of server.error.issues) ctx.addIssue({ code: 'custom', ...placeIssue(issue) })
})

const allowance = (kind: 'quota' | 'requests', amount: string) => (kind === 'quota' ? { quota: inputToQuota(Number(amount)) } : { requests: Number(amount) })

/** The API body of a valid form. */
export function toBody(v: PlanFormValues): PlanBody {
  return {
    name: v.name.trim(),
    description: v.description,
    price: Number(v.price),
    duration_unit: v.duration_unit,
    duration_count: v.duration_unit === 'unlimited' ? 1 : Number(v.duration_count),
    windows: v.windows.map((w): PlanWindow => ({ period: w.period, ...allowance(w.kind, w.amount) })),
    models: v.models.map(
      (m): PlanModelItem => (m.kind === 'excluded' ? { pattern: m.pattern.trim(), excluded: true } : { pattern: m.pattern.trim(), ...allowance(m.kind, m.amount) })
    ),
    group: v.group,
    channel_tags: v.channel_tags,
    allow_balance_fallback: v.allow_balance_fallback,
    max_per_user: Number(v.max_per_user),
    priority: Number(v.priority),
    published: v.published,
  }
}

const amountOf = (a: { quota?: number; requests?: number }) => String('quota' in a && a.quota !== undefined ? quotaToInput(a.quota) : (a.requests ?? ''))

export const emptyWindow = (): WindowRow => ({ period: 'day', kind: 'requests', amount: '' })
export const emptyModel = (): ModelRow => ({ pattern: '', kind: 'requests', amount: '' })

/** The form of a plan being edited, or of a new plan (a month, one daily window to fill in, unpublished). */
export function formDefaults(plan?: Plan): PlanFormValues {
  if (!plan)
    return {
      name: '',
      description: '',
      price: '',
      duration_unit: 'month',
      duration_count: '1',
      windows: [emptyWindow()],
      models: [],
      group: '',
      channel_tags: [],
      allow_balance_fallback: true,
      max_per_user: '0',
      priority: '0',
      published: false,
    }
  return {
    name: plan.name,
    description: plan.description,
    price: String(plan.price),
    duration_unit: plan.duration_unit,
    duration_count: String(plan.duration_count),
    windows: plan.windows.map((w) => ({ period: w.period, kind: 'quota' in w ? 'quota' : 'requests', amount: amountOf(w) })),
    models: plan.models.map((m) =>
      'excluded' in m ? { pattern: m.pattern, kind: 'excluded', amount: '' } : { pattern: m.pattern, kind: 'quota' in m ? 'quota' : 'requests', amount: amountOf(m) }
    ),
    group: plan.group,
    channel_tags: plan.channel_tags,
    allow_balance_fallback: plan.allow_balance_fallback,
    max_per_user: String(plan.max_per_user),
    priority: String(plan.priority),
    published: plan.published,
  }
}

/** A stored plan as the body that saves it unchanged (to flip one flag, such as published). */
export function bodyOf(plan: Plan): PlanBody {
  const { id: _id, created_at: _created, updated_at: _updated, ...body } = plan
  return body
}

/** The grant form: a user id and a plan; checked against the shared grant schema. */
export const grantFormSchema = z
  .object({
    user_id: z
      .string()
      .trim()
      .regex(/^[1-9]\d{0,15}$/, K('userId')),
    plan_id: z.string().min(1, 'validation.required'),
  })
  .refine((v) => planGrantSchema.safeParse({ user_id: Number(v.user_id), plan_id: Number(v.plan_id) }).success, { path: ['user_id'], message: K('userId') })
export type GrantFormValues = z.infer<typeof grantFormSchema>

export const EXTEND_UNITS = ['hour', 'day', 'week', 'month', 'year'] as const

/** The extend form: how much longer a subscription lasts. */
export const extendFormSchema = z.object({ duration_unit: z.enum(EXTEND_UNITS), duration_count: whole(1).refine((v) => Number(v) <= 1000, K('countMax')) })
export type ExtendFormValues = z.infer<typeof extendFormSchema>
