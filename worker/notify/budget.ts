/**
 * Budget notices: the wallet answers a settle with the budgets it took to 80 % (`threshold`) or
 * 100 % (`exhausted`) of their quota in the current period (worker/wallet/wallet-budget.ts), and
 * the worker raises `token.budget_threshold` / `token.budget_exhausted` from them in the
 * background. The subject is the token and the period start, and the mark stands until the period
 * ends, so one period raises each notice once however many reports repeat it. The key's owner
 * gets a copy where they opted in (user-notices.ts).
 */
import type { BudgetCrossing } from '../wallet/wallet-types'
import { emitNotice } from './emit'
import type { NotifyEvent } from './types'
import { notifyBudgetOwner } from './user-notices'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'budget-notice' })

export const budgetEvent = (kind: BudgetCrossing['kind']): NotifyEvent => (kind === 'exhausted' ? 'token.budget_exhausted' : 'token.budget_threshold')

/** The one-line text of a crossing (operators' and the owner's notices alike). */
export function budgetText(c: BudgetCrossing, tokenName: string): string {
  const key = tokenName ? `API key "${tokenName}" (#${c.tokenId})` : `API key #${c.tokenId}`
  const until = new Date(c.end).toISOString()
  return c.kind === 'exhausted'
    ? `${key} spent its whole ${c.period} budget (${c.used} of ${c.quota} quota); it is refused until ${until}`
    : `${key} spent ${c.used} of its ${c.period} budget of ${c.quota} quota (80 % reached); the period ends ${until}`
}

/** Raise the notices of `crossings` (one user's wallet answer). Never throws. */
export async function alertBudgetCrossings(env: Env, userId: number, crossings: BudgetCrossing[]): Promise<void> {
  for (const c of crossings) {
    try {
      const token = await env.DB.prepare('SELECT name FROM tokens WHERE id = ?').bind(c.tokenId).first<{ name: string }>()
      const event = budgetEvent(c.kind)
      const text = budgetText(c, token?.name ?? '')
      await emitNotice(env, {
        event,
        subject: `token:${c.tokenId}:${c.start}`,
        text,
        data: { user_id: userId, token_id: c.tokenId, period: c.period, period_start: c.start, period_end: c.end, used: c.used, quota: c.quota },
        markUntil: Math.ceil(c.end / 1000),
      })
      await notifyBudgetOwner(env, userId, c, event, text)
    } catch (err) {
      serverLog.error('budget notice failed', { token_id: c.tokenId, error: err })
    }
  }
}
