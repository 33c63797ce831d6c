/**
 * Plan auto-renew on Stripe (issue 33) through the API and signed webhooks: an auto-renewing
 * subscribe opens a subscription-mode Checkout Session with a recurring price (hourly and unlimited
 * plans refused, nothing written); the first payment starts the subscription with the Stripe
 * Subscription recorded; a cycle's `invoice.paid` renews it by one duration exactly once however many
 * copies arrive, a wrong amount or currency renews nothing, the first invoice is no renewal;
 * `customer.subscription.deleted` stops auto-renew. The user's switch (PUT /api/user/subscription/:id):
 * someone else's subscription is 404, a Stripe-backed one is cancelled at the period's end and back,
 * one Stripe deleted cannot be switched on (409), an Epay-bought one keeps the flag, a granted one
 * cannot renew.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { sendNotify, stripeEvent } from '../test/payments-notify'
import { CONFIGS, type Kind, notifyFor, remote, useFakeGatewayApis } from '../test/payments-gateways'
import { expiryAfter } from '../plans/plan-duration'

useFakeGatewayApis()

const SECRET = 'whsec_from_stripe'

async function createGateway(root: TestClient, kind: Kind) {
  const res = await root.post('/api/payment/', { name: `${kind} renew`, type: kind, currency: CONFIGS[kind].currency, config: CONFIGS[kind].config })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string }
}

async function createPlan(root: TestClient, extra: Record<string, unknown> = {}) {
  const res = await root.post('/api/plan/', { name: 'Monthly', price: 12.5, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }], published: true, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data.id as number
}

const send = sendNotify

const subRow = (id: number) => env.DB.prepare('SELECT * FROM subscriptions WHERE id = ?').bind(id).first<Record<string, any>>()
const renewals = async (subId: number) => (await env.DB.prepare('SELECT * FROM orders WHERE subscription_id = ? ORDER BY id').bind(subId).all<Record<string, any>>()).results

const invoice = (sub: string, id: string, cents: number, currency = 'usd', reason = 'subscription_cycle') => ({
  id,
  object: 'invoice',
  billing_reason: reason,
  amount_paid: cents,
  currency,
  parent: { type: 'subscription_details', subscription_details: { subscription: sub, metadata: {} } },
})

/** Subscribes with auto-renew through Stripe and pays the first invoice; the subscription row. */
async function recurringSubscription(root: TestClient, user: TestClient, stripeSub: string) {
  const gw = await createGateway(root, 'stripe')
  const planId = await createPlan(root)
  const placed = await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid, auto_renew: true })
  expect(placed.status, JSON.stringify(placed.body)).toBe(200)
  const tradeNo = placed.body.data.trade_no as string
  remote.stripeSubscriptions.set(stripeSub, { status: 'active', cancel_at_period_end: false })
  const completed = await stripeEvent(SECRET, 'checkout.session.completed', {
    id: `cs_${tradeNo}`,
    object: 'checkout.session',
    mode: 'subscription',
    client_reference_id: tradeNo,
    amount_total: 1250,
    currency: 'usd',
    payment_status: 'paid',
    payment_intent: null,
    invoice: `in_first_${stripeSub}`,
    subscription: stripeSub,
  })
  expect((await send(gw.uuid, completed)).status).toBe(200)
  const sub = await env.DB.prepare('SELECT * FROM subscriptions WHERE key = ?').bind(`order:${tradeNo}`).first<Record<string, any>>()
  return { gw, planId, tradeNo, sub: sub! }
}

