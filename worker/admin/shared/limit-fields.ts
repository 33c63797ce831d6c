/**
 * The zod fields of per-token limits and budgets, shared by the token form and the user form (a
 * user's values are ceilings for their tokens). Every number is a finite, non-negative safe
 * integer within a bound; model patterns are exact names or prefixes ending in `*`.
 */
import { z } from 'zod'
import { BUDGET_PERIODS } from '../../lib/budget-period'
import type { BudgetPeriod, ModelLimits, UserLimits } from '../../../shared/contract/users'

const MAX_PER_MINUTE = 100_000_000
const bounded = (max: number) => z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(max, `must be at most ${max}`)
const count = (max: number) => bounded(max).default(0)

const modelPattern = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^*]*\*?$/, 'a model name, or a prefix ending in *')

export const modelLimitsField = z
  .record(modelPattern, z.object({ rpm: count(MAX_PER_MINUTE), tpm: count(MAX_PER_MINUTE) }))
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 model limits')
  .default({})

export const limitFields = {
  rpm_limit: count(1_000_000),
  tpm_limit: count(MAX_PER_MINUTE),
  concurrency_limit: count(10_000),
  budget_period: z.enum(BUDGET_PERIODS).default(''),
  budget_quota: count(Number.MAX_SAFE_INTEGER),
  model_limits: modelLimitsField,
}

/** The same fields for a partial update (the user form): an absent field keeps its value. */
export const optionalLimitFields = {
  rpm_limit: bounded(1_000_000).optional(),
  tpm_limit: bounded(MAX_PER_MINUTE).optional(),
  concurrency_limit: bounded(10_000).optional(),
  budget_period: z.enum(BUDGET_PERIODS).optional(),
  budget_quota: bounded(Number.MAX_SAFE_INTEGER).optional(),
  model_limits: modelLimitsField.optional(),
}

export type LimitFieldValues = { [K in keyof typeof limitFields]: z.infer<(typeof limitFields)[K]> }

/** The drizzle columns (db/schema/limits.ts) of validated limit fields. */
export const limitColumnValues = (f: LimitFieldValues) => ({
  rpmLimit: f.rpm_limit,
  tpmLimit: f.tpm_limit,
  concurrencyLimit: f.concurrency_limit,
  budgetPeriod: f.budget_period,
  budgetQuota: f.budget_quota,
  modelLimits: f.model_limits,
})

/** The drizzle columns of the limit fields present in a partial update. */
export function partialLimitColumns(f: Partial<LimitFieldValues>) {
  const all = limitColumnValues(f as LimitFieldValues)
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Partial<typeof all>
}

/** The API view of a row's limit columns. */
export const limitView = (r: {
  rpmLimit: number
  tpmLimit: number
  concurrencyLimit: number
  budgetPeriod: BudgetPeriod
  budgetQuota: number
  modelLimits: ModelLimits | null
}): UserLimits => ({
  rpm_limit: r.rpmLimit,
  tpm_limit: r.tpmLimit,
  concurrency_limit: r.concurrencyLimit,
  budget_period: r.budgetPeriod,
  budget_quota: r.budgetQuota,
  model_limits: r.modelLimits ?? {},
})
