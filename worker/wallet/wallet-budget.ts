/**
 * A token's budget inside its UserWallet: the settings the relay sends with each request are kept
 * in the token's state, and a new budget (or a new period or time zone) starts from what the
 * token's consumption rows (consume, and error rows that give an expiry charge back; credits such as
 * a failed task's refund are not spending) in the current period already add up to — pending rows are flushed first and
 * D1 is summed while every other event of the wallet is held off, so the sum is exact. From then
 * on WalletStore.charge adds each charge whose log row falls in the period (Σ log quota in the
 * period = budget used), and the period rolls at its end on the fake-clock-able clockNow.
 * `budgetCrossing` says when a charge took the budget to 80 % or 100 % of its quota: the store
 * keeps the crossings until the next settle answers them to the worker, which sends the notices.
 */
import { periodBounds } from '../lib/budget-period'
import { clockNow } from '../lib/clock'
import type { LimitSpec } from './wallet-limits'
import type { TokenState } from './wallet-state'
import type { WalletStore } from './wallet-store'
import type { BudgetCrossing } from './wallet-types'

export interface BudgetView {
  period: string
  quota: number
  used: number
  start: number
  end: number
}

export interface WalletParts {
  store: WalletStore
  ctx: DurableObjectState
  db: D1Database
  flush: () => Promise<void>
}

export async function configureBudget(w: WalletParts, token: TokenState, budget: LimitSpec['budget'] | undefined): Promise<void> {
  const b = token.budget
  if (!budget) {
    if (b) {
      token.budget = undefined
      w.store.touchToken(token)
    }
    return
  }
  if (b && b.period === budget.period && b.tz === budget.tz) {
    if (b.quota !== budget.quota) {
      b.quota = budget.quota
      w.store.touchToken(token)
    }
    return
  }
  await w.ctx.blockConcurrencyWhile(async () => {
    if (token.budget && token.budget.period === budget.period && token.budget.tz === budget.tz) return
    const { start, end } = periodBounds(budget.period, budget.tz, clockNow())
    await w.flush()
    const row = await w.db
      .prepare('SELECT COALESCE(SUM(quota), 0) AS used FROM logs WHERE user_id = ? AND token_id = ? AND type IN (2, 5) AND created_at >= ? AND created_at < ?')
      .bind(w.store.user!.id, token.id, Math.ceil(start / 1000), Math.ceil(end / 1000))
      .first<{ used: number }>()
    token.budget = { period: budget.period, tz: budget.tz, quota: budget.quota, start, end, used: row?.used ?? 0 }
    w.store.touchToken(token)
  })
}

/** The token's budget in its current period (rolled over when a new period began). */
export function budgetView(store: WalletStore, token: TokenState): BudgetView {
  store.tokenFree(token)
  const b = token.budget!
  return { period: b.period, quota: b.quota, used: b.used, start: b.start, end: b.end }
}

/** The notice a change of `used` from `before` to `after` calls for (the higher one when both were passed). */
export function budgetCrossing(before: number, after: number, quota: number): BudgetCrossing['kind'] | null {
  if (quota <= 0 || after <= before) return null
  if (before < quota && after >= quota) return 'exhausted'
  // ceil(80 % of quota) in integers: quota − floor(quota / 5).
  const threshold = quota - Math.floor(quota / 5)
  return before < threshold && after >= threshold ? 'threshold' : null
}
