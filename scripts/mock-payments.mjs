/**
 * A local stand-in for the four payment gateways, speaking each real protocol, so the gateway's
 * top-up can be paid end to end without the internet (`npm run mock-payments`, e2e tests). This
 * file owns the server, the orders and the delivery of notifies; each gateway's protocol is one
 * module under scripts/mock-payments/: stripe.mjs (/v1/…, /stripe/checkout/:id), alipay.mjs
 * (/alipay/gateway.do), wxpay.mjs (/wxpay/v3/…, /wxpay/scan/:id) and epay.mjs (/epay/submit.php).
 * Every key pair is generated at start. GET /config answers the gateway configs to paste (API bases
 * pointing here); POST /_pay {trade_no, tamper?, repeat?} pays from a test, optionally tampering the
 * notify (amount, currency, signature, trade_no) or sending the same notify several times, and
 * answers what the gateway replied; GET /_deliveries lists every notify delivered; POST /_stripe/cycle
 * and /_stripe/delete drive a Stripe Subscription's renewals and end (mock-payments/stripe.mjs).
 */
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { alipayGateway } from './mock-payments/alipay.mjs'
import { epayGateway } from './mock-payments/epay.mjs'
import { readBody, send } from './mock-payments/shared.mjs'
import { stripeGateway } from './mock-payments/stripe.mjs'
import { wxpayGateway } from './mock-payments/wxpay.mjs'

export async function startMockPayments({ port = Number(process.env.PORT ?? 3998), host = '127.0.0.1' } = {}) {
  /** Orders by the mock's id: {id, kind, tradeNo, cents, currency, notifyUrl, returnUrl, paid, gatewayNo, ...}. */
  const orders = new Map()
  /** Every notify the mock delivered: {kind, tradeNo, tamper, status, body}. */
  const deliveries = []
  let base = ''

  const findByTradeNo = (tradeNo) => [...orders.values()].reverse().find((o) => o.tradeNo === tradeNo)

  /** Marks `o` paid (unless tampering) and sends its gateway's notifies `repeat` times each. */
  async function deliver(o, tamper, repeat = 1) {
    if (!tamper) o.paid = true
    const answers = []
    for (const n of gateways[o.kind].notifies(o, tamper)) {
      for (let i = 0; i < repeat; i++) {
        try {
          const r = await fetch(n.url, n.init)
          const text = await r.text()
          answers.push({ status: r.status, body: text })
        } catch (err) {
          answers.push({ status: 0, body: String(err) })
        }
      }
    }
    for (const a of answers) deliveries.push({ kind: o.kind, tradeNo: o.tradeNo, tamper: tamper ?? null, ...a })
    return answers
  }

  const store = { orders, findByTradeNo, deliver, base: () => base }
  const gateways = { stripe: stripeGateway(store), alipay: alipayGateway(store), wxpay: wxpayGateway(store), epay: epayGateway(store) }
  const configs = () => Object.fromEntries(Object.entries(gateways).map(([kind, g]) => [kind, g.preset()]))

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://mock')
    const raw = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req)
    try {
      if (url.pathname === '/config') return send(res, 200, configs())
      if (url.pathname === '/_deliveries') return send(res, 200, deliveries)
      if (url.pathname === '/_pay' && req.method === 'POST') {
        const { trade_no: tradeNo, tamper, repeat } = JSON.parse(raw || '{}')
        const o = findByTradeNo(tradeNo)
        if (!o) return send(res, 404, { error: `no order ${tradeNo} at the mock` })
        return send(res, 200, { kind: o.kind, answers: await deliver(o, tamper, Math.min(Number(repeat) || 1, 20)) })
      }
      const gateway = Object.values(gateways).find((g) => g.prefixes.some((p) => url.pathname.startsWith(p)))
      if (gateway) return await gateway.handle(req, res, url, raw)
      return send(res, 404, { error: 'not found' })
    } catch (err) {
      return send(res, 500, { error: String(err?.message ?? err) })
    }
  })
  await new Promise((resolve) => server.listen(port, host, resolve))
  base = `http://${host}:${server.address().port}`
  return {
    url: base,
    configs,
    orders,
    deliveries,
    webhooks: gateways.stripe.webhooks,
    stripeSubscriptions: gateways.stripe.subscriptions,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const mock = await startMockPayments()
  console.log(`Mock payment gateways on ${mock.url}. GET ${mock.url}/config answers the four gateway configs to paste into Payment → New gateway.`)
}
