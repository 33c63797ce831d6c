/**
 * The current period's budget use of listed tokens, read from their owners' wallets (the budget
 * used is wallet state: the sum of the token's log rows in the period). One wallet call per owner
 * on the page; a token whose budget the wallet has not seen yet (never used since it was set)
 * shows no use.
 */
import type { BudgetUse } from '../../../shared/contract/tokens'
import { walletOf } from '../../wallet/wallet-client'
import { logger } from '../../lib/logger'

const serverLog = logger({ module: 'token-budgets' })

export async function budgetUses(env: Env, tokens: { id: number; userId: number }[]): Promise<Map<number, BudgetUse>> {
  const byUser = new Map<number, number[]>()
  for (const t of tokens) byUser.set(t.userId, [...(byUser.get(t.userId) ?? []), t.id])
  const out = new Map<number, BudgetUse>()
  await Promise.all(
    [...byUser].map(async ([userId, tokenIds]) => {
      try {
        const uses = await walletOf(env, userId).budgets({ userId, tokenIds })
        for (const [id, use] of Object.entries(uses)) out.set(Number(id), use)
      } catch (err) {
        serverLog.error('budget use: the wallet did not answer', { user_id: userId, error: err })
      }
    })
  )
  return out
}
