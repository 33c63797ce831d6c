/**
 * The Stripe mock at /v1/… (the stripe SDK's paths; the gateway's API base points here): webhook
 * endpoints (each with its own whsec_ secret), Checkout Sessions (Bearer secret key checked), and a
 * checkout page /stripe/checkout/:id whose Pay button sends `checkout.session.completed` signed
 * like Stripe (t=…,v1=HMAC-SHA256) to every registered endpoint, then returns to success_url.
 */
import crypto from 'node:crypto'
import { money, orderFromPath, page, rid, send, tamperedTradeNo } from './shared.mjs'

/** `store`: {orders, deliver, base()} from scripts/mock-payments.mjs. */
export function stripeGateway({ orders, deliver, base }) {
  const secretKey = `sk_test_mock${crypto.randomBytes(8).toString('hex')}`
  /** Registered webhook endpoints by id, with their signing secrets. */
  const webhooks = new Map()

  function session(o, tamper) {
    return {
      id: o.id,
      object: 'checkout.session',
      mode: 'payment',
      client_reference_id: tamperedTradeNo(o, tamper),
      amount_total: tamper === 'amount' ? o.cents - 1 : o.cents,
      amount_subtotal: o.cents,
      currency: tamper === 'currency' ? (o.currency === 'usd' ? 'eur' : 'usd') : o.currency,
      payment_status: o.paid || tamper ? 'paid' : 'unpaid',
      status: o.paid ? 'complete' : 'open',
      payment_intent: o.paid || tamper ? o.gatewayNo : null,
      success_url: o.returnUrl,
      url: o.paid ? null : `${base()}/stripe/checkout/${o.id}`,
      metadata: o.metadata ?? {},
    }
  }

  function notifies(o, tamper) {
    const body = JSON.stringify({
      id: rid('evt_'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      livemode: false,
      data: { object: session(o, tamper) },
    })
    const t = Math.floor(Date.now() / 1000)
    return [...webhooks.values()]
      .filter((w) => w.enabled_events.includes('checkout.session.completed') || w.enabled_events.includes('*'))
      .map((w) => {
        const v1 = crypto
          .createHmac('sha256', tamper === 'signature' ? 'whsec_wrong' : w.secret)
          .update(`${t}.${body}`)
          .digest('hex')
        return { url: w.url, init: { method: 'POST', headers: { 'content-type': 'application/json', 'Stripe-Signature': `t=${t},v1=${v1}` }, body } }
      })
  }

  /** Answers the webhook-endpoint APIs; false when the request is none of them. */
  function webhookEndpoints(req, res, url, form) {
    const we = /^\/v1\/webhook_endpoints\/(\w+)$/.exec(url.pathname)
    if (url.pathname === '/v1/webhook_endpoints' && req.method === 'GET') {
      send(res, 200, { object: 'list', url: '/v1/webhook_endpoints', has_more: false, data: [...webhooks.values()].map(({ secret, ...w }) => w) })
    } else if (url.pathname === '/v1/webhook_endpoints' && req.method === 'POST') {
      const events = [...form.entries()].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v)
      const w = {
        id: rid('we_'),
        object: 'webhook_endpoint',
        url: form.get('url'),
        enabled_events: events,
        status: 'enabled',
        secret: `whsec_${crypto.randomBytes(16).toString('hex')}`,
      }
      webhooks.set(w.id, w)
      send(res, 200, w)
    } else if (we && req.method === 'DELETE') {
      webhooks.delete(we[1])
      send(res, 200, { id: we[1], object: 'webhook_endpoint', deleted: true })
    } else return false
    return true
  }

  function api(req, res, url, raw) {
    if ((req.headers.authorization ?? '') !== `Bearer ${secretKey}`) return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    const form = new URLSearchParams(raw)
    if (webhookEndpoints(req, res, url, form)) return
    if (url.pathname === '/v1/checkout/sessions' && req.method === 'POST') {
      const o = {
        id: rid('cs_test_'),
        kind: 'stripe',
        tradeNo: form.get('client_reference_id'),
        cents: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]'),
        returnUrl: form.get('success_url'),
        subject: form.get('line_items[0][price_data][product_data][name]'),
        metadata: { trade_no: form.get('metadata[trade_no]'), user_id: form.get('metadata[user_id]') },
        gatewayNo: rid('pi_'),
      }
      orders.set(o.id, o)
      return send(res, 200, session(o))
    }
    const cs = orderFromPath(/^\/v1\/checkout\/sessions\/(\w+)$/, url, orders)
    if (cs) return send(res, 200, session(cs))
    return send(res, 404, { error: { type: 'invalid_request_error', message: `No such resource: ${url.pathname}` } })
  }

  async function handle(req, res, url, raw) {
    if (url.pathname.startsWith('/v1/')) return api(req, res, url, raw)
    const o = orderFromPath(/^\/stripe\/checkout\/(\w+)$/, url, orders)
    if (o && req.method === 'GET')
      return send(res, 200, page('Stripe mock checkout', [o.subject, `Total ${money(o.cents)} ${o.currency.toUpperCase()}`], `/stripe/checkout/${o.id}`))
    if (o && req.method === 'POST') {
      await deliver(o)
      return send(res, 302, '', { location: o.returnUrl })
    }
    return send(res, 404, { error: 'not found' })
  }

  const preset = () => ({ currency: 'USD', config: { secret_key: secretKey, api_base: base() } })

  return { kind: 'stripe', prefixes: ['/v1/', '/stripe/'], handle, notifies, preset, webhooks }
}
