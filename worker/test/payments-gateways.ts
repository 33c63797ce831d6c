/**
 * The gateways' side of worker/payments/payments.test.ts: the four test gateway configs (fixed keys
 * of payment-test-keys.ts), fake Stripe and WeChat Pay APIs behind a fetch mock
 * (`useFakeGatewayApis()`; `remote` sets what they report paid), and `notifyFor()`, the notify each
 * real gateway would send for an order.
 */
import { afterEach, beforeEach, vi } from 'vitest'
import { rsaSign } from '../payments/gateways/crypto'
import * as K from './payment-test-keys'
import { alipayNotify, type BuiltNotify, epayNotify, stripeNotify, wxpayNotify } from './payments-notify'

export const APIV3 = '0123456789abcdef0123456789abcdef'
export const CONFIGS = {
  epay: { currency: 'CNY', config: { pay_domain: 'https://pay.test', partner_id: '1001', key: 'epay-secret-key', pay_type: 'alipay' } },
  alipay: { currency: 'CNY', config: { app_id: '2021000000000001', private_key: K.MERCHANT_KEY_PKCS1, public_key: K.PLATFORM_PUBLIC_BARE, pay_type: 'pagepay' } },
  wxpay: {
    currency: 'CNY',
    config: {
      app_id: 'wx1',
      mch_id: '1900000001',
      mch_certificate_serial_number: 'MSERIAL',
      mch_apiv3_key: APIV3,
      mch_private_key: K.MERCHANT_KEY_PKCS1,
      platform_public_key: K.PLATFORM_CERT,
    },
  },
  stripe: { currency: 'USD', config: { secret_key: 'sk_test_gateway' } },
} as const
export type Kind = keyof typeof CONFIGS

/** What the fake gateways answer: Stripe and WeChat Pay API calls (the others need none to pay). */
export const remote = {
  wxPaid: new Map<string, number>(),
  stripeSessions: new Map<string, { tradeNo: string; cents: number; currency: string; paid: boolean; form: URLSearchParams }>(),
  /** Stripe Subscriptions by id: `status` 'canceled' once deleted; `cancel_at_period_end` as the last update set it. */
  stripeSubscriptions: new Map<string, { status: string; cancel_at_period_end: boolean }>(),
}

async function signedWx(body: unknown, status = 200) {
  const text = JSON.stringify(body)
  const ts = String(Math.floor(Date.now() / 1000))
  const sig = await rsaSign(K.PLATFORM_KEY_PKCS8, `${ts}\nn\n${text}\n`)
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json', 'Wechatpay-Timestamp': ts, 'Wechatpay-Nonce': 'n', 'Wechatpay-Signature': sig, 'Wechatpay-Serial': K.PLATFORM_CERT_SERIAL },
  })
}

