/** Orders as CSV: paid amount, discount and fee in the currency paid, admins' filters and rank, users' own orders only. */
import { describe, expect, it } from 'vitest'
import { setupRoot, signedInUser, type TestClient } from '../test/client'
import { CONFIGS, notifyFor, useFakeGatewayApis } from '../test/payments-gateways'
import { exports } from 'cloudflare:workers'

useFakeGatewayApis()

const rows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n')
    .map((l) => l.split(','))

async function csv(client: TestClient, path: string) {
  const res = await client.raw('GET', path)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/text\/csv/)
  expect(res.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.csv"/)
  const [head, ...body] = rows(await res.text())
  return body.map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i]])))
}

describe('order CSV export', () => {
  it('states what was paid, the discount and the fee in the gateway currency, for admins and for the user', async () => {
    const root = await setupRoot()
    const { client: user } = await signedInUser('csvbuyer')
    const { client: other } = await signedInUser('csvother')
    await root.put('/api/option/', { options: { RechargeDiscount: '{"100":0.9}', PaymentUSDRate: '7.3' } })
    const gw = (await root.post('/api/payment/', { name: 'Epay', type: 'epay', currency: 'CNY', config: CONFIGS.epay.config, percent_fee: 0.05 })).body.data
    const placed = (await user.post('/api/user/order', { uuid: gw.uuid, amount: 100 })).body.data
    await other.post('/api/user/order', { uuid: gw.uuid, amount: 10 })
    const n = await notifyFor('epay', placed.trade_no, 68_985, 'CNY')
    await exports.default.fetch(
      new Request(`http://gateway.test/api/payment/notify/${gw.uuid}${n.query ? `?${n.query}` : ''}`, { method: n.method, headers: n.headers, body: n.body })
    )

    const all = await csv(root, '/api/payment/order/export')
    expect(all).toHaveLength(2)
    const paid = (await csv(root, '/api/payment/order/export?status=success'))[0]
    expect(paid).toMatchObject({
      trade_no: placed.trade_no,
      username: 'csvbuyer',
      status: 'success',
      currency: 'CNY',
      amount_usd: '100',
      paid_amount: '689.85',
      discount: '76.65',
      fee: '32.85',
      fee_usd: '4.50',
    })
    expect(paid!.paid_at).toMatch(/^\d{4}-\d{2}-\d{2}T/)

    const mine = await csv(user, '/api/user/order/export')
    expect(mine.map((r) => r.trade_no)).toEqual([placed.trade_no])
    expect(mine[0]).not.toHaveProperty('username')
    expect((await user.raw('GET', '/api/payment/order/export')).status).toBe(403)
  })
})
