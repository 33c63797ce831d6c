/**
 * The limits and budget part of the token and user forms: requests/tokens per minute,
 * concurrency (0 = none), a budget per day/week/month (entered like quotas: dollars when the site
 * shows currency) and per-model limits, one "pattern rpm tpm" line each (a pattern is a model
 * name or a prefix ending in *). Converts between the API fields and the form's strings; messages
 * are i18n keys of the tokens namespace.
 */
import type { BudgetUse } from '@contract/tokens'
import type { BudgetPeriod, UserLimits } from '@contract/users'
import { z } from 'zod'
import { inputToQuota, quotaToInput } from '@/lib/format'

/** The limit fields of the token and user APIs. */
export type LimitValues = UserLimits

const NONE = 'none'
export const BUDGET_PERIODS = [NONE, 'day', 'week', 'month'] as const

export const limitsFormShape = {
  rpm_limit: z.string().trim(),
  tpm_limit: z.string().trim(),
  concurrency_limit: z.string().trim(),
  budget_period: z.enum(BUDGET_PERIODS),
  budget_quota: z.string().trim(),
  model_limits: z.string(),
}

export type LimitsFormValues = { [K in keyof typeof limitsFormShape]: z.infer<(typeof limitsFormShape)[K]> }

const MAX: Record<'rpm_limit' | 'tpm_limit' | 'concurrency_limit', number> = { rpm_limit: 1_000_000, tpm_limit: 100_000_000, concurrency_limit: 10_000 }
const isCount = (v: string, max: number) => v === '' || (/^\d+$/.test(v) && Number(v) <= max)

/** One model limit per line: "pattern rpm tpm" (tpm optional). */
export function parseModelLimits(text: string): Record<string, { rpm: number; tpm: number }> | undefined {
  const out: Record<string, { rpm: number; tpm: number }> = {}
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const [pattern = '', rpm = '0', tpm = '0', extra] = line.split(/\s+/)
    if (extra !== undefined || !/^[^*]+\*?$/.test(pattern) || !isCount(rpm, MAX.rpm_limit) || !isCount(tpm, MAX.tpm_limit)) return undefined
    out[pattern] = { rpm: Number(rpm), tpm: Number(tpm) }
  }
  return Object.keys(out).length <= 50 ? out : undefined
}

/** Add the limit fields' issues to a form's superRefine. */
export function checkLimits(v: LimitsFormValues, ctx: z.RefinementCtx, currency: boolean) {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
  for (const key of ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const) {
    if (!isCount(v[key], MAX[key])) issue(key, 'tokens:validation.limitCount')
  }
  if (v.budget_period !== NONE) {
    const n = Number(v.budget_quota)
    if (v.budget_quota === '' || !Number.isFinite(n) || n <= 0) issue('budget_quota', 'tokens:validation.budgetPositive')
    else if (!currency && !Number.isInteger(n)) issue('budget_quota', 'tokens:validation.quotaInteger')
  }
  if (!parseModelLimits(v.model_limits)) issue('model_limits', 'tokens:validation.modelLimits')
}

const countText = (n: number | undefined) => (n ? String(n) : '')

export function limitsDefaults(src?: Partial<LimitValues>): LimitsFormValues {
  return {
    rpm_limit: countText(src?.rpm_limit),
    tpm_limit: countText(src?.tpm_limit),
    concurrency_limit: countText(src?.concurrency_limit),
    budget_period: src?.budget_period && src.budget_quota ? src.budget_period : NONE,
    budget_quota: src?.budget_quota ? String(quotaToInput(src.budget_quota)) : '',
    model_limits: Object.entries(src?.model_limits ?? {})
      .map(([pattern, l]) => `${pattern} ${l.rpm} ${l.tpm}`)
      .join('\n'),
  }
}

export function limitsBody(v: LimitsFormValues): LimitValues {
  const budget = v.budget_period !== NONE
  return {
    rpm_limit: Number(v.rpm_limit || 0),
    tpm_limit: Number(v.tpm_limit || 0),
    concurrency_limit: Number(v.concurrency_limit || 0),
    budget_period: budget ? (v.budget_period as BudgetPeriod) : '',
    budget_quota: budget ? Math.max(1, inputToQuota(Number(v.budget_quota))) : 0,
    model_limits: parseModelLimits(v.model_limits) ?? {},
  }
}

/** Share of the budget used in the current period, 0–100. */
export const budgetPercent = (use: BudgetUse) => (use.quota > 0 ? Math.min(100, Math.max(0, (use.used / use.quota) * 100)) : 0)
