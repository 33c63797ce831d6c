/**
 * Subscriptions as the API shows them (issue 33): each with its copied terms and, while active,
 * each window's use now. A window's `used` is Σ quota (quota windows) or the number (request
 * windows) of the log rows that name the subscription, created inside the window's current bounds
 * in BudgetTimezone — a consume row counts one, a give-back row (an error row returning an expiry
 * charge, a failed task's refund row: negative quota) minus one; `resets_at` is the window's end.
 * The wallet writes those rows, so this view and the wallet's own count agree by construction.
 * Ended subscriptions show their windows with nothing used and no reset. An auto-renewing one shows
 * the renewal order waiting to be paid for its current expiry, if the cron placed one.
 */
import { desc, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { subscriptions } from '../db/schema'
import { windowBounds } from '../lib/budget-period'
import { clockNow } from '../lib/clock'
import { getSettings } from '../settings/store'
import { renewalKeyOf, type SubscriptionRow } from './subscriptions'
import { LOG_TYPE, SUBSCRIPTION_STATUS } from '../../shared/contract/enums'
import type { PlanWindow, RenewalDue, SubscriptionView, SubscriptionWindowView } from '../../shared/contract/plans'

const allowanceOf = (w: PlanWindow) => ('quota' in w ? { quota: w.quota } : { requests: w.requests })

/** The subscriptions of a user, newest first (at most `limit`), with their windows' use. */
export async function userSubscriptions(env: Env, userId: number, limit = 100): Promise<SubscriptionView[]> {
  const rows = await createDb(env.DB).select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.id)).limit(limit)
  return subscriptionViews(env, rows)
}

/** The unpaid renewal orders of the current expiries of active auto-renewing subscriptions (payments/renewal-orders.ts writes them). */
async function renewalsDue(env: Env, rows: SubscriptionRow[]): Promise<Map<number, RenewalDue>> {
  const keys = rows.filter((r) => r.status === SUBSCRIPTION_STATUS.ACTIVE && r.autoRenew && !r.stripeSubscriptionId).map(renewalKeyOf)
  const due = new Map<number, RenewalDue>()
  if (!keys.length) return due
  const { results } = await env.DB.prepare(
    `SELECT o.subscription_id, o.trade_no, o.order_amount, o.order_currency, p.name, p.type FROM orders o JOIN payments p ON p.id = o.gateway_id
     WHERE o.renewal_key IN (${keys.map(() => '?').join(', ')}) AND o.status IN ('pending', 'closed', 'failed')`
  )
    .bind(...keys)
    .all<{ subscription_id: number; trade_no: string; order_amount: number; order_currency: string; name: string; type: string }>()
  for (const r of results) due.set(r.subscription_id, { trade_no: r.trade_no, amount_cents: r.order_amount, currency: r.order_currency, gateway: r.name, gateway_type: r.type })
  return due
}

export async function subscriptionViews(env: Env, rows: SubscriptionRow[]): Promise<SubscriptionView[]> {
  const tz = (await getSettings(env)).str('BudgetTimezone') || 'UTC'
  const now = clockNow()
  const asked: { sub: number; window: number; start: number; end: number }[] = []
  rows.forEach((row, sub) => {
    if (row.status !== SUBSCRIPTION_STATUS.ACTIVE) return
    row.terms.windows.forEach((w, window) => asked.push({ sub, window, ...windowBounds(w.period, tz, now) }))
  })
  const statements = asked.map((a) =>
    env.DB.prepare(
      `SELECT COALESCE(SUM(quota), 0) AS quota, COALESCE(SUM(CASE WHEN type = ? THEN 1 WHEN quota < 0 THEN -1 ELSE 0 END), 0) AS n
       FROM logs WHERE subscription_id = ? AND type IN (?, ?, ?) AND created_at >= ? AND created_at < ?`
    ).bind(LOG_TYPE.CONSUME, rows[a.sub]!.id, LOG_TYPE.CONSUME, LOG_TYPE.ERROR, LOG_TYPE.SYSTEM, Math.ceil(a.start / 1000), Math.ceil(a.end / 1000))
  )
  const sums = statements.length ? await env.DB.batch<{ quota: number; n: number }>(statements) : []
  const due = await renewalsDue(env, rows)
  const use = new Map<string, { used: number; resets_at: number }>()
  asked.forEach((a, i) => {
    const sum = sums[i]?.results[0]
    const w = rows[a.sub]!.terms.windows[a.window]!
    use.set(`${a.sub}:${a.window}`, { used: 'quota' in w ? (sum?.quota ?? 0) : (sum?.n ?? 0), resets_at: a.end })
  })
  return rows.map((row, sub) => ({
    id: row.id,
    plan_id: row.planId,
    name: row.terms.name,
    status: row.status,
    source: row.source,
    starts_at: row.startsAt,
    expires_at: row.expiresAt,
    auto_renew: row.autoRenew,
    stripe_recurring: row.stripeSubscriptionId !== '' && !row.stripeEnded,
    renewal_due: due.get(row.id) ?? null,
    terms: row.terms,
    windows: row.terms.windows.map((w, window): SubscriptionWindowView => ({ period: w.period, ...allowanceOf(w), ...(use.get(`${sub}:${window}`) ?? { used: 0, resets_at: 0 }) })),
  }))
}
