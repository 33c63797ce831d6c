/**
 * The administrators' plan figures on GET /api/user/dashboard: two plans sold through Epay (CNY) and
 * Stripe (USD) — paid, unpaid, refunded and paid before the period — and subscriptions active,
 * expired, revoked and past their expiry but not yet swept. Only paid, unrefunded orders of the
 * period count, per plan × currency; only live active subscriptions count. A user gets no `plans`;
 * both queries read their indexes.
 */
import { exports } from 'cloudflare:workers'
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { type TestClient, setupRoot, signedInUser } from '../../test/client'
import type { BuiltNotify } from '../../test/payments-notify'
import { CONFIGS, type Kind, notifyFor, useFakeGatewayApis } from '../../test/payments-gateways'
import { nowSeconds } from '../../lib/time'
import { sweepExpiredSubscriptions } from '../../plans/subscription-end'
import { PLAN_SALES_SQL, PLANS_ACTIVE_SQL } from './plan-figures'

useFakeGatewayApis()

async function createGateway(root: TestClient, kind: Kind) {
  const res = await root.post('/api/payment/', { name: `${kind} dash`, type: kind, currency: CONFIGS[kind].currency, config: CONFIGS[kind].config })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string }
}

async function createPlan(root: TestClient, name: string, price: number) {
  const res = await root.post('/api/plan/', { name, price, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }], published: true })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id as number
}

const orderOf = (tradeNo: string) =>
  env.DB.prepare('SELECT id, order_amount, order_currency FROM orders WHERE trade_no = ?').bind(tradeNo).first<{ id: number; order_amount: number; order_currency: string }>()

async function notify(uuid: string, n: BuiltNotify) {
  const res = await exports.default.fetch(
    new Request(`http://gateway.test/api/payment/notify/${uuid}${n.query ? `?${n.query}` : ''}`, { method: n.method, headers: n.headers, body: n.body })
  )
  expect(res.status).toBe(200)
}

/** Orders the plan and, unless `unpaid`, pays it; answers the order row. */
async function buy(user: TestClient, planId: number, kind: Kind, gw: { uuid: string }, unpaid = false) {
  const placed = await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid })
  expect(placed.status, JSON.stringify(placed.body)).toBe(200)
  const tradeNo = placed.body.data.trade_no as string
  const order = (await orderOf(tradeNo))!
  if (!unpaid) await notify(gw.uuid, await notifyFor(kind, tradeNo, order.order_amount, order.order_currency))
  return { ...order, tradeNo }
}

describe('dashboard plan figures', () => {
  it('counts paid plan orders of the period per plan and currency, and live active subscriptions, for admins only', async () => {
    const root = await setupRoot()
    const epay = await createGateway(root, 'epay')
    const stripe = await createGateway(root, 'stripe')
    const planA = await createPlan(root, 'Alpha', 10)
    const planB = await createPlan(root, 'Beta', 5)
    const { client: one } = await signedInUser('dashplan1')
    const { client: two } = await signedInUser('dashplan2')
    const { id: threeId } = await signedInUser('dashplan3')

    const aCny = await buy(one, planA, 'epay', epay)
    await buy(one, planA, 'stripe', stripe)
    await buy(one, planA, 'epay', epay, true)
    await buy(two, planB, 'stripe', stripe)
    const refunded = await buy(two, planB, 'epay', epay)
    expect((await root.post(`/api/payment/order/${refunded.id}/refund`)).status).toBe(200)
    // Paid before the period: not a sale of it; its subscription has expired since (the sweep).
    const early = await buy(two, planB, 'stripe', stripe)
    await env.DB.prepare('UPDATE orders SET paid_at = paid_at - 30 * 86400 WHERE id = ?').bind(early.id).run()
    await env.DB.prepare('UPDATE subscriptions SET expires_at = ? WHERE key = ?')
      .bind(Date.now() - 1000, `order:${early.tradeNo}`)
      .run()
    expect(await sweepExpiredSubscriptions(env)).toBe(1)
    // Granted: active; a second grant is past its expiry but not swept yet: not counted.
    expect((await root.post('/api/plan/grant', { user_id: threeId, plan_id: planA })).status).toBe(200)
    const lapsed = (await root.post('/api/plan/grant', { user_id: threeId, plan_id: planB })).body.data
    await env.DB.prepare('UPDATE subscriptions SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1000, lapsed.id)
      .run()
    const statuses = await env.DB.prepare('SELECT plan_id, status, COUNT(*) AS n FROM subscriptions GROUP BY plan_id, status ORDER BY plan_id, status').all()
    expect(statuses.results).toEqual([
      { plan_id: planA, status: 1, n: 3 },
      { plan_id: planB, status: 1, n: 2 },
      { plan_id: planB, status: 2, n: 1 },
      { plan_id: planB, status: 3, n: 1 },
    ])

    const now = nowSeconds()
    const dash = (await root.get(`/api/user/dashboard?start_timestamp=${now - 7 * 86400}&end_timestamp=${now + 60}`)).body.data
    expect(aCny.order_currency).toBe('CNY')
    expect(dash.plans).toEqual({
      sales: [
        { plan_id: planA, plan_name: 'Alpha', currency: 'CNY', orders: 1, revenue_cents: aCny.order_amount },
        { plan_id: planA, plan_name: 'Alpha', currency: 'USD', orders: 1, revenue_cents: 1000 },
        { plan_id: planB, plan_name: 'Beta', currency: 'USD', orders: 1, revenue_cents: 500 },
      ],
      sales_totals: [
        { currency: 'CNY', orders: 1, revenue_cents: aCny.order_amount },
        { currency: 'USD', orders: 2, revenue_cents: 1500 },
      ],
      active: [
        { plan_id: planA, plan_name: 'Alpha', count: 3 },
        { plan_id: planB, plan_name: 'Beta', count: 1 },
      ],
      active_total: 4,
    })
    // The period decides the sales (the early order alone), not the subscriptions active now.
    const past = (await root.get(`/api/user/dashboard?start_timestamp=${now - 40 * 86400}&end_timestamp=${now - 20 * 86400}`)).body.data.plans
    expect(past.sales).toEqual([{ plan_id: planB, plan_name: 'Beta', currency: 'USD', orders: 1, revenue_cents: 500 }])
    expect(past.active_total).toBe(4)

    // Users get their own dashboard without the plan figures.
    const mine = await two.get('/api/user/dashboard')
    expect(mine.status).toBe(200)
    expect(mine.body.data).not.toHaveProperty('plans')
  })

  it('reads the indexes of migration 0035', async () => {
    const plan = async (sql: string, ...args: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...args)
          .all<{ detail: string }>()
      ).results
        .map((r) => r.detail)
        .join('\n')
    expect(await plan(PLAN_SALES_SQL, 0, 1)).toMatch(/orders USING INDEX idx_orders_plan_paid \(status=\? AND paid_at>\? AND paid_at<\?\)/)
    expect(await plan(PLANS_ACTIVE_SQL, 1, 0)).toMatch(/subscriptions USING COVERING INDEX idx_subscriptions_status_plan \(status=\?\)/)
  })
})
