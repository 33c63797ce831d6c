/**
 * Online top-up through the API, for each of the four gateways: an admin creates the gateway, a
 * user orders, the gateway's notify credits the wallet exactly once — replays, concurrent notifies,
 * tampered amount/currency/signature/trade_no, foreign orders and disabled gateways change nothing;
 * a payment for a closed order is still credited; the cron closes stale orders (asking the
 * gateway first); refunds take the quota back; secrets never leave the server.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { sendNotify } from '../test/payments-notify'
import { APIV3, CONFIGS, type Kind, notifyFor, remote, useFakeGatewayApis } from '../test/payments-gateways'
import { closeStaleOrders } from './payments.service'

useFakeGatewayApis()

async function createGateway(root: TestClient, kind: Kind, extra: Record<string, unknown> = {}) {
  const res = await root.post('/api/payment/', { name: `${kind} test`, type: kind, currency: CONFIGS[kind].currency, config: CONFIGS[kind].config, ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number; uuid: string; notify_url: string; config: Record<string, string>; config_set: Record<string, boolean> }
}

async function order(user: TestClient, uuid: string, amount = 10) {
  const res = await user.post('/api/user/order', { uuid, amount })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { trade_no: string; type: string; data: { url: string; method?: string; params?: Record<string, string> } }
}

const send = sendNotify

const quotaOf = async (user: TestClient) => (await user.get('/api/user/self')).body.data.quota as number
const orderRow = (tradeNo: string) => env.DB.prepare('SELECT * FROM orders WHERE trade_no = ?').bind(tradeNo).first<Record<string, any>>()

const OK_STATUS: Record<Kind, number> = { epay: 200, alipay: 200, wxpay: 204, stripe: 200 }

describe.each(['epay', 'alipay', 'wxpay', 'stripe'] as Kind[])('%s top-up', (kind) => {
  it('credits a verified payment exactly once and refuses every tampered notify', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser(`pay${kind}`)
    const gw = await createGateway(root, kind)
    expect(gw.notify_url).toBe(`http://gateway.test/api/payment/notify/${gw.uuid}`)
    const placed = await order(user, gw.uuid, 10)
    expect(placed.type).toBe(kind === 'wxpay' ? 'qr' : 'redirect')
    const row = (await orderRow(placed.trade_no))!
    expect(row).toMatchObject({ status: 'pending', amount: 10, quota: 5_000_000, order_currency: CONFIGS[kind].currency })
    const cents = row.order_amount as number
    expect(cents).toBe(kind === 'stripe' ? 1000 : 7300)
    const currency = CONFIGS[kind].currency
    expect((await user.get(`/api/user/order/status?trade_no=${placed.trade_no}`)).body.success).toBe(false)

    // Tampered notifies: nothing credited, the order unchanged.
    const other = currency === 'USD' ? 'CNY' : 'USD'
    // Epay's notify names no currency: its money is in the gateway's currency, checked in the next test.
    for (const bad of [
      await notifyFor(kind, placed.trade_no, cents - 1, currency),
      ...(kind === 'epay' ? [] : [await notifyFor(kind, placed.trade_no, cents, other)]),
      await notifyFor(kind, placed.trade_no, cents, currency, 'signature'),
      await notifyFor(kind, '99999999999999', cents, currency),
    ]) {
      const res = await send(gw.uuid, bad)
      expect(res.status === OK_STATUS[kind] && res.text !== 'fail' && res.text !== 'failure', `${kind} accepted a tampered notify: ${res.status} ${res.text}`).toBe(false)
    }
    expect(await quotaOf(user)).toBe(0)
    expect((await orderRow(placed.trade_no))!.status).toBe('pending')

    // The real one, then five replays.
    const good = await notifyFor(kind, placed.trade_no, cents, currency)
    const first = await send(gw.uuid, good)
    expect(first.status).toBe(OK_STATUS[kind])
    if (kind === 'epay' || kind === 'alipay') expect(first.text).toBe('success')
    for (let i = 0; i < 5; i++) expect((await send(gw.uuid, good)).status).toBe(OK_STATUS[kind])
    expect(await quotaOf(user)).toBe(5_000_000)
    const paid = (await orderRow(placed.trade_no))!
    expect(paid.status).toBe('success')
    expect(paid.gateway_no).not.toBe('')
    expect(paid.paid_at).toBeGreaterThan(0)
    const status = await user.get(`/api/user/order/status?trade_no=${placed.trade_no}`)
    expect(status.body).toMatchObject({ success: true, data: { status: 'success' } })

    // One top-up log row; refusals logged for root.
    const logs = (await user.get('/api/log/self?type=1')).body.data.data as { quota: number; content: string }[]
    expect(logs).toHaveLength(1)
    expect(logs[0]!.quota).toBe(5_000_000)
    const alerts = (await root.get('/api/log/?type=4&page_size=100')).body.data.data as { content: string }[]
    expect(alerts.filter((a) => a.content.startsWith('Payment:')).length).toBeGreaterThanOrEqual(4)
  })

  it('credits concurrent notifies once and a payment arriving after the order was closed', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser(`race${kind}`)
    const gw = await createGateway(root, kind)
    const a = await order(user, gw.uuid, 10)
    const cents = (await orderRow(a.trade_no))!.order_amount as number
    const currency = CONFIGS[kind].currency
    const notifies = await Promise.all(Array.from({ length: 8 }, () => notifyFor(kind, a.trade_no, cents, currency)))
    const answers = await Promise.all(notifies.map((n) => send(gw.uuid, n)))
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(OK_STATUS[kind]))
    expect(await quotaOf(user)).toBe(5_000_000)

    const b = await order(user, gw.uuid, 20)
    await env.DB.prepare("UPDATE orders SET status = 'closed' WHERE trade_no = ?").bind(b.trade_no).run()
    const late = await send(gw.uuid, await notifyFor(kind, b.trade_no, (await orderRow(b.trade_no))!.order_amount, currency))
    expect(late.status).toBe(OK_STATUS[kind])
    expect((await orderRow(b.trade_no))!.status).toBe('success')
    expect(await quotaOf(user)).toBe(15_000_000)
  })
})

describe('payment gateways API', () => {
  it('refuses an Epay notify once the gateway charges in another currency than the order', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('paycurrency')
    const gw = await createGateway(root, 'epay')
    const placed = await order(user, gw.uuid, 10)
    expect((await root.put('/api/payment/', { id: gw.id, currency: 'USD' })).status).toBe(200)
    expect((await send(gw.uuid, await notifyFor('epay', placed.trade_no, 7300, 'CNY'))).text).toBe('fail')
    expect(await quotaOf(user)).toBe(0)
    await root.put('/api/payment/', { id: gw.id, currency: 'CNY' })
    expect((await send(gw.uuid, await notifyFor('epay', placed.trade_no, 7300, 'CNY'))).text).toBe('success')
    expect(await quotaOf(user)).toBe(5_000_000)
  })

  it('keeps secrets write-only, lists only public fields to users and validates configs', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('payviewer')
    const gw = await createGateway(root, 'wxpay', { fixed_fee: 0.3, percent_fee: 0.05, sort: 2 })
    expect(gw.config.mch_apiv3_key).toBe('')
    expect(gw.config.mch_private_key).toBe('')
    expect(gw.config_set).toMatchObject({ mch_apiv3_key: true, mch_private_key: true })
    expect(gw.config.app_id).toBe('wx1')
    const one = await root.get(`/api/payment/${gw.id}`)
    expect(JSON.stringify(one.body)).not.toContain(APIV3)
    expect(JSON.stringify(one.body)).not.toContain('PRIVATE KEY')

    // An update that leaves secrets empty keeps them; a new app id is taken.
    const upd = await root.put('/api/payment/', { id: gw.id, name: 'WeChat', config: { ...CONFIGS.wxpay.config, app_id: 'wx1', mch_apiv3_key: '', mch_private_key: '' } })
    expect(upd.status, JSON.stringify(upd.body)).toBe(200)
    const stored = await env.DB.prepare('SELECT config, fixed_fee, percent_fee FROM payments WHERE id = ?')
      .bind(gw.id)
      .first<{ config: string; fixed_fee: number; percent_fee: number }>()
    expect(JSON.parse(stored!.config).mch_apiv3_key).toBe(APIV3)
    expect(stored!.fixed_fee).toBe(30)
    expect(stored!.percent_fee).toBe(0.05)

    const listed = (await user.get('/api/user/payment')).body.data as Record<string, unknown>[]
    expect(listed).toEqual([{ uuid: gw.uuid, name: 'WeChat', type: 'wxpay', icon: '', fixed_fee: 0.3, percent_fee: 0.05, currency: 'CNY', sort: 2 }])
    expect((await user.get('/api/payment/')).status).toBe(403)
    expect((await user.get(`/api/payment/${gw.id}`)).status).toBe(403)

    // Validation: wrong currency for the type, a broken key, a missing secret on create.
    const bad = await root.post('/api/payment/', { name: 'x', type: 'alipay', currency: 'USD', config: CONFIGS.alipay.config })
    expect(bad.status).toBe(400)
    expect(bad.body.data.fields.currency).toBeDefined()
    const badKey = await root.post('/api/payment/', { name: 'x', type: 'alipay', currency: 'CNY', config: { ...CONFIGS.alipay.config, private_key: 'nope' } })
    expect(badKey.status).toBe(400)
    expect(badKey.body.data.fields['config.private_key']).toMatch(/RSA private key/)
    const noSecret = await root.post('/api/payment/', { name: 'x', type: 'epay', currency: 'CNY', config: { pay_domain: 'https://pay.test', partner_id: '1' } })
    expect(noSecret.status).toBe(400)
    expect(noSecret.body.data.fields['config.key']).toBeDefined()

    // Types for the console form.
    const types = (await root.get('/api/payment/types')).body.data as { type: string; fields: { key: string; secret?: boolean }[] }[]
    expect(types.map((t) => t.type).sort()).toEqual(['alipay', 'epay', 'stripe', 'wxpay'])

    // Disabled and deleted gateways take no orders and no notifies.
    await root.put('/api/payment/', { id: gw.id, enable: false })
    expect((await user.get('/api/user/payment')).body.data).toEqual([])
    expect((await user.post('/api/user/order', { uuid: gw.uuid, amount: 10 })).status).toBe(404)
    await root.put('/api/payment/', { id: gw.id, enable: true })
    const placed = await order(user, gw.uuid, 10)
    await root.put('/api/payment/', { id: gw.id, enable: false })
    const n = await notifyFor('wxpay', placed.trade_no, (await orderRow(placed.trade_no))!.order_amount, 'CNY')
    expect((await send(gw.uuid, n)).status).toBe(400)
    expect(await quotaOf(user)).toBe(0)
    expect((await root.delete(`/api/payment/${gw.id}`)).status).toBe(200)
    expect((await root.get(`/api/payment/${gw.id}`)).status).toBe(404)
  })

  it('registers the Stripe webhook on creation and keeps its secret', async () => {
    const root = await setupRoot()
    const gw = await createGateway(root, 'stripe')
    expect(gw.config_set.webhook_secret).toBe(true)
    const stored = await env.DB.prepare('SELECT config FROM payments WHERE id = ?').bind(gw.id).first<{ config: string }>()
    expect(JSON.parse(stored!.config).webhook_secret).toBe('whsec_from_stripe')
  })

  it('validates amounts with the minimum, the maximum and integers, and prices with the formula', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('payamounts')
    await root.put('/api/option/', { options: { PaymentMinAmount: '5', RechargeDiscount: '{"100":0.9}', PaymentUSDRate: '7.3' } })
    const gw = await createGateway(root, 'epay', { percent_fee: 0.05 })
    expect((await user.post('/api/user/order', { uuid: gw.uuid, amount: 4 })).body.message).toMatch(/at least 5/)
    expect((await user.post('/api/user/order', { uuid: gw.uuid, amount: 1_000_001 })).status).toBe(400)
    expect((await user.post('/api/user/order', { uuid: gw.uuid, amount: 10.5 })).status).toBe(400)
    expect((await user.post('/api/user/order', { uuid: gw.uuid, amount: '10' })).status).toBe(400)
    const placed = await order(user, gw.uuid, 100)
    // The reference's worked example: 689.85 CNY for $100 at 0.9 with a 5 % fee.
    expect(placed.data.params!.money).toBe('689.85')
    expect(await orderRow(placed.trade_no)).toMatchObject({ order_amount: 68_985, fee: 450, order_fee: 3_285, discount: 7_665, quota: 50_000_000 })
    const listed = (await root.get(`/api/payment/order?trade_no=${placed.trade_no}`)).body.data
    expect(listed.total_count).toBe(1)
    expect(listed.data[0]).toMatchObject({
      order_amount: 689.85,
      fee: 4.5,
      // The fee in the currency paid: 689.85 − 657.00 (the discounted $90 at 7.3).
      order_fee: 32.85,
      discount: 76.65,
      order_currency: 'CNY',
      status: 'pending',
      username: 'payamounts',
      gateway_type: 'epay',
    })
  })

  it('lists orders with filters, lets users see only theirs, and refunds', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('payorders')
    const { client: other } = await signedInUser('payother')
    const gw = await createGateway(root, 'epay')
    const a = await order(user, gw.uuid, 10)
    const b = await order(user, gw.uuid, 20)
    await order(other, gw.uuid, 30)
    await send(gw.uuid, await notifyFor('epay', a.trade_no, 7300, 'CNY'))
    const q = async (query: string) => (await root.get(`/api/payment/order?${query}`)).body.data.total_count as number
    expect(await q('')).toBe(3)
    expect(await q(`user_id=${userId}`)).toBe(2)
    expect(await q('status=success')).toBe(1)
    expect(await q(`gateway_id=${gw.id}&status=pending`)).toBe(2)
    expect(await q(`gateway_no=EP${a.trade_no}`)).toBe(1)
    expect(await q(`start_timestamp=${Math.floor(Date.now() / 1000) + 3600}`)).toBe(0)
    const mine = (await user.get('/api/user/order')).body.data
    expect(mine.total_count).toBe(2)
    expect((await other.get(`/api/user/order/status?trade_no=${b.trade_no}`)).status).toBe(404)

    const paid = (await root.get(`/api/payment/order?trade_no=${a.trade_no}`)).body.data.data[0]
    expect((await root.post(`/api/payment/order/${paid.id}/refund`)).status).toBe(200)
    expect(await quotaOf(user)).toBe(0)
    expect((await root.post(`/api/payment/order/${paid.id}/refund`)).status).toBe(409)
    expect((await orderRow(a.trade_no))!.status).toBe('refunded')
    // A replayed notify after the refund credits nothing.
    expect((await send(gw.uuid, await notifyFor('epay', a.trade_no, 7300, 'CNY'))).text).toBe('success')
    expect(await quotaOf(user)).toBe(0)
  })

  it('closes stale orders, crediting those the gateway reports paid', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('paystale')
    const wx = await createGateway(root, 'wxpay')
    const ep = await createGateway(root, 'epay')
    const paidLater = await order(user, wx.uuid, 10)
    const unpaid = await order(user, wx.uuid, 20)
    const noQuery = await order(user, ep.uuid, 30)
    const fresh = await order(user, ep.uuid, 40)
    const old = Math.floor(Date.now() / 1000) - 4 * 3600
    for (const o of [paidLater, unpaid, noQuery]) await env.DB.prepare('UPDATE orders SET created_at = ? WHERE trade_no = ?').bind(old, o.trade_no).run()
    remote.wxPaid.set(paidLater.trade_no, 7300)
    expect(await closeStaleOrders(env)).toEqual({ closed: 2, credited: 1 })
    expect((await orderRow(paidLater.trade_no))!.status).toBe('success')
    expect((await orderRow(unpaid.trade_no))!.status).toBe('closed')
    expect((await orderRow(noQuery.trade_no))!.status).toBe('closed')
    expect((await orderRow(fresh.trade_no))!.status).toBe('pending')
    expect(await quotaOf(user)).toBe(5_000_000)
    // A notify for the query-credited order changes nothing more.
    await send(wx.uuid, await notifyFor('wxpay', paidLater.trade_no, 7300, 'CNY'))
    expect(await quotaOf(user)).toBe(5_000_000)
  })
})

describe('held sign-up rewards (issue 12)', () => {
  it('a first online top-up pays the held new-user quota once', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/', { key: 'QuotaForNewUser', value: '777' })).status).toBe(200)
    const { client: user } = await signedInUser('payreward')
    expect(await quotaOf(user)).toBe(0)
    const gw = await createGateway(root, 'stripe')
    const placed = await order(user, gw.uuid, 10)
    const paid = await notifyFor('stripe', placed.trade_no, 1000, 'USD')
    expect((await send(gw.uuid, paid)).status).toBe(OK_STATUS.stripe)
    expect(await quotaOf(user)).toBe(5_000_000 + 777)
    expect((await send(gw.uuid, paid)).status).toBe(OK_STATUS.stripe)
    expect(await quotaOf(user)).toBe(5_000_000 + 777)
  })
})
