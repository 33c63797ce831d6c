/**
 * The limit and budget columns shared by tokens and users (a user's values are ceilings for their
 * tokens: a token may only narrow them, worker/access/token-limits.ts effectiveLimits). Enforced by
 * worker/access/token-limits.ts and the wallet (worker/wallet/wallet-limits.ts).
 */
import { integer, text } from 'drizzle-orm/sqlite-core'

/** Model pattern (exact name, or a prefix ending in `*`) → its own requests/tokens per minute (0 = none). */
export type ModelLimits = Record<string, { rpm: number; tpm: number }>

export const limitColumns = () => ({
  rpmLimit: integer('rpm_limit').notNull().default(0),
  tpmLimit: integer('tpm_limit').notNull().default(0),
  concurrencyLimit: integer('concurrency_limit').notNull().default(0),
  /** '' (no budget), 'day', 'week' or 'month', starting at midnight in the BudgetTimezone setting. */
  budgetPeriod: text('budget_period').$type<'' | 'day' | 'week' | 'month'>().notNull().default(''),
  /** Units the token may spend per period (0 = no budget). */
  budgetQuota: integer('budget_quota').notNull().default(0),
  modelLimits: text('model_limits', { mode: 'json' }).$type<ModelLimits>().notNull().default({}),
})
