/**
 * The Stripe mock at /v1/… (the stripe SDK's paths; the gateway's API base points here): webhook
 * endpoints (each with its own whsec_ secret), Checkout Sessions (Bearer secret key checked), and a
 * checkout page /stripe/checkout/:id whose Pay button sends `checkout.session.completed` signed
 * like Stripe (t=…,v1=HMAC-SHA256) to every registered endpoint, then returns to success_url.
 * Recurring (plan auto-renew): a `mode=subscription` session starts a Subscription (`sub_…`, its
 * first invoice the session's payment); POST /v1/subscriptions/:id updates `cancel_at_period_end`
 * (a deleted one answers 400 like Stripe). Tests drive the cycles: POST /_stripe/cycle
 * {subscription, amount?, currency?, repeat?} sends a new `invoice.paid` (billing_reason
 * subscription_cycle) `repeat` times, POST /_stripe/delete {subscription} deletes it and sends
 * `customer.subscription.deleted`; both answer {answers, invoice?}.
 */
import crypto from 'node:crypto'
import { money, orderFromPath, page, rid, send, tamperedTradeNo } from './shared.mjs'

/** `store`: {orders, deliver, base()} from scripts/mock-payments.mjs. */
export function stripeGateway({ orders, deliver, base }) {
  const secretKey = `sk_test_mock${crypto.randomBytes(8).toString('hex')}`
  /** Registered webhook endpoints by id, with their signing secrets. */
  const webhooks = new Map()
  /** Subscriptions by id: {id, status, cancel_at_period_end, order}. */
  const subscriptions = new Map()

  function session(o, tamper) {
    return {
      id: o.id,
      object: 'checkout.session',
      mode: o.recurring ? 'subscription' : 'payment',
      subscription: o.recurring && (o.paid || tamper) ? o.subscription : null,
      invoice: o.recurring && (o.paid || tamper) ? o.gatewayNo : null,
      client_reference_id: tamperedTradeNo(o, tamper),
      amount_total: tamper === 'amount' ? o.cents - 1 : o.cents,
      amount_subtotal: o.cents,
      currency: tamper === 'currency' ? (o.currency === 'usd' ? 'eur' : 'usd') : o.currency,
      payment_status: o.paid || tamper ? 'paid' : 'unpaid',
      status: o.paid ? 'complete' : 'open',
      payment_intent: !o.recurring && (o.paid || tamper) ? o.gatewayNo : null,
      success_url: o.returnUrl,
      url: o.paid ? null : `${base()}/stripe/checkout/${o.id}`,
      metadata: o.metadata ?? {},
    }
  }

  /** The deliveries of a `type` event about `object` to every endpoint that wants it, signed with its secret. */
  function signedEvents(type, object, tamper) {
    const body = JSON.stringify({
      id: rid('evt_'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      data: { object },
    })
    const t = Math.floor(Date.now() / 1000)
    return [...webhooks.values()]
      .filter((w) => w.enabled_events.includes(type) || w.enabled_events.includes('*'))
      .map((w) => {
        const v1 = crypto
          .createHmac('sha256', tamper === 'signature' ? 'whsec_wrong' : w.secret)
          .update(`${t}.${body}`)
          .digest('hex')
        return { url: w.url, init: { method: 'POST', headers: { 'content-type': 'application/json', 'Stripe-Signature': `t=${t},v1=${v1}` }, body } }
      })
  }

  function notifies(o, tamper) {
    if (o.recurring && !tamper && !subscriptions.has(o.subscription))
      subscriptions.set(o.subscription, { id: o.subscription, object: 'subscription', status: 'active', cancel_at_period_end: false, order: o })
    return signedEvents('checkout.session.completed', session(o, tamper), tamper)
  }

  async function sendAll(events, repeat = 1) {
    const answers = []
    for (const n of events)
      for (let i = 0; i < repeat; i++) {
        const r = await fetch(n.url, n.init).catch((err) => ({ status: 0, text: async () => String(err) }))
        answers.push({ status: r.status, body: await r.text() })
      }
    return answers
  }

  /** The test hooks: a paid cycle invoice of a subscription, or its deletion. */
  async function testHook(res, url, raw) {
    const input = JSON.parse(raw || '{}')
    const sub = subscriptions.get(input.subscription)
    if (!sub) return send(res, 404, { error: `no subscription ${input.subscription} at the mock` })
    if (url.pathname === '/_stripe/delete') {
      sub.status = 'canceled'
      const { order, ...object } = sub
      return send(res, 200, { answers: await sendAll(signedEvents('customer.subscription.deleted', object)) })
    }
    const invoice = {
      id: rid('in_'),
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: input.amount ?? sub.order.cents,
      currency: input.currency ?? sub.order.currency,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.order.metadata } },
    }
    return send(res, 200, { invoice: invoice.id, answers: await sendAll(signedEvents('invoice.paid', invoice), Math.min(Number(input.repeat) || 1, 20)) })
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
    } else if (we && req.method === 'POST' && webhooks.has(we[1])) {
      const w = webhooks.get(we[1])
      const events = [...form.entries()].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v)
      if (events.length > 0) w.enabled_events = events
      const { secret, ...shown } = w
      send(res, 200, shown)
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
    const subPath = /^\/v1\/subscriptions\/(\w+)$/.exec(url.pathname)
    if (subPath && req.method === 'POST') {
      const sub = subscriptions.get(subPath[1])
      if (!sub) return send(res, 404, { error: { type: 'invalid_request_error', message: `No such subscription: '${subPath[1]}'` } })
      if (sub.status === 'canceled')
        return send(res, 400, { error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details.' } })
      if (form.has('cancel_at_period_end')) sub.cancel_at_period_end = form.get('cancel_at_period_end') === 'true'
      const { order, ...object } = sub
      return send(res, 200, object)
    }
    if (url.pathname === '/v1/checkout/sessions' && req.method === 'POST') {
      const recurring = form.get('mode') === 'subscription'
      const o = {
        id: rid('cs_test_'),
        kind: 'stripe',
        tradeNo: form.get('client_reference_id'),
        cents: Number(form.get('line_items[0][price_data][unit_amount]')),
        currency: form.get('line_items[0][price_data][currency]'),
        returnUrl: form.get('success_url'),
        subject: form.get('line_items[0][price_data][product_data][name]'),
        metadata: { trade_no: form.get('metadata[trade_no]'), user_id: form.get('metadata[user_id]') },
        gatewayNo: rid(recurring ? 'in_' : 'pi_'),
        ...(recurring
          ? {
              recurring: {
                interval: form.get('line_items[0][price_data][recurring][interval]'),
                count: Number(form.get('line_items[0][price_data][recurring][interval_count]') ?? 1),
              },
              subscription: rid('sub_'),
            }
          : {}),
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
    if ((url.pathname === '/_stripe/cycle' || url.pathname === '/_stripe/delete') && req.method === 'POST') return testHook(res, url, raw)
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

  return { kind: 'stripe', prefixes: ['/v1/', '/stripe/', '/_stripe/'], handle, notifies, preset, webhooks, subscriptions }
}