describe('Stripe auto-renew', () => {
  it('opens a subscription-mode session with a recurring price; hourly and unlimited plans are refused', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('renewsession')
    const gw = await createGateway(root, 'stripe')
    const epay = await createGateway(root, 'epay')
    const planId = await createPlan(root, { duration_unit: 'week', duration_count: 2 })
    const hourly = await createPlan(root, { duration_unit: 'hour', duration_count: 5 })
    const forever = await createPlan(root, { duration_unit: 'unlimited' })

    const placed = await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid, auto_renew: true })
    expect(placed.status, JSON.stringify(placed.body)).toBe(200)
    const form = [...remote.stripeSessions.values()].at(-1)!.form
    expect(Object.fromEntries([...form.entries()].filter(([k]) => /mode|recurring|unit_amount|subscription_data|metadata/.test(k)))).toEqual({
      mode: 'subscription',
      'line_items[0][price_data][unit_amount]': '1250',
      'line_items[0][price_data][recurring][interval]': 'week',
      'line_items[0][price_data][recurring][interval_count]': '2',
      'metadata[trade_no]': placed.body.data.trade_no,
      'metadata[user_id]': expect.any(String),
      'metadata[plan_id]': String(planId),
      'subscription_data[metadata][trade_no]': placed.body.data.trade_no,
      'subscription_data[metadata][user_id]': expect.any(String),
      'subscription_data[metadata][plan_id]': String(planId),
    })
    // Without auto-renew: a one-time payment as before.
    await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid })
    expect([...remote.stripeSessions.values()].at(-1)!.form.get('mode')).toBe('payment')

    const before = (await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>())!.n
    const hour = await user.post('/api/plan/subscribe', { plan_id: hourly, uuid: gw.uuid, auto_renew: true })
    expect(hour.status).toBe(400)
    expect(hour.body.message).toMatch(/hours/)
    const never = await user.post('/api/plan/subscribe', { plan_id: forever, uuid: epay.uuid, auto_renew: true })
    expect(never.status).toBe(400)
    expect(never.body.message).toMatch(/never expires/)
    expect((await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid, auto_renew: 'yes' })).status).toBe(400)
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>())!.n).toBe(before)
    // Hourly plans renew through renewal orders on gateways without recurring payments.
    expect((await user.post('/api/plan/subscribe', { plan_id: hourly, uuid: epay.uuid, auto_renew: true })).status).toBe(200)
  })

  it('starts with the Stripe Subscription recorded; cycle invoices renew once each, wrong amounts never', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/', { options: { BudgetTimezone: 'UTC' } })).status).toBe(200)
    const { client: user, id: userId } = await signedInUser('renewstripe')
    const { gw, sub } = await recurringSubscription(root, user, 'sub_renew1')
    expect(sub).toMatchObject({ user_id: userId, status: 1, auto_renew: 1, stripe_subscription_id: 'sub_renew1', stripe_ended: 0 })
    const view = (await user.get('/api/user/subscription')).body.data[0]
    expect(view).toMatchObject({ id: sub.id, auto_renew: true, stripe_recurring: true })

    // The first invoice is the checkout's own payment: no renewal.
    expect(await send(gw.uuid, await stripeEvent(SECRET, 'invoice.paid', invoice('sub_renew1', 'in_first_sub_renew1', 1250, 'usd', 'subscription_create')))).toMatchObject({
      status: 200,
    })
    // A wrong amount or currency renews nothing and writes no order.
    expect((await send(gw.uuid, await stripeEvent(SECRET, 'invoice.paid', invoice('sub_renew1', 'in_cheap', 1249)))).status).toBe(400)
    expect((await send(gw.uuid, await stripeEvent(SECRET, 'invoice.paid', invoice('sub_renew1', 'in_euro', 1250, 'eur')))).status).toBe(400)
    // An unknown Stripe Subscription renews nothing.
    expect((await send(gw.uuid, await stripeEvent(SECRET, 'invoice.paid', invoice('sub_other', 'in_other', 1250)))).status).toBe(400)
    expect((await subRow(sub.id))!.expires_at).toBe(sub.expires_at)
    expect(await renewals(sub.id)).toEqual([])

    // The same cycle invoice, five times at once and once more: one renewal, one month.
    const cycle = await stripeEvent(SECRET, 'invoice.paid', invoice('sub_renew1', 'in_cycle1', 1250))
    const answers = await Promise.all(Array.from({ length: 5 }, () => send(gw.uuid, cycle)))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200])
    expect((await send(gw.uuid, cycle)).status).toBe(200)
    const once = expiryAfter(sub.expires_at, 'month', 1, 'UTC')
    expect((await subRow(sub.id))!.expires_at).toBe(once)
    const [renewal] = await renewals(sub.id)
    expect(await renewals(sub.id)).toHaveLength(1)
    expect(renewal).toMatchObject({
      user_id: userId,
      gateway_id: gw.id,
      status: 'success',
      gateway_no: 'in_cycle1',
      order_amount: 1250,
      order_currency: 'USD',
      quota: 0,
      renewal_key: 'stripe-invoice:in_cycle1',
      renewed_from: sub.expires_at,
    })
    // The next cycle renews from the new expiry.
    expect((await send(gw.uuid, await stripeEvent(SECRET, 'invoice.paid', invoice('sub_renew1', 'in_cycle2', 1250)))).status).toBe(200)
    expect((await subRow(sub.id))!.expires_at).toBe(expiryAfter(once, 'month', 1, 'UTC'))
    expect(await renewals(sub.id)).toHaveLength(2)
    // The balance never moves.
    expect((await user.get('/api/user/self')).body.data.quota).toBe(0)
  })

  it('a deleted Stripe Subscription stops auto-renew; switching it back on is refused', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('renewdeleted')
    const { gw, sub } = await recurringSubscription(root, user, 'sub_gone')
    const deleted = await stripeEvent(SECRET, 'customer.subscription.deleted', { id: 'sub_gone', object: 'subscription', status: 'canceled' })
    expect((await send(gw.uuid, deleted)).status).toBe(200)
    expect((await send(gw.uuid, deleted)).status).toBe(200)
    expect(await subRow(sub.id)).toMatchObject({ status: 1, auto_renew: 0, stripe_ended: 1, expires_at: sub.expires_at })
    expect((await user.get('/api/user/subscription')).body.data[0]).toMatchObject({ auto_renew: false, stripe_recurring: false, status: 1 })
    const on = await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: true })
    expect(on.status).toBe(409)
    expect(on.body.message).toMatch(/Stripe has ended/)
    expect((await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: false })).status).toBe(200)
  })
})

