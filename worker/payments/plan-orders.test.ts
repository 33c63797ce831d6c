/**
 * Plan orders (issue 33) through the API: POST /api/plan/subscribe refuses what cannot be bought
 * and writes nothing then; the price is the plan's with the gateway's fee and currency; a verified
 * notify (real Epay / Stripe signatures) starts exactly one subscription however many arrive, a
 * wrong amount or currency starts none, the balance never moves; a paid order is honoured after
 * the plan was deleted or the limit was reached; a refund revokes the subscription. The terms are
 * frozen when the order is placed: a plan edited before the payment arrives changes nothing of what
 * the buyer gets (an order from before migration 0035, with no frozen terms, gets the current ones).
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { sendNotify } from '../test/payments-notify'
import { CONFIGS, type Kind, notifyFor, useFakeGatewayApis } from '../test/payments-gateways'
import { priceOrder } from '../../shared/contract/payment-amount'

useFakeGatewayApis()

async function createGateway(root: TestClient, kind: Kind, extra: Record<string, unknown> = {}) {
  const res = await root.post('/api/payment/', { name: `${kind} plans`, type: kind, currency: CONFIGS[kind].currency, config: CONFIGS[kind].config, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string }
}

async function createPlan(root: TestClient, extra: Record<string, unknown> = {}) {
  const res = await root.post('/api/plan/', { name: 'Pro', price: 9.99, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }], published: true, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id as number
}

const send = sendNotify

async function subscribe(user: TestClient, planId: number, uuid: string) {
  const res = await user.post('/api/plan/subscribe', { plan_id: planId, uuid })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { trade_no: string; type: string; data: { url: string; params?: Record<string, string> } }
}

const orderRow = (tradeNo: string) => env.DB.prepare('SELECT * FROM orders WHERE trade_no = ?').bind(tradeNo).first<Record<string, any>>()
const orderCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>())!.n
const subsOf = async (userId: number) =>
  (await env.DB.prepare('SELECT id, plan_id, status, source, key FROM subscriptions WHERE user_id = ? ORDER BY id').bind(userId).all<Record<string, any>>()).results
const quotaOf = async (user: TestClient) => (await user.get('/api/user/self')).body.data.quota as number

describe('plan orders', () => {
  it('refuses plans that cannot be bought and bad gateways, writing nothing', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('planrefused')
    const gw = await createGateway(root, 'epay')
    const hidden = await createPlan(root, { published: false })
    const free = await createPlan(root, { price: 0 })
    const once = await createPlan(root, { max_per_user: 1 })
    const gone = await createPlan(root)
    expect((await root.delete(`/api/plan/${gone}`)).status).toBe(200)
    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: once })).status).toBe(200)

    const refused = async (body: Record<string, unknown>) => {
      const res = await user.post('/api/plan/subscribe', body)
      return { status: res.status, success: res.body.success as boolean }
    }
    expect(await refused({ plan_id: hidden, uuid: gw.uuid })).toEqual({ status: 404, success: false })
    expect(await refused({ plan_id: gone, uuid: gw.uuid })).toEqual({ status: 404, success: false })
    expect(await refused({ plan_id: 9999, uuid: gw.uuid })).toEqual({ status: 404, success: false })
    expect(await refused({ plan_id: free, uuid: gw.uuid })).toEqual({ status: 400, success: false })
    expect(await refused({ plan_id: once, uuid: gw.uuid })).toEqual({ status: 409, success: false })
    const good = await createPlan(root)
    expect(await refused({ plan_id: good, uuid: 'nope' })).toEqual({ status: 404, success: false })
    expect(await refused({ plan_id: good })).toEqual({ status: 400, success: false })
    expect(await refused({ plan_id: -1, uuid: gw.uuid })).toEqual({ status: 400, success: false })
    expect((await root.put('/api/payment/', { id: gw.id, enable: false })).status).toBe(200)
    expect(await refused({ plan_id: good, uuid: gw.uuid })).toEqual({ status: 404, success: false })
    expect(await orderCount()).toBe(0)
    expect((await subsOf(userId)).map((s) => s.source)).toEqual(['grant'])
  })

  it('prices like a top-up without discount, starts one subscription for concurrent Epay notifies, none for a wrong amount', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { PaymentUSDRate: '7.3', RechargeDiscount: '{"9":0.5,"10":0.5}' } })
    const { client: user, id: userId } = await signedInUser('planbuyer')
    const gw = await createGateway(root, 'epay', { percent_fee: 0.05 })
    const planId = await createPlan(root)
    const placed = await subscribe(user, planId, gw.uuid)
    expect(placed.type).toBe('redirect')
    expect(placed.data.params!.name).toContain('plan "Pro"')
    expect(placed.data.params!.return_url).toBe(`http://gateway.test/panel/plans?trade_no=${placed.trade_no}`)
    // $9.99 + 5 % fee at 7.3 CNY/USD; the RechargeDiscount map does not apply to plans.
    const price = priceOrder({ baseCents: 999, multiplier: 1, percentFee: 0.05, fixedFeeCents: 0, currency: 'CNY', usdRate: 7.3 })
    expect(price.payCents).toBe(7658)
    expect(await orderRow(placed.trade_no)).toMatchObject({
      plan_id: planId,
      amount: 0,
      quota: 0,
      order_amount: 7658,
      order_currency: 'CNY',
      fee: price.feeCents,
      order_fee: price.payFeeCents,
      status: 'pending',
    })

    expect((await send(gw.uuid, await notifyFor('epay', placed.trade_no, 7657, 'CNY'))).text).toBe('fail')
    expect(await subsOf(userId)).toEqual([])
    expect((await orderRow(placed.trade_no))!.status).toBe('pending')

    const good = await notifyFor('epay', placed.trade_no, 7658, 'CNY')
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(gw.uuid, good)))
    expect(answers.map((a) => a.text)).toEqual(Array(5).fill('success'))
    expect((await send(gw.uuid, good)).text).toBe('success')
    const subs = await subsOf(userId)
    expect(subs).toEqual([{ id: subs[0]!.id, plan_id: planId, status: 1, source: 'order', key: `order:${placed.trade_no}` }])
    expect(await quotaOf(user)).toBe(0)
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 1').bind(userId).first<{ n: number }>())!.n).toBe(0)
    expect((await orderRow(placed.trade_no))!.status).toBe('success')
    expect((await user.get(`/api/user/order/status?trade_no=${placed.trade_no}`)).body).toMatchObject({ success: true, data: { status: 'success' } })
    const mine = (await user.get('/api/user/order')).body.data.data
    expect(mine).toEqual([expect.objectContaining({ trade_no: placed.trade_no, plan_id: planId, plan_name: 'Pro', quota: 0, order_amount: 76.58 })])
    const listed = (await root.get(`/api/payment/order?trade_no=${placed.trade_no}`)).body.data.data
    expect(listed[0]).toMatchObject({ plan_id: planId, plan_name: 'Pro', username: 'planbuyer' })
    const mySubs = (await user.get('/api/user/subscription')).body.data
    expect(mySubs).toEqual([expect.objectContaining({ plan_id: planId, source: 'order', status: 1 })])
  })

  it('refuses a Stripe notify in another currency and honours a paid order after the plan was deleted or the limit reached', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('planstripe')
    const gw = await createGateway(root, 'stripe')
    const planId = await createPlan(root, { max_per_user: 1, price: 12.5 })
    const a = await subscribe(user, planId, gw.uuid)
    const b = await subscribe(user, planId, gw.uuid)
    expect((await orderRow(a.trade_no))!.order_amount).toBe(1250)

    const wrong = await send(gw.uuid, await notifyFor('stripe', a.trade_no, 1250, 'CNY'))
    expect(wrong.status).not.toBe(200)
    expect(await subsOf(userId)).toEqual([])

    expect((await send(gw.uuid, await notifyFor('stripe', a.trade_no, 1250, 'USD'))).status).toBe(200)
    // The limit is now reached and the plan deleted, but b is paid: it still starts.
    expect((await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid })).status).toBe(409)
    expect((await root.delete(`/api/plan/${planId}`)).status).toBe(200)
    expect((await send(gw.uuid, await notifyFor('stripe', b.trade_no, 1250, 'USD'))).status).toBe(200)
    const subs = await subsOf(userId)
    expect(subs.map((s) => [s.key, s.status])).toEqual([
      [`order:${a.trade_no}`, 1],
      [`order:${b.trade_no}`, 1],
    ])
    expect(await quotaOf(user)).toBe(0)
  })

  it('a refund revokes the subscription the order started, without touching the balance', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('planrefund')
    const gw = await createGateway(root, 'epay')
    const planId = await createPlan(root, { price: 10 })
    const placed = await subscribe(user, planId, gw.uuid)
    const paid = await notifyFor('epay', placed.trade_no, 7300, 'CNY')
    expect((await send(gw.uuid, paid)).text).toBe('success')
    const orderId = (await orderRow(placed.trade_no))!.id as number

    const refund = await root.post(`/api/payment/order/${orderId}/refund`)
    expect(refund.status, JSON.stringify(refund.body)).toBe(200)
    expect(refund.body.message).toMatch(/subscription was revoked/)
    expect(refund.body.data).toMatchObject({ status: 'refunded', plan_id: planId })
    expect((await subsOf(userId)).map((s) => s.status)).toEqual([3])
    expect(await quotaOf(user)).toBe(0)
    const log = await env.DB.prepare("SELECT content FROM logs WHERE user_id = ? AND type = 3 AND content LIKE 'Plan order%'").bind(userId).first<{ content: string }>()
    expect(log!.content).toContain(`Plan order ${placed.trade_no} refunded by root`)
    expect((await root.post(`/api/payment/order/${orderId}/refund`)).status).toBe(409)
    // A replayed notify after the refund starts nothing again.
    expect((await send(gw.uuid, paid)).text).toBe('success')
    expect((await subsOf(userId)).map((s) => s.status)).toEqual([3])
  })

  it('starts the subscription with the terms frozen when the order was placed, whatever the plan became since', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('planfrozen')
    const gw = await createGateway(root, 'epay')
    const ordered = { name: 'Pro', price: 10, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }], models: [{ pattern: 'gpt-*', requests: 50 }], published: true }
    const planId = await createPlan(root, ordered)
    const placed = await subscribe(user, planId, gw.uuid)
    const legacy = await subscribe(user, planId, gw.uuid)
    expect(JSON.parse((await orderRow(placed.trade_no))!.plan_terms)).toEqual({
      terms: {
        name: 'Pro',
        windows: [{ period: 'day', quota: 1000 }],
        models: [{ pattern: 'gpt-*', requests: 50 }],
        group: '',
        channel_tags: [],
        allow_balance_fallback: true,
        priority: 0,
        price_cents: 1000,
      },
      duration_unit: 'month',
      duration_count: 1,
    })
    // An order placed before migration 0035 froze nothing.
    await env.DB.prepare('UPDATE orders SET plan_terms = NULL WHERE trade_no = ?').bind(legacy.trade_no).run()

    const edited = {
      ...ordered,
      name: 'Pro v2',
      price: 20,
      duration_unit: 'day',
      duration_count: 2,
      windows: [{ period: 'hour', requests: 5 }],
      models: [],
      allow_balance_fallback: false,
    }
    expect((await root.put(`/api/plan/${planId}`, edited)).status).toBe(200)
    const before = Date.now()
    expect((await send(gw.uuid, await notifyFor('epay', placed.trade_no, 7300, 'CNY'))).text).toBe('success')
    expect((await send(gw.uuid, await notifyFor('epay', legacy.trade_no, 7300, 'CNY'))).text).toBe('success')

    const subs = (await user.get('/api/user/subscription')).body.data as { name: string; terms: any; starts_at: number; expires_at: number; windows: any[] }[]
    const byName = new Map(subs.map((s) => [s.name, s]))
    const frozen = byName.get('Pro')!
    expect(frozen.terms).toMatchObject({
      name: 'Pro',
      windows: [{ period: 'day', quota: 1000 }],
      models: [{ pattern: 'gpt-*', requests: 50 }],
      allow_balance_fallback: true,
      price_cents: 1000,
    })
    expect(frozen.windows).toEqual([expect.objectContaining({ period: 'day', quota: 1000, used: 0 })])
    // A month (28 to 31 days), not the two days the plan says now.
    expect(frozen.expires_at - frozen.starts_at).toBeGreaterThanOrEqual(28 * 86_400_000)
    expect(frozen.starts_at).toBeGreaterThanOrEqual(before - 1000)
    const current = byName.get('Pro v2')!
    expect(current.terms).toMatchObject({ windows: [{ period: 'hour', requests: 5 }], models: [], allow_balance_fallback: false, price_cents: 2000 })
    expect(current.expires_at - current.starts_at).toBeLessThanOrEqual(3 * 86_400_000)
    expect((await subsOf(userId)).map((s) => [s.key, s.plan_id, s.status])).toEqual([
      [`order:${placed.trade_no}`, planId, 1],
      [`order:${legacy.trade_no}`, planId, 1],
    ])
  })
})
