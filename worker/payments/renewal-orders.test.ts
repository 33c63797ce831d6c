/**
 * Renewal orders on gateways without recurring payments (issue 33's auto-renew): the cron pass writes
 * one pending renewal order for an auto-renewing Epay-bought subscription within its lead time
 * however often it runs (frozen price, the first order's gateway) and mails the user once, none for subscriptions not yet
 * due, switched off, granted or renewed by Stripe; the user pays it through its gateway from
 * POST /api/user/subscription/:id/renew (someone else's: 404; nothing due: 409); a verified notify,
 * however many arrive, extends the subscription by one duration exactly once, and a renewal paid after
 * the subscription ended starts a new one.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { type BuiltNotify, sendNotify } from '../test/payments-notify'
import { CONFIGS, notifyFor, useFakeGatewayApis } from '../test/payments-gateways'
import { expiryAfter } from '../plans/plan-duration'
import { setOptions } from '../test/factories'
import { mailsTo, testSmtpOptions, uniqueEmail } from '../test/test-smtp'
import { placeRenewalOrders } from './renewal-orders'

useFakeGatewayApis()

const DAY = 86_400_000

const send = async (uuid: string, n: BuiltNotify) => (await sendNotify(uuid, n)).text

const subRow = (id: number) => env.DB.prepare('SELECT * FROM subscriptions WHERE id = ?').bind(id).first<Record<string, any>>()
const renewalOrders = async (subId: number) => (await env.DB.prepare('SELECT * FROM orders WHERE subscription_id = ? ORDER BY id').bind(subId).all<Record<string, any>>()).results
/** Moves the subscription's expiry to `ms` from now (and its start a month before). */
const expireIn = (id: number, ms: number) =>
  env.DB.prepare('UPDATE subscriptions SET expires_at = ?, starts_at = ? WHERE id = ?')
    .bind(Date.now() + ms, Date.now() + ms - 30 * DAY, id)
    .run()

/** An Epay gateway, a monthly plan, and a paid auto-renewing (or not) subscription of `user`. */
async function boughtSubscription(root: TestClient, user: TestClient, autoRenew = true) {
  const gw = (await root.post('/api/payment/', { name: 'Epay renew', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config })).body.data as { id: number; uuid: string }
  const planId = (await root.post('/api/plan/', { name: 'Monthly', price: 10, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }], published: true })).body.data
    .id as number
  const placed = await user.post('/api/plan/subscribe', { plan_id: planId, uuid: gw.uuid, auto_renew: autoRenew })
  expect(placed.status, JSON.stringify(placed.body)).toBe(200)
  expect(await send(gw.uuid, await notifyFor('epay', placed.body.data.trade_no, 7300, 'CNY'))).toBe('success')
  const sub = await env.DB.prepare('SELECT * FROM subscriptions WHERE key = ?').bind(`order:${placed.body.data.trade_no}`).first<Record<string, any>>()
  return { gw, planId, sub: sub! }
}

