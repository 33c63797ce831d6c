/**
 * GET /api/user/subscription (issue 33): only the caller's subscriptions, each window's `used`
 * summed from the consume rows naming the subscription inside the window's bounds in
 * BudgetTimezone, and `resets_at` at the window's end. Also the default plan of new accounts.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { setOptions } from '../../test/factories'
import { windowBounds } from '../../lib/budget-period'
import { applyDefaultPlan } from '../../plans/default-plan'
import { getSettings } from '../../settings/store'

const HOUR = 3_600_000
const DAY = 24 * HOUR

async function logRow(userId: number, subscriptionId: number, type: number, quota: number, createdAtMs: number) {
  await env.DB.prepare('INSERT INTO logs (user_id, username, type, quota, created_at, subscription_id) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(userId, 'u', type, quota, Math.floor(createdAtMs / 1000), subscriptionId)
    .run()
}

describe('my subscriptions', () => {
  it("shows only the caller's subscriptions with each window's use and reset in BudgetTimezone", async () => {
    const root = await setupRoot()
    await setOptions({ BudgetTimezone: 'Asia/Shanghai' })
    const planId = (
      await root.post('/api/plan/', {
        name: 'Windows',
        price: 5,
        duration_unit: 'month',
        windows: [
          { period: 'day', quota: 10_000 },
          { period: 'hour', requests: 10 },
        ],
      })
    ).body.data.id
    const me = await signedInUser('windowme')
    const other = await signedInUser('windowother')
    const mine = (await root.post('/api/plan/grant', { user_id: me.id, plan_id: planId })).body.data.id
    const theirs = (await root.post('/api/plan/grant', { user_id: other.id, plan_id: planId })).body.data.id

    const now = Date.now()
    const day = windowBounds('day', 'Asia/Shanghai', now)
    const hour = windowBounds('hour', 'Asia/Shanghai', now)
    await logRow(me.id, mine, 2, 300, now)
    await logRow(me.id, mine, 2, 200, day.start) // the day's first second: in the day, in the hour only if it is the day's first hour
    await logRow(me.id, mine, 2, 4000, day.start - 1000) // yesterday
    await logRow(me.id, mine, 1, 9000, now) // not a consume row
    await logRow(me.id, 0, 2, 7000, now) // drawn from the balance
    await logRow(other.id, theirs, 2, 5000, now)

    const res = await me.client.get('/api/user/subscription')
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(1)
    const [sub] = res.body.data
    expect(sub).toMatchObject({ id: mine, plan_id: planId, name: 'Windows', status: 1, source: 'grant', auto_renew: false })
    // Shanghai is UTC+8 all year: its days start at 16:00 UTC and its hours on the UTC hour.
    const nextDay = Math.floor((now - 16 * HOUR) / DAY) * DAY + 16 * HOUR + DAY
    const nextHour = Math.floor(now / HOUR) * HOUR + HOUR
    expect(sub.windows).toEqual([
      { period: 'day', quota: 10_000, used: 500, resets_at: nextDay },
      { period: 'hour', requests: 10, used: hour.start === day.start ? 2 : 1, resets_at: nextHour },
    ])
    const theirView = (await other.client.get('/api/user/subscription')).body.data
    expect(theirView.map((s: { id: number }) => s.id)).toEqual([theirs])
    expect(theirView[0].windows[0].used).toBe(5000)

    // An ended subscription stays listed, with nothing in use and no reset.
    await root.post('/api/plan/revoke', { subscription_id: mine, refund: false })
    const [ended] = (await me.client.get('/api/user/subscription')).body.data
    expect(ended).toMatchObject({ id: mine, status: 3 })
    expect(ended.windows.map((w: { used: number; resets_at: number }) => [w.used, w.resets_at])).toEqual([
      [0, 0],
      [0, 0],
    ])
    // The admin's view of a user's subscriptions is the same shape.
    expect((await root.get(`/api/plan/subscriptions?user_id=${other.id}`)).body.data).toEqual(theirView)
    expect((await root.get('/api/plan/subscriptions?user_id=abc')).status).toBe(400)
  })

  it('subscribes new accounts to the default plan once; a missing plan does not block registration', async () => {
    const root = await setupRoot()
    const planId = (await root.post('/api/plan/', { name: 'Starter', price: 0, duration_unit: 'week', windows: [{ period: 'day', requests: 20 }], group: 'vip' })).body.data.id
    expect((await root.put('/api/option/', { key: 'DefaultPlanId', value: String(planId) })).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'DefaultPlanId', value: '-1' })).status).toBe(400)
    const fresh = await signedInUser('starter')
    const [sub] = (await fresh.client.get('/api/user/subscription')).body.data
    expect(sub).toMatchObject({ plan_id: planId, source: 'default', status: 1, windows: [{ period: 'day', requests: 20, used: 0 }] })
    const row = await env.DB.prepare('SELECT key FROM subscriptions WHERE user_id = ?').bind(fresh.id).first<{ key: string }>()
    expect(row?.key).toBe(`default-plan:${fresh.id}`)
    // Applied again (a retried registration step): still one subscription.
    await applyDefaultPlan(env, await getSettings(env), fresh.id)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE user_id = ?').bind(fresh.id).first()).toEqual({ n: 1 })
    expect(await env.DB.prepare('SELECT "group" AS g FROM users WHERE id = ?').bind(fresh.id).first()).toEqual({ g: 'vip' })

    await root.delete(`/api/plan/${planId}`)
    const later = await signedInUser('afterdelete')
    expect((await later.client.get('/api/user/subscription')).body.data).toEqual([])
    await setOptions({ DefaultPlanId: '0' })
    const none = await signedInUser('noplan')
    expect((await none.client.get('/api/user/subscription')).body.data).toEqual([])
  })
})
