/**
 * Online top-up end to end: the real server (Worker on workerd) and scripts/mock-payments.mjs, which
 * speaks Stripe, Alipay, WeChat Pay v3 and Epay with key pairs generated for the run. For each
 * gateway: an admin creates it, a user orders, pays at the mock's cashier page (or "scans" the QR),
 * and the balance rises exactly once; the same notify sent 5 more times changes nothing; tampered
 * amount, currency, signature and trade_no credit nothing and leave the order pending; an order
 * closed by the cron is still credited when its payment arrives.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/serve.mjs'
import { startMockPayments, type MockPayments } from '../../scripts/mock-payments.mjs'
import { ApiSession } from './support/api'
import { freshMigratedState } from '../../scripts/fresh-state'

type Kind = 'stripe' | 'alipay' | 'wxpay' | 'epay'
interface Placed {
  trade_no: string
  type: 'redirect' | 'qr'
  data: { url: string; method?: string; params?: Record<string, string> }
}

let server: { url: URL; mf: any; stop(): Promise<void> }
let persistDir: string
let mock: MockPayments
let base: string
let admin: ApiSession

beforeAll(async () => {
  persistDir = freshMigratedState('payments-e2e-')
  server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
  base = server.url.href.replace(/\/$/, '')
  mock = await startMockPayments({ port: 0 })
  admin = new ApiSession(base)
  await admin.call('GET', '/api/status')
  await admin.ok('POST', '/api/setup', { username: 'payroot', password: 'pay-root-password-1' })
})

afterAll(async () => {
  await mock?.stop()
  await server?.stop()
  if (persistDir) rmSync(persistDir, { recursive: true, force: true })
})

async function user(name: string) {
  const s = new ApiSession(base)
  await s.call('GET', '/api/status')
  await s.ok('POST', '/api/user/register', { username: name, password: 'pay-user-password-1' })
  await s.login(name, 'pay-user-password-1')
  return s
}

const quota = async (s: ApiSession) => (await s.ok<{ quota: number }>('GET', '/api/user/self')).quota
const orderOf = async (tradeNo: string) => (await admin.ok<{ data: any[] }>('GET', `/api/payment/order?trade_no=${tradeNo}`)).data[0]

/** Pays like a person: opens the cashier page the console would open, presses Pay (or scans the QR). */
async function payAtMock(placed: Placed) {
  if (placed.type === 'qr') {
    const id = new URL(placed.data.url.replace('weixin://', 'http://')).searchParams.get('pr') ?? placed.data.url.split('/').pop()!
    const kind = placed.data.url.startsWith('weixin://') ? 'wxpay' : 'alipay'
    const res = await fetch(kind === 'wxpay' ? `${mock.url}/wxpay/scan/${id}` : `${placed.data.url.replace('/qr/', '/pay/')}`, { method: 'POST', redirect: 'manual' })
    expect(res.status).toBeLessThan(400)
    return
  }
  const { url, method = 'GET', params = {} } = placed.data
  const cashier =
    method === 'POST'
      ? await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) })
      : await fetch(Object.keys(params).length ? `${url}?${new URLSearchParams(params)}` : url)
  const html = await cashier.text()
  expect(cashier.status, html).toBe(200)
  const action = /action="([^"]+)"/.exec(html)![1]!
  const paid = await fetch(new URL(action, mock.url), { method: 'POST', redirect: 'manual' })
  expect(paid.status).toBeLessThan(400)
  if (paid.status === 302) expect(paid.headers.get('location')).toContain(`/panel/topup?trade_no=${placed.trade_no}`)
}

const answersOk = (kind: Kind, answers: { status: number; body: string }[]) =>
  answers.every((a) => (kind === 'wxpay' ? a.status === 204 : a.status === 200 && (kind === 'stripe' || a.body === 'success')))

describe.each(['stripe', 'alipay', 'wxpay', 'epay'] as Kind[])('%s through the mock gateway', (kind) => {
  let gateway: { id: number; uuid: string }
  let buyer: ApiSession

  beforeAll(async () => {
    const preset = mock.configs()[kind]
    gateway = await admin.ok('POST', '/api/payment/', { name: `Mock ${kind}`, type: kind, currency: preset.currency, config: preset.config })
    buyer = await user(`buyer${kind}`)
  })

  it('credits a paid order once, also when the notify comes 5 more times', async () => {
    const placed = await buyer.ok<Placed>('POST', '/api/user/order', { uuid: gateway.uuid, amount: 10 })
    expect(placed.type).toBe(kind === 'wxpay' ? 'qr' : 'redirect')
    await payAtMock(placed)
    expect(await quota(buyer)).toBe(5_000_000)
    expect((await buyer.call('GET', `/api/user/order/status?trade_no=${placed.trade_no}`)).body.success).toBe(true)
    const replay = await fetch(`${mock.url}/_pay`, { method: 'POST', body: JSON.stringify({ trade_no: placed.trade_no, repeat: 5 }) }).then(
      (r) => r.json() as Promise<{ answers: { status: number; body: string }[] }>
    )
    expect(replay.answers).toHaveLength(5)
    expect(answersOk(kind, replay.answers), JSON.stringify(replay.answers)).toBe(true)
    expect(await quota(buyer)).toBe(5_000_000)
    expect(await orderOf(placed.trade_no)).toMatchObject({ status: 'success', amount: 10, quota: 5_000_000 })
  })

  it('refuses tampered notifies and leaves the order pending', async () => {
    const before = await quota(buyer)
    const placed = await buyer.ok<Placed>('POST', '/api/user/order', { uuid: gateway.uuid, amount: 20 })
    if (kind === 'alipay' || kind === 'epay' || kind === 'stripe')
      await fetch(
        placed.type === 'redirect' && placed.data.method === 'POST'
          ? placed.data.url
          : `${placed.data.url}${placed.data.params ? `?${new URLSearchParams(placed.data.params)}` : ''}`,
        placed.data.method === 'POST' ? { method: 'POST', body: new URLSearchParams(placed.data.params) } : {}
      )
    // Epay's notify has no currency field: its money is in the gateway's currency (worker test covers a switch).
    const tampers = kind === 'epay' ? ['amount', 'signature', 'trade_no'] : ['amount', 'currency', 'signature', 'trade_no']
    for (const tamper of tampers) {
      const r = await fetch(`${mock.url}/_pay`, { method: 'POST', body: JSON.stringify({ trade_no: placed.trade_no, tamper }) }).then(
        (x) => x.json() as Promise<{ answers: { status: number; body: string }[] }>
      )
      expect(r.answers.length, tamper).toBeGreaterThan(0)
      expect(answersOk(kind, r.answers), `${tamper}: ${JSON.stringify(r.answers)}`).toBe(false)
    }
    expect(await quota(buyer)).toBe(before)
    expect((await orderOf(placed.trade_no)).status).toBe('pending')
  })

  it('credits a payment that arrives after the cron closed the order', async () => {
    const before = await quota(buyer)
    const placed = await buyer.ok<Placed>('POST', '/api/user/order', { uuid: gateway.uuid, amount: 30 })
    const db = await server.mf.getD1Database('DB')
    await db.prepare('UPDATE orders SET created_at = created_at - 4 * 3600 WHERE trade_no = ?').bind(placed.trade_no).run()
    const worker = await server.mf.getWorker()
    await worker.scheduled({ cron: '*/5 * * * *', scheduledTime: new Date() })
    expect((await orderOf(placed.trade_no)).status).toBe('closed')
    await payAtMock(placed)
    expect((await orderOf(placed.trade_no)).status).toBe('success')
    expect(await quota(buyer)).toBe(before + 15_000_000)
  })
})