describe('renewal orders', () => {
  it('places one renewal order per expiry, only when due, and the user pays it once', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/', { options: { BudgetTimezone: 'UTC' } })).status).toBe(200)
    const { client: user, id: userId } = await signedInUser('reneworders')
    const { client: other } = await signedInUser('renewothers')
    const { gw, sub } = await boughtSubscription(root, user)
    expect(sub.auto_renew).toBe(1)
    await setOptions({ ...testSmtpOptions(), SystemName: 'Renew Site', ServerAddress: 'https://gw.example.com' })
    const email = uniqueEmail('reneworders')
    await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, userId).run()

    // A month away: not due yet.
    expect(await placeRenewalOrders(env)).toBe(0)
    expect(await renewalOrders(sub.id)).toEqual([])
    expect((await user.post(`/api/user/subscription/${sub.id}/renew`)).status).toBe(409)

    // Two days before its expiry: two passes write one order.
    await expireIn(sub.id, 2 * DAY)
    const due = (await subRow(sub.id))!
    expect(await placeRenewalOrders(env)).toBe(1)
    expect(await placeRenewalOrders(env)).toBe(0)
    const [order] = await renewalOrders(sub.id)
    expect(await renewalOrders(sub.id)).toHaveLength(1)
    expect(order).toMatchObject({
      user_id: userId,
      gateway_id: gw.id,
      status: 'pending',
      order_amount: 7300,
      order_currency: 'CNY',
      quota: 0,
      renewal_key: `renew:${sub.id}:${due.expires_at}`,
      renewed_from: 0,
    })
    // The user hears of it once, with the link to the plans page.
    const mails = await mailsTo(email)
    expect(mails.map((m) => m.subject)).toEqual(['Renew Site: your plan is due for renewal'])
    expect(mails[0]!.text).toContain('Its renewal (73.00 CNY through Epay renew) is ready to pay.')
    expect(mails[0]!.text).toContain('https://gw.example.com/panel/plans')
    const [view] = (await user.get('/api/user/subscription')).body.data
    expect(view.renewal_due).toEqual({ trade_no: order!.trade_no, amount_cents: 7300, currency: 'CNY', gateway: 'Epay renew', gateway_type: 'epay' })

    // Paying it: the same order through its gateway; someone else's subscription is 404.
    expect((await other.post(`/api/user/subscription/${sub.id}/renew`)).status).toBe(404)
    const placed = await user.post(`/api/user/subscription/${sub.id}/renew`)
    expect(placed.status, JSON.stringify(placed.body)).toBe(200)
    expect(placed.body.data).toMatchObject({ trade_no: order!.trade_no, type: 'redirect' })
    expect(placed.body.data.data.params.money).toBe('73.00')
    expect(placed.body.data.data.params.name).toContain('renewal')

    // A wrong amount extends nothing; the right one, five times at once and once more, one month once.
    expect(await send(gw.uuid, await notifyFor('epay', order!.trade_no, 7299, 'CNY'))).toBe('fail')
    expect((await subRow(sub.id))!.expires_at).toBe(due.expires_at)
    const paid = await notifyFor('epay', order!.trade_no, 7300, 'CNY')
    expect(await Promise.all(Array.from({ length: 5 }, () => send(gw.uuid, paid)))).toEqual(Array(5).fill('success'))
    expect(await send(gw.uuid, paid)).toBe('success')
    expect((await subRow(sub.id))!.expires_at).toBe(expiryAfter(due.expires_at, 'month', 1, 'UTC'))
    expect((await renewalOrders(sub.id))[0]).toMatchObject({ status: 'success', renewed_from: due.expires_at })
    // One subscription still, nothing due any more, the balance untouched.
    expect((await user.get('/api/user/subscription')).body.data).toEqual([expect.objectContaining({ id: sub.id, renewal_due: null, status: 1 })])
    expect(await placeRenewalOrders(env)).toBe(0)
    expect((await user.get('/api/user/self')).body.data.quota).toBe(0)
    // Refunding the renewal order revokes the subscription it extended.
    const refund = await root.post(`/api/payment/order/${order!.id}/refund`)
    expect(refund.status, JSON.stringify(refund.body)).toBe(200)
    expect((await subRow(sub.id))!.status).toBe(3)
  })

  it('places nothing for subscriptions switched off, granted or renewed by Stripe; a late payment starts a new one', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('renewnone')
    const { gw, planId, sub } = await boughtSubscription(root, user)
    const { sub: manual } = await boughtSubscription(root, user, false)
    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).status).toBe(200)
    const granted = await env.DB.prepare("SELECT id FROM subscriptions WHERE user_id = ? AND source = 'grant'").bind(userId).first<{ id: number }>()
    await env.DB.prepare('UPDATE subscriptions SET auto_renew = 1 WHERE id = ?').bind(granted!.id).run()
    for (const id of [sub.id, manual.id, granted!.id]) await expireIn(id, DAY)
    // Stripe renews this one by itself.
    await env.DB.prepare("UPDATE subscriptions SET stripe_subscription_id = 'sub_x' WHERE id = ?").bind(sub.id).run()
    expect(await placeRenewalOrders(env)).toBe(0)

    // Switched on by the user, then paid only after the subscription expired: a new subscription.
    await env.DB.prepare("UPDATE subscriptions SET stripe_subscription_id = '' WHERE id = ?").bind(sub.id).run()
    expect((await user.put(`/api/user/subscription/${manual.id}`, { auto_renew: false })).status).toBe(200)
    expect(await placeRenewalOrders(env)).toBe(1)
    const [order] = await renewalOrders(sub.id)
    await env.DB.prepare('UPDATE subscriptions SET status = 2 WHERE id = ?').bind(sub.id).run()
    const paid = await notifyFor('epay', order!.trade_no, 7300, 'CNY')
    expect(await send(gw.uuid, paid)).toBe('success')
    expect(await send(gw.uuid, paid)).toBe('success')
    const fresh = await env.DB.prepare('SELECT * FROM subscriptions WHERE key = ?').bind(`order:${order!.trade_no}`).all<Record<string, any>>()
    expect(fresh.results).toHaveLength(1)
    expect(fresh.results[0]).toMatchObject({ status: 1, plan_id: planId, source: 'order' })
    expect((await subRow(sub.id))!.status).toBe(2)
  })
})