describe('the auto-renew switch', () => {
  it('cancels a Stripe Subscription at the period end and back; only the owner may switch', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('renewswitch')
    const { client: other } = await signedInUser('renewother')
    const { sub } = await recurringSubscription(root, user, 'sub_switch')

    expect((await other.put(`/api/user/subscription/${sub.id}`, { auto_renew: false })).status).toBe(404)
    expect((await user.put('/api/user/subscription/999999', { auto_renew: false })).status).toBe(404)
    expect((await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: 1 })).status).toBe(400)
    expect((await user.put(`/api/user/subscription/${sub.id}`, {})).status).toBe(400)
    expect(remote.stripeSubscriptions.get('sub_switch')!.cancel_at_period_end).toBe(false)

    const off = await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: false })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect(off.body.data).toMatchObject({ id: sub.id, auto_renew: false, stripe_recurring: true })
    expect(remote.stripeSubscriptions.get('sub_switch')!.cancel_at_period_end).toBe(true)
    const on = await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: true })
    expect(on.body.data).toMatchObject({ auto_renew: true })
    expect(remote.stripeSubscriptions.get('sub_switch')!.cancel_at_period_end).toBe(false)

    // Stripe deleted it without telling us: switching on finds out, refuses and remembers.
    expect((await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: false })).status).toBe(200)
    remote.stripeSubscriptions.get('sub_switch')!.status = 'canceled'
    expect((await user.put(`/api/user/subscription/${sub.id}`, { auto_renew: true })).status).toBe(409)
    expect(await subRow(sub.id)).toMatchObject({ auto_renew: 0, stripe_ended: 1 })
  })

  it('keeps the flag of an Epay-bought subscription; a granted one cannot renew', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('renewepay')
    const { client: other } = await signedInUser('renewepayother')
    const gw = await createGateway(root, 'epay')
    const planId = await createPlan(root)
    const placed = await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid, auto_renew: true })
    expect(
      JSON.parse((await env.DB.prepare('SELECT plan_terms FROM orders WHERE trade_no = ?').bind(placed.body.data.trade_no).first<{ plan_terms: string }>())!.plan_terms)
    ).toMatchObject({
      auto_renew: true,
    })
    expect((await send(gw.uuid, await notifyFor('epay', placed.body.data.trade_no, 9125, 'CNY'))).text).toBe('success')
    const [bought] = (await user.get('/api/user/subscription')).body.data
    expect(bought).toMatchObject({ auto_renew: true, stripe_recurring: false })

    expect((await other.put(`/api/user/subscription/${bought.id}`, { auto_renew: false })).status).toBe(404)
    expect((await user.put(`/api/user/subscription/${bought.id}`, { auto_renew: false })).body.data.auto_renew).toBe(false)
    expect((await user.put(`/api/user/subscription/${bought.id}`, { auto_renew: true })).body.data.auto_renew).toBe(true)

    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).status).toBe(200)
    const granted = (await user.get('/api/user/subscription')).body.data.find((s: { source: string }) => s.source === 'grant')
    const refused = await user.put(`/api/user/subscription/${granted.id}`, { auto_renew: true })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/bought through a payment method/)
    // Ended subscriptions cannot be switched.
    expect((await root.post('/api/plan/revoke', { subscription_id: bought.id })).status).toBe(200)
    expect((await user.put(`/api/user/subscription/${bought.id}`, { auto_renew: false })).status).toBe(409)
  })
})
