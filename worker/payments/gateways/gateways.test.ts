/**
 * Each gateway's signing and notify verification, against the reference's vectors (Epay MD5,
 * Stripe webhook) and vectors made with OpenSSL/Node (Alipay RSA2, WeChat Pay request signature),
 * plus the refusals: bad signature, foreign merchant, stale timestamp, wrong key, tampered body.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import Stripe from 'stripe'
import { importRsaPublicKey, readCertificate, rsaSign, rsaVerify, sortedQuery, base64ToBytes } from './crypto'
import { epay, epaySign } from './epay'
import { alipay, rawResponseValue, type AlipayConfig } from './alipay'
import { wxpay, wxpayAuthorization, type WxpayConfig } from './wxpay'
import { stripe, type StripeConfig } from './stripe'
import { alipayNotify, epayNotify, stripeNotify, toNotifyRequest, wxpayNotify } from '../../test/payments-notify'
import * as K from '../../test/payment-test-keys'

afterEach(() => vi.restoreAllMocks())

const payInput = {
  tradeNo: 'T1',
  payCents: 68_985,
  currency: 'CNY' as const,
  notifyUrl: 'https://gw.example/api/payment/notify/abc',
  returnUrl: 'https://gw.example/panel/topup',
  subject: 'AI Gateway top-up',
  user: { id: 7, email: 'a@example.com' },
}

describe('epay', () => {
  const config = { pay_domain: 'https://pay.example.com/', partner_id: '1001', key: 'KEY123', pay_type: 'alipay' as const }

  it('signs the reference vector', async () => {
    const params = { money: '1.00', name: 'T1', notify_url: 'https://a.example/n', out_trade_no: 'T1', pid: '1001', return_url: 'https://a.example/r', type: 'alipay' }
    expect(await epaySign(params, 'KEY123')).toBe('c2cfc5e7e1d52d43cf6301ce191cdf6a')
    expect(await epaySign({ ...params, sign: 'x', sign_type: 'MD5', empty: '' }, 'KEY123')).toBe('c2cfc5e7e1d52d43cf6301ce191cdf6a')
  })

  it('builds the submit.php form with the money in two decimals', async () => {
    const r = await epay.pay(config, payInput)
    expect(r.type).toBe('redirect')
    if (r.type !== 'redirect') return
    expect(r.data.url).toBe('https://pay.example.com/submit.php')
    expect(r.data.method).toBe('POST')
    expect(r.data.params).toMatchObject({ pid: '1001', out_trade_no: 'T1', money: '689.85', type: 'alipay', sign_type: 'MD5' })
    const { sign, ...rest } = r.data.params!
    expect(sign).toBe(await epaySign(rest, 'KEY123'))
  })

  it('verifies a notify and refuses tampering', async () => {
    const fields = { pid: '1001', trade_no: 'EP1', out_trade_no: 'T1', money: '689.85' }
    const ok = await epay.parseNotify(config, toNotifyRequest(await epayNotify('KEY123', fields)))
    expect(ok).toEqual({ kind: 'paid', tradeNo: 'T1', gatewayNo: 'EP1', amountCents: 68_985, currency: '' })
    expect((await epay.parseNotify(config, toNotifyRequest(await epayNotify('KEY123', fields, { tamper: { money: '0.01' } })))).kind).toBe('invalid')
    expect((await epay.parseNotify(config, toNotifyRequest(await epayNotify('OTHER', fields)))).kind).toBe('invalid')
    expect((await epay.parseNotify(config, toNotifyRequest(await epayNotify('KEY123', { ...fields, pid: '9' })))).kind).toBe('invalid')
    expect((await epay.parseNotify(config, toNotifyRequest(await epayNotify('KEY123', { ...fields, trade_status: 'WAIT' })))).kind).toBe('ignored')
    expect((await epay.parseNotify(config, toNotifyRequest({ method: 'GET', query: 'out_trade_no=T1', headers: {} }))).kind).toBe('invalid')
    expect(await epay.ack('ok').text()).toBe('success')
    expect(await epay.ack('reject').text()).toBe('fail')
  })
})

describe('RSA keys', () => {
  it('signs like OpenSSL with a PKCS#1 merchant key', async () => {
    expect(await rsaSign(K.MERCHANT_KEY_PKCS1, K.ALIPAY_SIGN_STRING)).toBe(K.ALIPAY_SIGNATURE)
    expect(await rsaSign(K.MERCHANT_KEY_PKCS1, K.WXPAY_SIGN_STRING)).toBe(K.WXPAY_SIGNATURE)
  })

  it('reads public keys as SPKI PEM, bare base64 and certificates', async () => {
    const sig = await rsaSign(K.PLATFORM_KEY_PKCS8, 'hello')
    for (const pub of [K.PLATFORM_PUBLIC_SPKI, K.PLATFORM_PUBLIC_BARE, K.PLATFORM_CERT]) {
      expect(await rsaVerify(pub, 'hello', sig)).toBe(true)
      expect(await rsaVerify(pub, 'hellO', sig)).toBe(false)
    }
    expect(await rsaVerify(K.MERCHANT_PUBLIC, 'hello', sig)).toBe(false)
    expect(await rsaVerify(K.PLATFORM_PUBLIC_SPKI, 'hello', 'not base64!')).toBe(false)
    await expect(importRsaPublicKey('garbage')).rejects.toThrow()
  })

  it('reads a certificate serial', () => {
    const der = base64ToBytes(K.PLATFORM_CERT.replace(/-----[^-]+-----/g, ''))
    expect(readCertificate(der).serial).toBe(K.PLATFORM_CERT_SERIAL)
  })
})

describe('alipay', () => {
  const config: AlipayConfig = {
    app_id: '2021000000000001',
    private_key: K.MERCHANT_KEY_PKCS1,
    public_key: K.PLATFORM_PUBLIC_BARE,
    pay_type: 'pagepay',
    seller_id: '2088000000000001',
    gateway_url: '',
  }

  it('signs a page.pay link with RSA2 over the sorted params', async () => {
    const r = await alipay.pay(config, payInput)
    if (r.type !== 'redirect') throw new Error('expected a redirect')
    expect(r.data.url).toBe('https://openapi.alipay.com/gateway.do')
    const p = r.data.params!
    expect(p).toMatchObject({ app_id: config.app_id, method: 'alipay.trade.page.pay', sign_type: 'RSA2', charset: 'utf-8', notify_url: payInput.notifyUrl })
    expect(JSON.parse(p.biz_content!)).toMatchObject({ out_trade_no: 'T1', total_amount: '689.85', product_code: 'FAST_INSTANT_TRADE_PAY' })
    expect(p.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    expect(await rsaVerify(K.MERCHANT_PUBLIC, sortedQuery(p), p.sign!)).toBe(true)
  })

  it('precreates a QR and trusts only a signed answer', async () => {
    const inner = JSON.stringify({ code: '10000', msg: 'Success', out_trade_no: 'T1', qr_code: 'https://qr.alipay.com/bax1' })
    let sign = await rsaSign(K.PLATFORM_KEY_PKCS8, inner)
    const seen: URLSearchParams[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      seen.push(new URLSearchParams(String(init?.body)))
      return new Response(`{"alipay_trade_precreate_response":${inner},"sign":"${sign}"}`)
    })
    const r = await alipay.pay({ ...config, pay_type: 'facepay' }, payInput)
    expect(r).toEqual({ type: 'qr', data: { url: 'https://qr.alipay.com/bax1' } })
    expect(seen[0]!.get('method')).toBe('alipay.trade.precreate')
    sign = await rsaSign(K.MERCHANT_KEY_PKCS1, inner)
    await expect(alipay.pay({ ...config, pay_type: 'facepay' }, payInput)).rejects.toThrow(/signature/)
  })

  it('cuts the signed response text exactly', () => {
    expect(rawResponseValue('{"a_response":{"x":"}{\\"","y":{"z":1}},"sign":"s"}', 'a_response')).toBe('{"x":"}{\\"","y":{"z":1}}')
  })

  it('verifies a notify and refuses tampering and foreign merchants', async () => {
    const fields = { app_id: config.app_id, seller_id: config.seller_id, out_trade_no: 'T1', trade_no: '2026010222001', total_amount: '689.85' }
    expect(await alipay.parseNotify(config, toNotifyRequest(await alipayNotify(fields)))).toEqual({
      kind: 'paid',
      tradeNo: 'T1',
      gatewayNo: '2026010222001',
      amountCents: 68_985,
      currency: 'CNY',
    })
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify({ ...fields, trade_status: 'TRADE_FINISHED' })))).kind).toBe('paid')
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify(fields, { tamper: { total_amount: '0.01' } })))).kind).toBe('invalid')
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify(fields, { key: K.MERCHANT_KEY_PKCS1 })))).kind).toBe('invalid')
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify({ ...fields, app_id: '999' })))).kind).toBe('invalid')
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify({ ...fields, seller_id: '999' })))).kind).toBe('invalid')
    expect((await alipay.parseNotify(config, toNotifyRequest(await alipayNotify({ ...fields, trade_status: 'WAIT_BUYER_PAY' })))).kind).toBe('ignored')
    expect(await alipay.ack('ok').text()).toBe('success')
  })
})

describe('wxpay', () => {
  const config: WxpayConfig = {
    app_id: 'wx1',
    mch_id: '1900000001',
    mch_certificate_serial_number: 'MERCHANTSERIAL',
    mch_apiv3_key: '0123456789abcdef0123456789abcdef',
    mch_private_key: K.MERCHANT_KEY_PKCS1,
    platform_public_key: K.PLATFORM_CERT,
    platform_serial: '',
    api_base: '',
  }
  const tx = { appid: 'wx1', mchid: '1900000001', out_trade_no: 'T1', transaction_id: '4200001', amount: { total: 68_985, currency: 'CNY' } }

  it('signs requests like OpenSSL', async () => {
    const auth = await wxpayAuthorization(config, 'POST', '/v3/pay/transactions/native', '{"appid":"wx1"}', 1700000000, '593BEC0C930BF1AFEB40B4A08C8FB242')
    expect(auth).toBe(
      `WECHATPAY2-SHA256-RSA2048 mchid="1900000001",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="${K.WXPAY_SIGNATURE}",timestamp="1700000000",serial_no="MERCHANTSERIAL"`
    )
  })

  it('orders a Native QR and checks the answer signature', async () => {
    const bodies: string[] = []
    let signer = K.PLATFORM_KEY_PKCS8
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      expect(req.headers.get('authorization')).toMatch(/^WECHATPAY2-SHA256-RSA2048 mchid="1900000001"/)
      bodies.push(await req.text())
      const body = JSON.stringify({ code_url: 'weixin://wxpay/bizpayurl?pr=abc' })
      const ts = String(Math.floor(Date.now() / 1000))
      const sig = await rsaSign(signer, `${ts}\nn1\n${body}\n`)
      return new Response(body, { headers: { 'Wechatpay-Timestamp': ts, 'Wechatpay-Nonce': 'n1', 'Wechatpay-Signature': sig, 'Wechatpay-Serial': K.PLATFORM_CERT_SERIAL } })
    })
    expect(await wxpay.pay(config, payInput)).toEqual({ type: 'qr', data: { url: 'weixin://wxpay/bizpayurl?pr=abc' } })
    expect(JSON.parse(bodies[0]!)).toMatchObject({
      appid: 'wx1',
      mchid: '1900000001',
      out_trade_no: 'T1',
      amount: { total: 68_985, currency: 'CNY' },
      notify_url: payInput.notifyUrl,
    })
    signer = K.MERCHANT_KEY_PKCS1
    await expect(wxpay.pay(config, payInput)).rejects.toThrow(/signature/)
  })

  it('verifies and decrypts a notify', async () => {
    expect(await wxpay.parseNotify(config, toNotifyRequest(await wxpayNotify(config.mch_apiv3_key, tx)))).toEqual({
      kind: 'paid',
      tradeNo: 'T1',
      gatewayNo: '4200001',
      amountCents: 68_985,
      currency: 'CNY',
    })
    // The public key mode (PUB_KEY_ID_…) instead of a certificate.
    const pubKeyMode = { ...config, platform_public_key: K.PLATFORM_PUBLIC_SPKI, platform_serial: 'PUB_KEY_ID_0114' }
    expect((await wxpay.parseNotify(pubKeyMode, toNotifyRequest(await wxpayNotify(config.mch_apiv3_key, tx, { serial: 'PUB_KEY_ID_0114' })))).kind).toBe('paid')
  })

  it('refuses bad signatures, other serials, stale timestamps, wrong keys and foreign merchants', async () => {
    const refuse = async (n: Promise<Parameters<typeof toNotifyRequest>[0]>, c = config) => (await wxpay.parseNotify(c, toNotifyRequest(await n))).kind
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, tx, { key: K.MERCHANT_KEY_PKCS1 }))).toBe('invalid')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, tx, { serial: 'OTHER' }))).toBe('invalid')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, tx, { timestamp: Math.floor(Date.now() / 1000) - 600 }))).toBe('invalid')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, tx, { tamperBody: (b) => b.replace('TRANSACTION.SUCCESS', 'TRANSACTION.SUCCESX') }))).toBe('invalid')
    expect(await refuse(wxpayNotify('ffffffffffffffffffffffffffffffff', tx))).toBe('invalid')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, { ...tx, mchid: '1' }))).toBe('invalid')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, tx, { eventType: 'REFUND.SUCCESS' }))).toBe('ignored')
    expect(await refuse(wxpayNotify(config.mch_apiv3_key, { ...tx, trade_state: 'NOTPAY' }))).toBe('ignored')
    expect(wxpay.ack('ok').status).toBe(204)
    const refused = wxpay.ack('reject', 'bad signature')
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({ code: 'FAIL', message: 'bad signature' })
  })
})

describe('stripe', () => {
  const config: StripeConfig = { secret_key: 'sk_test_abc', webhook_secret: 'whsec_test', api_base: '' }

  it('matches the reference webhook vector', async () => {
    const body = '{"id":"evt_1","type":"checkout.session.completed"}'
    const header = 't=1700000000,v1=749721cbedbfa4cc1aa6c9c2bec1edd93766a07906c9d9b3dbc7626e4e660caf'
    const s = new Stripe('sk_test_abc', { httpClient: Stripe.createFetchHttpClient() })
    const event = await s.webhooks.constructEventAsync(body, header, 'whsec_test', 300, Stripe.createSubtleCryptoProvider(), 1700000000)
    expect(event.id).toBe('evt_1')
    await expect(s.webhooks.constructEventAsync(body, header.replace('v1=7', 'v1=8'), 'whsec_test', 300, Stripe.createSubtleCryptoProvider(), 1700000000)).rejects.toThrow()
  })

  it('reads paid sessions and ignores the rest', async () => {
    const session = { client_reference_id: 'T1', amount_total: 9_450, currency: 'usd', payment_intent: 'pi_1' }
    expect(await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', session)))).toEqual({
      kind: 'paid',
      tradeNo: 'T1',
      gatewayNo: 'pi_1',
      amountCents: 9_450,
      currency: 'USD',
    })
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', session, { type: 'checkout.session.async_payment_succeeded' })))).kind).toBe('paid')
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', { ...session, payment_status: 'unpaid' })))).kind).toBe('ignored')
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', session, { type: 'charge.refunded' })))).kind).toBe('ignored')
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_other', session)))).kind).toBe('invalid')
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', session, { timestamp: Math.floor(Date.now() / 1000) - 400 })))).kind).toBe('invalid')
    expect((await stripe.parseNotify(config, toNotifyRequest(await stripeNotify('whsec_test', session, { tamperBody: (b) => b.replace('9450', '1') })))).kind).toBe('invalid')
    expect((await stripe.parseNotify({ ...config, webhook_secret: '' }, toNotifyRequest(await stripeNotify('whsec_test', session)))).kind).toBe('invalid')
    expect(stripe.ack('reject').status).toBe(400)
    expect(stripe.ack('ok').status).toBe(200)
  })

  it('creates a Checkout Session for exactly the order cents through fetch', async () => {
    const forms: URLSearchParams[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      expect(req.url).toBe('http://127.0.0.1:12111/v1/checkout/sessions')
      expect(req.headers.get('authorization')).toBe('Bearer sk_test_abc')
      forms.push(new URLSearchParams(await req.text()))
      return Response.json({ id: 'cs_test_1', object: 'checkout.session', url: 'http://127.0.0.1:12111/pay/cs_test_1' })
    })
    const r = await stripe.pay({ ...config, api_base: 'http://127.0.0.1:12111' }, { ...payInput, currency: 'USD', payCents: 9_450 })
    expect(r).toEqual({ type: 'redirect', data: { url: 'http://127.0.0.1:12111/pay/cs_test_1', method: 'GET' }, gatewayRef: 'cs_test_1' })
    const f = forms[0]!
    expect(f.get('client_reference_id')).toBe('T1')
    expect(f.get('line_items[0][price_data][unit_amount]')).toBe('9450')
    expect(f.get('line_items[0][price_data][currency]')).toBe('usd')
    expect(f.get('mode')).toBe('payment')
  })

  it('a recurring session first gives an endpoint registered before auto-renew its invoice events, in place', async () => {
    const calls: string[] = []
    const endpoint = { id: 'we_old', url: payInput.notifyUrl, enabled_events: ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] }
    let session: URLSearchParams | undefined
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      const path = new URL(req.url).pathname
      calls.push(`${req.method} ${path}`)
      if (req.method === 'GET') return Response.json({ object: 'list', data: endpoint.id ? [endpoint] : [], has_more: false })
      const form = new URLSearchParams(await req.text())
      if (path === '/v1/webhook_endpoints/we_old') {
        endpoint.enabled_events = [...form.entries()].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v)
        return Response.json({ ...endpoint, object: 'webhook_endpoint' })
      }
      session = form
      return Response.json({ id: 'cs_test_2', object: 'checkout.session', url: 'http://127.0.0.1:12111/pay/cs_test_2' })
    })
    const recurring = { interval: 'month' as const, count: 1, planId: 7 }
    await stripe.pay({ ...config, api_base: 'http://127.0.0.1:12111' }, { ...payInput, currency: 'USD', payCents: 990, recurring })
    expect(calls).toEqual(['GET /v1/webhook_endpoints', 'POST /v1/webhook_endpoints/we_old', 'POST /v1/checkout/sessions'])
    expect(endpoint.enabled_events).toEqual(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'invoice.paid', 'customer.subscription.deleted'])
    expect(session?.get('mode')).toBe('subscription')
    expect(session?.get('line_items[0][price_data][recurring][interval]')).toBe('month')
    // Without an endpoint for this gateway no recurring charge starts: Stripe would bill cycles nobody hears of.
    endpoint.id = ''
    calls.length = 0
    await expect(stripe.pay({ ...config, api_base: 'http://127.0.0.1:12111' }, { ...payInput, currency: 'USD', payCents: 990, recurring })).rejects.toThrow(/no webhook endpoint/)
    expect(calls).toEqual(['GET /v1/webhook_endpoints'])
  })

  it('registers the webhook once and keeps its secret', async () => {
    const endpoints: { id: string; url: string; enabled_events: string[] }[] = []
    const calls: string[] = []
    let made = 0
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      const path = new URL(req.url).pathname
      calls.push(`${req.method} ${path}`)
      if (req.method === 'GET') return Response.json({ object: 'list', data: endpoints, has_more: false })
      if (req.method === 'DELETE') {
        endpoints.splice(
          endpoints.findIndex((e) => path.endsWith(e.id)),
          1
        )
        return Response.json({ id: path.split('/').pop(), deleted: true })
      }
      const form = new URLSearchParams(await req.text())
      const e = {
        id: `we_${++made}`,
        url: form.get('url')!,
        enabled_events: [...form.entries()].filter(([k]) => k.startsWith('enabled_events')).map(([, v]) => v),
      }
      endpoints.push(e)
      return Response.json({ ...e, object: 'webhook_endpoint', secret: `whsec_${e.id}` })
    })
    const notifyUrl = 'https://gw.example/api/payment/notify/abc'
    const first = await stripe.onSave!({ ...config, webhook_secret: '' }, { notifyUrl, created: true })
    expect(first.webhook_secret).toBe('whsec_we_1')
    expect(endpoints[0]!.enabled_events).toEqual(['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'invoice.paid', 'customer.subscription.deleted'])
    // Saved again with the secret: reused, nothing created.
    expect((await stripe.onSave!(first, { notifyUrl, created: false })).webhook_secret).toBe('whsec_we_1')
    expect(endpoints).toHaveLength(1)
    // Secret lost (one-hub's bug overwrote it with ""): the endpoint is replaced, not left secretless.
    const again = await stripe.onSave!({ ...config, webhook_secret: '' }, { notifyUrl, created: false })
    expect(again.webhook_secret).toBe('whsec_we_2')
    expect(endpoints.map((e) => e.id)).toEqual(['we_2'])
    expect(calls.filter((c) => c.startsWith('DELETE'))).toHaveLength(1)
    // An endpoint registered before auto-renew (no invoice events) is replaced even with its secret held.
    endpoints[0]!.enabled_events = ['checkout.session.completed', 'checkout.session.async_payment_succeeded']
    const upgraded = await stripe.onSave!(again, { notifyUrl, created: false })
    expect(upgraded.webhook_secret).toBe('whsec_we_3')
    expect(endpoints.map((e) => e.enabled_events.length)).toEqual([4])
  })
})