/** Installs the fake Stripe and WeChat Pay APIs around every test of the file. */
export function useFakeGatewayApis(): void {
  beforeEach(() => {
    remote.wxPaid.clear()
    remote.stripeSessions.clear()
    remote.stripeSubscriptions.clear()
    const real = globalThis.fetch
    let n = 0
    // The webhook endpoints registered on this fake account (a recurring checkout checks ours is there).
    const endpoints: { id: string; object: string; url: string | null; enabled_events: string[] }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      const url = new URL(req.url)
      if (url.host === 'api.stripe.com') {
        if (url.pathname === '/v1/webhook_endpoints' && req.method === 'GET') return Response.json({ object: 'list', data: endpoints, has_more: false })
        if (url.pathname === '/v1/webhook_endpoints') {
          const f = new URLSearchParams(await req.text())
          const e = {
            id: `we_${endpoints.length + 1}`,
            object: 'webhook_endpoint',
            url: f.get('url'),
            enabled_events: [...f.entries()].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v),
          }
          endpoints.push(e)
          return Response.json({ ...e, secret: 'whsec_from_stripe' })
        }
        if (url.pathname === '/v1/checkout/sessions' && req.method === 'POST') {
          const f = new URLSearchParams(await req.text())
          const id = `cs_test_${++n}`
          remote.stripeSessions.set(id, {
            tradeNo: f.get('client_reference_id')!,
            cents: Number(f.get('line_items[0][price_data][unit_amount]')),
            currency: f.get('line_items[0][price_data][currency]')!,
            paid: false,
            form: f,
          })
          return Response.json({ id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` })
        }
        const sub = /^\/v1\/subscriptions\/(\w+)$/.exec(url.pathname)
        if (sub && req.method === 'POST') {
          const known = remote.stripeSubscriptions.get(sub[1]!)
          if (!known) return Response.json({ error: { type: 'invalid_request_error', message: `No such subscription: '${sub[1]}'` } }, { status: 404 })
          if (known.status === 'canceled')
            return Response.json({ error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details.' } }, { status: 400 })
          known.cancel_at_period_end = new URLSearchParams(await req.text()).get('cancel_at_period_end') === 'true'
          return Response.json({ id: sub[1], object: 'subscription', ...known })
        }
        const s = remote.stripeSessions.get(url.pathname.split('/').pop()!)
        if (s)
          return Response.json({
            id: url.pathname.split('/').pop(),
            object: 'checkout.session',
            client_reference_id: s.tradeNo,
            amount_total: s.cents,
            currency: s.currency,
            payment_status: s.paid ? 'paid' : 'unpaid',
            payment_intent: s.paid ? 'pi_q' : null,
          })
        return Response.json({ error: { message: 'no such thing' } }, { status: 404 })
      }
      if (url.host === 'api.mch.weixin.qq.com') {
        if (url.pathname === '/v3/pay/transactions/native') return signedWx({ code_url: `weixin://wxpay/bizpayurl?pr=${++n}` })
        const m = /^\/v3\/pay\/transactions\/out-trade-no\/(\w+)$/.exec(url.pathname)
        if (m) {
          const paid = remote.wxPaid.get(m[1]!)
          return signedWx({
            appid: 'wx1',
            mchid: '1900000001',
            out_trade_no: m[1],
            transaction_id: `42q${m[1]}`,
            trade_state: paid ? 'SUCCESS' : 'NOTPAY',
            amount: { total: paid ?? 0, currency: 'CNY' },
          })
        }
      }
      return real(input, init)
    })
  })
  afterEach(() => vi.restoreAllMocks())
}

/** A notify for `tradeNo` as the real gateway of `kind` would send it, paying `cents` of `currency`. */
export async function notifyFor(kind: Kind, tradeNo: string, cents: number, currency: string, tamper: 'none' | 'signature' = 'none'): Promise<BuiltNotify> {
  const money = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
  switch (kind) {
    case 'epay':
      return epayNotify(tamper === 'signature' ? 'wrong-key' : 'epay-secret-key', { pid: '1001', trade_no: `EP${tradeNo}`, out_trade_no: tradeNo, money })
    case 'alipay':
      return alipayNotify(
        { app_id: '2021000000000001', out_trade_no: tradeNo, trade_no: `AL${tradeNo}`, total_amount: money, ...(currency !== 'CNY' ? { trans_currency: currency } : {}) },
        tamper === 'signature' ? { key: K.MERCHANT_KEY_PKCS1 } : {}
      )
    case 'wxpay':
      return wxpayNotify(
        APIV3,
        { appid: 'wx1', mchid: '1900000001', out_trade_no: tradeNo, transaction_id: `42${tradeNo}`, amount: { total: cents, currency } },
        tamper === 'signature' ? { key: K.MERCHANT_KEY_PKCS1 } : {}
      )
    case 'stripe':
      return stripeNotify(tamper === 'signature' ? 'whsec_wrong' : 'whsec_from_stripe', {
        client_reference_id: tradeNo,
        amount_total: cents,
        currency: currency.toLowerCase(),
        payment_intent: `pi_${tradeNo}`,
      })
  }
}
