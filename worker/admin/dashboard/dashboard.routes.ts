/**
 * Dashboards read the `statistics` rollup (kept current by the wallets' write-behind and recounted by
 * cron), never raw logs, so they do not change when old log rows leave D1; the admin analytics read
 * its day × model and day × user sums (`statistics_models`, `statistics_users`, kept by triggers).
 * /api/user/dashboard: the caller's balance (exact, from the wallet), today's figures and per-day ×
 * model rows for a range (with the quota the response cache saved), and for administrators the plan
 * sales of the range and the active subscriptions (plan-figures.ts). /api/analytics/*: admin totals, time series, registrations (direct vs
 * invited), redemptions, channel counts by status, top users and models, and the prompt-cache hit
 * share per model.
 */
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { userRoute, adminRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { nowSeconds } from '../../lib/time'
import { getRoutingTable, modelsOfGroup } from '../../channels/routing-table'
import { dateOf } from '../../logs/rollup'
import type { HonoEnv, SessionUser } from '../../env'
import type { DashboardData, UsageRow } from '../../../shared/contract/dashboard'
import type { DailyUsage, ModelCacheHits, PeriodStatistics, SiteStatistics, TopModel, TopUser } from '../../../shared/contract/analytics'
import { walletOf } from '../../wallet/wallet-client'
import { REDEMPTION_STATUS, ROLE } from '../../../shared/contract/enums'
import { assertAdminSecondFactor } from '../../accounts/two-factor-policy'
import { planFigures } from './plan-figures'

const MAX_RANGE_DAYS = 366

const rangeQuery = z
  .object({
    start_timestamp: z.coerce.number().int().min(0).optional(),
    end_timestamp: z.coerce.number().int().min(0).optional(),
  })
  .transform((q) => {
    const end = q.end_timestamp ?? nowSeconds()
    const start = q.start_timestamp ?? end - 6 * 86400
    return { start, end, from: dateOf(start), to: dateOf(end) }
  })
  .refine((r) => r.start <= r.end, { message: 'start must be before end', path: ['start_timestamp'] })
  .refine((r) => r.end - r.start <= MAX_RANGE_DAYS * 86400, { message: `the range is limited to ${MAX_RANGE_DAYS} days`, path: ['start_timestamp'] })

/** Whether the caller may see the admin figures: an administrator who passes the admin pages' second-factor policy. */
async function adminFigures(c: Context<HonoEnv>, me: SessionUser): Promise<boolean> {
  if (me.role < ROLE.ADMIN) return false
  try {
    await assertAdminSecondFactor(c, me)
    return true
  } catch {
    return false
  }
}

export const dashboardRoutes = new Hono<HonoEnv>()
  .get('/user/dashboard', userRoute, validate('query', rangeQuery), async (c) => {
    const me = c.get('user')!
    const { start, end, from, to } = c.req.valid('query')
    const today = dateOf(nowSeconds())
    const [rows, balance, table, plans] = await Promise.all([
      c.env.DB.prepare(
        `SELECT date, model_name, SUM(request_count) AS request_count, SUM(quota) AS quota, SUM(prompt_tokens) AS prompt_tokens,
                SUM(completion_tokens) AS completion_tokens, SUM(request_time) AS request_time, SUM(cached_tokens) AS cached_tokens,
                SUM(saved_quota) AS saved_quota
         FROM statistics WHERE user_id = ? AND date BETWEEN ? AND ? GROUP BY date, model_name ORDER BY date, model_name`
      )
        .bind(me.id, from, to)
        .all<UsageRow>(),
      walletOf(c.env, me.id).balance({ userId: me.id }),
      getRoutingTable(c.env, c.executionCtx),
      adminFigures(c, me).then((admin) => (admin ? planFigures(c.env, start, end) : undefined)),
    ])
    const todayRows = rows.results.filter((r) => r.date === today)
    return ok(c, {
      balance: { quota: balance?.quota ?? 0, used_quota: balance?.usedQuota ?? 0, request_count: balance?.requestCount ?? 0 },
      today: {
        request_count: todayRows.reduce((s, r) => s + r.request_count, 0),
        quota: todayRows.reduce((s, r) => s + r.quota, 0),
        tokens: todayRows.reduce((s, r) => s + r.prompt_tokens + r.completion_tokens, 0),
      },
      rows: rows.results,
      models: modelsOfGroup(table, me.group),
      ...(plans && { plans }),
    } satisfies DashboardData)
  })
  .get('/analytics/statistics', adminRoute, async (c) => {
    const [usersRow, channelsRows, redemptionRows] = await c.env.DB.batch<Record<string, number>>([
      c.env.DB.prepare(
        'SELECT COUNT(*) AS user_count, COALESCE(SUM(quota), 0) AS total_quota, COALESCE(SUM(used_quota), 0) AS total_used_quota, SUM(inviter_id > 0) AS invited_count FROM users'
      ),
      c.env.DB.prepare('SELECT status, COUNT(*) AS n FROM channels GROUP BY status'),
      c.env.DB.prepare('SELECT status, COUNT(*) AS n, COALESCE(SUM(quota), 0) AS quota FROM redemptions GROUP BY status'),
    ])
    const byStatus = (rows: Record<string, number>[], status: number) => rows.find((r) => r.status === status)?.n ?? 0
    const ch = channelsRows!.results
    const rd = redemptionRows!.results
    const totals = usersRow!.results[0] as Pick<SiteStatistics, 'user_count' | 'total_quota' | 'total_used_quota' | 'invited_count'>
    return ok(c, {
      ...totals,
      channels: { enabled: byStatus(ch, 1), disabled: byStatus(ch, 2), auto_disabled: byStatus(ch, 3), test_disabled: byStatus(ch, 4) },
      redemptions: {
        unused: byStatus(rd, REDEMPTION_STATUS.UNUSED),
        disabled: byStatus(rd, REDEMPTION_STATUS.DISABLED),
        used: byStatus(rd, REDEMPTION_STATUS.REDEEMED),
        used_quota: rd.find((r) => r.status === 3)?.quota ?? 0,
      },
    } satisfies SiteStatistics)
  })
  .get('/analytics/period', adminRoute, validate('query', rangeQuery), async (c) => {
    const { start, end, from, to } = c.req.valid('query')
    const db = c.env.DB
    const [daily, models, users, registrations, redemptions, cache] = await db.batch<Record<string, any>>([
      db
        .prepare(
          `SELECT date, SUM(request_count) AS request_count, SUM(quota) AS quota, SUM(prompt_tokens) AS prompt_tokens, SUM(completion_tokens) AS completion_tokens, SUM(request_time) AS request_time,
                  SUM(saved_quota) AS saved_quota
           FROM statistics_models WHERE date BETWEEN ? AND ? GROUP BY date HAVING SUM(request_count) > 0 ORDER BY date`
        )
        .bind(from, to),
      db
        .prepare(
          `SELECT model_name, SUM(request_count) AS request_count, SUM(quota) AS quota, SUM(prompt_tokens + completion_tokens) AS tokens
           FROM statistics_models WHERE date BETWEEN ? AND ? GROUP BY model_name HAVING SUM(request_count) > 0 ORDER BY quota DESC LIMIT 10`
        )
        .bind(from, to),
      db
        .prepare(
          `SELECT s.user_id, u.username, s.request_count, s.quota
           FROM (SELECT user_id, SUM(request_count) AS request_count, SUM(quota) AS quota FROM statistics_users WHERE date BETWEEN ? AND ?
                 GROUP BY user_id HAVING SUM(request_count) > 0 ORDER BY quota DESC LIMIT 10) s
           LEFT JOIN users u ON u.id = s.user_id ORDER BY s.quota DESC`
        )
        .bind(from, to),
      db
        .prepare(
          `SELECT date(created_time, 'unixepoch') AS date, SUM(inviter_id = 0) AS direct, SUM(inviter_id > 0) AS invited
           FROM users WHERE created_time BETWEEN ? AND ? GROUP BY date ORDER BY date`
        )
        .bind(start, end),
      db
        .prepare(
          `SELECT date(redeemed_time, 'unixepoch') AS date, COUNT(*) AS count, SUM(quota) AS quota
           FROM redemptions WHERE status = 3 AND redeemed_time BETWEEN ? AND ? GROUP BY date ORDER BY date`
        )
        .bind(start, end),
      // Cache-hit share per model: prompt tokens served from the supplier's prompt cache.
      db
        .prepare(
          `SELECT model_name, SUM(prompt_tokens) AS prompt_tokens, SUM(cached_tokens) AS cached_tokens
           FROM statistics_models WHERE date BETWEEN ? AND ? GROUP BY model_name HAVING SUM(prompt_tokens) > 0 ORDER BY prompt_tokens DESC LIMIT 10`
        )
        .bind(from, to),
    ])
    return ok(c, {
      daily: daily!.results as DailyUsage[],
      top_models: models!.results as TopModel[],
      top_users: users!.results as TopUser[],
      registrations: registrations!.results as PeriodStatistics['registrations'],
      redemptions: redemptions!.results as PeriodStatistics['redemptions'],
      cache_hits: cache!.results as ModelCacheHits[],
    } satisfies PeriodStatistics)
  })
