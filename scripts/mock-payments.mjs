/**
 * A local stand-in for the four payment gateways, speaking each real protocol, so the gateway's
 * top-up can be paid end to end without the internet (`npm run mock-payments`, e2e tests):
 * - Stripe at /v1/… (the stripe SDK's paths; set the gateway's API base to this server): webhook
 *   endpoints (each with its own whsec_ secret), Checkout Sessions (Bearer secret key checked), and a
 *   checkout page /stripe/checkout/:id whose Pay button sends `checkout.session.completed` signed
 *   like Stripe (t=…,v1=HMAC-SHA256) to every registered endpoint, then returns to success_url.
 * - Alipay at /alipay/gateway.do: RSA2 signatures of the app checked with the app's public key;
 *   precreate answers a signed qr_code, page.pay/wap.pay show a cashier page; paying POSTs the
 *   notify form signed with the Alipay key; trade.query answers signed.
 * - WeChat Pay v3 at /wxpay/v3/…: the WECHATPAY2-SHA256-RSA2048 Authorization checked with the
 *   merchant key; Native orders answer a signed code_url; "scanning" (/wxpay/scan/:id) POSTs the
 *   notify with the resource AES-256-GCM encrypted under the APIv3 key and signed with the
 *   platform key (public-key mode, serial PUB_KEY_ID_MOCK); the order query answers signed.
 * - Epay at /epay/submit.php: MD5 signature and partner id checked; paying calls the notify URL
 *   with a signed GET, then returns to return_url.
 * Every key pair is generated at start. GET /config answers the gateway configs to paste (API bases
 * pointing here); POST /_pay {trade_no, tamper?, repeat?} pays from a test, optionally tampering the
 * notify (amount, currency, signature, trade_no) or sending the same notify several times, and
 * answers what the gateway replied.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const rsaPair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }), publicPem: publicKey.export({ type: 'spki', format: 'pem' }), privateKey, publicKey }
}
const bare = (pem) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')
const rsaSign = (key, text) => crypto.createSign('RSA-SHA256').update(text).sign(key, 'base64')
const rsaVerify = (key, text, sig) => {
  try {
    return crypto
      .createVerify('RSA-SHA256')
      .update(text)
      .verify(key, sig ?? '', 'base64')
  } catch {
    return false
  }
}
const sortedQuery = (params, skip = ['sign', 'sign_type']) =>
  Object.keys(params)
    .filter((k) => !skip.includes(k) && params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
const md5 = (s) => crypto.createHash('md5').update(s).digest('hex')
const rid = (prefix) => `${prefix}${crypto.randomBytes(8).toString('hex')}`
const money = (cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`
const cents = (text) => Math.round(Number(text) * 100)
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

const send = (res, status, body, headers = {}) => {
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json', ...headers })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

function page(title, lines, action, buttonLabel = 'Pay') {
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{font-size:1.1rem;padding:.6rem 1.4rem}</style></head>
<body><h1>${esc(title)}</h1>${lines.map((l) => `<p>${esc(l)}</p>`).join('')}
<form method="post" action="${esc(action)}"><button type="submit" id="mock-pay">${esc(buttonLabel)}</button></form></body></html>`
}

export async function startMockPayments({ port = Number(process.env.PORT ?? 3998), host = '127.0.0.1' } = {}) {
  const keys = {
    alipayApp: rsaPair(),
    alipayPlatform: rsaPair(),
    wxMerchant: rsaPair(),
    wxPlatform: rsaPair(),
    wxApiV3Key: crypto.randomBytes(16).toString('hex'),
    epayKey: crypto.randomBytes(12).toString('hex'),
    stripeSecret: `sk_test_mock${crypto.randomBytes(8).toString('hex')}`,
  }
  const ids = {
    alipayApp: '2021000000000001',
    alipaySeller: '2088000000000001',
    wxApp: 'wxmock0001',
    wxMch: '1900000001',
    wxSerial: 'MOCKMERCHANTSERIAL',
    wxPlatformSerial: 'PUB_KEY_ID_MOCK',
    epayPid: '1001',
  }
  /** Orders by our id: {id, kind, tradeNo, cents, currency, notifyUrl, returnUrl, paid, gatewayNo, ...}. */
  const orders = new Map()
  const webhooks = new Map()
  /** Every notify the mock delivered: {kind, tradeNo, status, body}. */
  const deliveries = []
  let base = ''

  const findByTradeNo = (tradeNo) => [...orders.values()].reverse().find((o) => o.tradeNo === tradeNo)

  // ---- notify builders (one per gateway, with the tamper modes) ----

  function epayNotify(o, tamper) {
    const p = {
      pid: ids.epayPid,
      trade_no: o.gatewayNo,
      out_trade_no: tamper === 'trade_no' ? `${o.tradeNo}9` : o.tradeNo,
      type: o.payType || 'alipay',
      name: o.name ?? o.tradeNo,
      money: money(tamper === 'amount' ? o.cents - 1 : o.cents),
      trade_status: 'TRADE_SUCCESS',
    }
    p.sign = md5(sortedQuery(p) + (tamper === 'signature' ? 'wrong-key' : keys.epayKey))
    p.sign_type = 'MD5'
    return { url: `${o.notifyUrl}${o.notifyUrl.includes('?') ? '&' : '?'}${new URLSearchParams(p)}`, init: { method: 'GET' } }
  }

  function alipayNotify(o, tamper) {
    const p = {
      notify_time: new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' '),
      notify_type: 'trade_status_sync',
      notify_id: rid('n'),
      app_id: ids.alipayApp,
      seller_id: ids.alipaySeller,
      charset: 'utf-8',
      version: '1.0',
      trade_no: o.gatewayNo,
      out_trade_no: tamper === 'trade_no' ? `${o.tradeNo}9` : o.tradeNo,
      trade_status: 'TRADE_SUCCESS',
      total_amount: money(tamper === 'amount' ? o.cents - 1 : o.cents),
      receipt_amount: money(o.cents),
      subject: o.subject ?? '',
      ...(tamper === 'currency' ? { trans_currency: 'USD' } : {}),
    }
    p.sign = rsaSign(tamper === 'signature' ? keys.alipayApp.privateKey : keys.alipayPlatform.privateKey, sortedQuery(p))
    p.sign_type = 'RSA2'
    return { url: o.notifyUrl, init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: new URLSearchParams(p).toString() } }
  }

  function wxSigned(body, signer = keys.wxPlatform.privateKey) {
    const ts = String(Math.floor(Date.now() / 1000))
    const nonce = crypto.randomBytes(16).toString('hex')
    return {
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': rsaSign(signer, `${ts}\n${nonce}\n${body}\n`),
      'Wechatpay-Serial': ids.wxPlatformSerial,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    }
  }

  function wxTransaction(o, tamper) {
    return {
      appid: ids.wxApp,
      mchid: ids.wxMch,
      out_trade_no: tamper === 'trade_no' ? `${o.tradeNo}9` : o.tradeNo,
      transaction_id: o.gatewayNo,
      trade_type: 'NATIVE',
      trade_state: o.paid || tamper ? 'SUCCESS' : 'NOTPAY',
      trade_state_desc: o.paid ? '支付成功' : '未支付',
      success_time: new Date().toISOString(),
      payer: { openid: 'mock-openid' },
      amount: { total: tamper === 'amount' ? o.cents - 1 : o.cents, payer_total: o.cents, currency: tamper === 'currency' ? 'USD' : o.currency, payer_currency: 'CNY' },
    }
  }

  function wxpayNotify(o, tamper) {
    const nonce = crypto.randomBytes(6).toString('hex')
    const aad = 'transaction'
    const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(keys.wxApiV3Key), Buffer.from(nonce))
    cipher.setAAD(Buffer.from(aad))
    const enc = Buffer.concat([cipher.update(JSON.stringify(wxTransaction(o, tamper || 'none'))), cipher.final(), cipher.getAuthTag()])
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: enc.toString('base64'), associated_data: aad, nonce },
    })
    const headers = wxSigned(body, tamper === 'signature' ? keys.wxMerchant.privateKey : undefined)
    return { url: o.notifyUrl, init: { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body } }
  }

  function stripeSession(o, tamper) {
    return {
      id: o.id,
      object: 'checkout.session',
      mode: 'payment',
      client_reference_id: tamper === 'trade_no' ? `${o.tradeNo}9` : o.tradeNo,
      amount_total: tamper === 'amount' ? o.cents - 1 : o.cents,
      amount_subtotal: o.cents,
      currency: tamper === 'currency' ? (o.currency === 'usd' ? 'eur' : 'usd') : o.currency,
      payment_status: o.paid || tamper ? 'paid' : 'unpaid',
      status: o.paid ? 'complete' : 'open',
      payment_intent: o.paid || tamper ? o.gatewayNo : null,
      success_url: o.returnUrl,
      url: o.paid ? null : `${base}/stripe/checkout/${o.id}`,
      metadata: o.metadata ?? {},
    }
  }

  function stripeNotifies(o, tamper) {
    const body = JSON.stringify({
      id: rid('evt_'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type: 'checkout.session.completed',
      livemode: false,
      data: { object: stripeSession(o, tamper) },
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

  async function deliver(o, tamper, repeat = 1) {
    if (!tamper) o.paid = true
    const built = o.kind === 'stripe' ? stripeNotifies(o, tamper) : [{ epay: epayNotify, alipay: alipayNotify, wxpay: wxpayNotify }[o.kind](o, tamper)]
    const answers = []
    for (const n of built) {
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

  // ---- protocol handlers ----

  async function epay(req, res, url, raw) {
    if (url.pathname === '/epay/submit.php' || url.pathname === '/epay/mapi.php') {
      const p = Object.fromEntries(url.searchParams)
      if (req.method === 'POST') Object.assign(p, Object.fromEntries(new URLSearchParams(raw)))
      if (p.pid !== ids.epayPid) return send(res, 400, page('Epay mock', ['Unknown merchant (pid).'], '#', 'Close'))
      if (md5(sortedQuery(p) + keys.epayKey) !== p.sign) return send(res, 400, page('Epay mock', ['Signature check failed.'], '#', 'Close'))
      const o = {
        id: rid('ep'),
        kind: 'epay',
        tradeNo: p.out_trade_no,
        cents: cents(p.money),
        currency: 'CNY',
        notifyUrl: p.notify_url,
        returnUrl: p.return_url,
        name: p.name,
        payType: p.type,
        gatewayNo: `${Date.now()}${crypto.randomInt(1000, 9999)}`,
      }
      orders.set(o.id, o)
      return send(res, 200, page('Epay mock cashier', [`Order ${o.tradeNo}`, `Amount ¥${p.money}`, p.name], `/epay/pay/${o.id}`))
    }
    const m = /^\/epay\/pay\/(\w+)$/.exec(url.pathname)
    const o = m && orders.get(m[1])
    if (o && req.method === 'POST') {
      await deliver(o)
      const back = new URL(o.returnUrl)
      return send(res, 302, '', { location: back.href })
    }
    return send(res, 404, { error: 'not found' })
  }

  function alipayAnswer(method, payload) {
    const name = `${method.replace(/\./g, '_')}_response`
    const inner = JSON.stringify(payload)
    return `{"${name}":${inner},"sign":"${rsaSign(keys.alipayPlatform.privateKey, inner)}"}`
  }

  async function alipay(req, res, url, raw) {
    if (url.pathname === '/alipay/gateway.do') {
      const p = Object.fromEntries(url.searchParams)
      if (req.method === 'POST') Object.assign(p, Object.fromEntries(new URLSearchParams(raw)))
      const method = p.method ?? ''
      if (p.app_id !== ids.alipayApp || !rsaVerify(keys.alipayApp.publicKey, sortedQuery(p), p.sign)) {
        const fail = { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: 'signature check failed' }
        return send(res, 200, `{"${method.replace(/\./g, '_')}_response":${JSON.stringify(fail)}}`, { 'content-type': 'application/json' })
      }
      const biz = JSON.parse(p.biz_content ?? '{}')
      if (method === 'alipay.trade.query') {
        const o = findByTradeNo(biz.out_trade_no)
        const payload = o
          ? {
              code: '10000',
              msg: 'Success',
              out_trade_no: o.tradeNo,
              trade_no: o.gatewayNo,
              trade_status: o.paid ? 'TRADE_SUCCESS' : 'WAIT_BUYER_PAY',
              total_amount: money(o.cents),
            }
          : { code: '40004', msg: 'Business Failed', sub_code: 'ACQ.TRADE_NOT_EXIST', sub_msg: 'trade does not exist' }
        return send(res, 200, alipayAnswer(method, payload), { 'content-type': 'application/json' })
      }
      const o = {
        id: rid('al'),
        kind: 'alipay',
        tradeNo: biz.out_trade_no,
        cents: cents(biz.total_amount),
        currency: 'CNY',
        notifyUrl: p.notify_url,
        returnUrl: p.return_url,
        subject: biz.subject,
        gatewayNo: `2026${Date.now()}`,
      }
      orders.set(o.id, o)
      if (method === 'alipay.trade.precreate') {
        return send(res, 200, alipayAnswer(method, { code: '10000', msg: 'Success', out_trade_no: o.tradeNo, qr_code: `${base}/alipay/qr/${o.id}` }), {
          'content-type': 'application/json',
        })
      }
      return send(res, 200, page('Alipay mock cashier', [`Order ${o.tradeNo}`, `Amount ¥${biz.total_amount}`, biz.subject], `/alipay/pay/${o.id}`))
    }
    const qr = /^\/alipay\/qr\/(\w+)$/.exec(url.pathname)
    if (qr && orders.get(qr[1])) {
      const o = orders.get(qr[1])
      return send(res, 200, page('Alipay mock (scanned)', [`Order ${o.tradeNo}`, `Amount ¥${money(o.cents)}`], `/alipay/pay/${o.id}`))
    }
    const m = /^\/alipay\/pay\/(\w+)$/.exec(url.pathname)
    const o = m && orders.get(m[1])
    if (o && req.method === 'POST') {
      await deliver(o)
      return o.returnUrl ? send(res, 302, '', { location: o.returnUrl }) : send(res, 200, page('Alipay mock', ['Paid. You can close this page.'], '#', 'Close'))
    }
    return send(res, 404, { error: 'not found' })
  }

  async function wxpay(req, res, url, raw) {
    const signedPath = url.pathname.replace(/^\/wxpay/, '') + url.search
    if (url.pathname.startsWith('/wxpay/v3/')) {
      const auth = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(req.headers.authorization ?? '')
      const fields = Object.fromEntries([...(auth?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
      const message = `${req.method}\n${signedPath}\n${fields.timestamp}\n${fields.nonce_str}\n${raw}\n`
      if (fields.mchid !== ids.wxMch || fields.serial_no !== ids.wxSerial || !rsaVerify(keys.wxMerchant.publicKey, message, fields.signature)) {
        return send(res, 401, { code: 'SIGN_ERROR', message: '签名错误' })
      }
      if (url.pathname === '/wxpay/v3/pay/transactions/native' && req.method === 'POST') {
        const b = JSON.parse(raw)
        if (b.appid !== ids.wxApp || b.mchid !== ids.wxMch) return send(res, 400, { code: 'PARAM_ERROR', message: 'appid/mchid' })
        const o = {
          id: rid('wx'),
          kind: 'wxpay',
          tradeNo: b.out_trade_no,
          cents: b.amount.total,
          currency: b.amount.currency ?? 'CNY',
          notifyUrl: b.notify_url,
          subject: b.description,
          gatewayNo: `4200${Date.now()}`,
        }
        orders.set(o.id, o)
        const body = JSON.stringify({ code_url: `weixin://wxpay/bizpayurl?pr=${o.id}` })
        res.writeHead(200, { 'content-type': 'application/json', ...wxSigned(body) })
        return res.end(body)
      }
      const q = /^\/wxpay\/v3\/pay\/transactions\/out-trade-no\/(\w+)$/.exec(url.pathname)
      if (q) {
        const o = findByTradeNo(q[1])
        if (!o) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' })
        const body = JSON.stringify(wxTransaction(o))
        res.writeHead(200, { 'content-type': 'application/json', ...wxSigned(body) })
        return res.end(body)
      }
      return send(res, 404, { code: 'NOT_FOUND', message: 'no such API in the mock' })
    }
    const scan = /^\/wxpay\/scan\/(\w+)$/.exec(url.pathname)
    const o = scan && orders.get(scan[1])
    if (o && req.method === 'GET') return send(res, 200, page('WeChat Pay mock (scanned)', [`Order ${o.tradeNo}`, `Amount ¥${money(o.cents)}`], `/wxpay/scan/${o.id}`))
    if (o && req.method === 'POST') {
      await deliver(o)
      return send(res, 200, page('WeChat Pay mock', ['Paid. You can close this page.'], '#', 'Close'))
    }
    return send(res, 404, { error: 'not found' })
  }

  async function stripe(req, res, url, raw) {
    if (url.pathname.startsWith('/v1/')) {
      if ((req.headers.authorization ?? '') !== `Bearer ${keys.stripeSecret}`)
        return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
      const form = new URLSearchParams(raw)
      if (url.pathname === '/v1/webhook_endpoints' && req.method === 'GET')
        return send(res, 200, { object: 'list', url: '/v1/webhook_endpoints', has_more: false, data: [...webhooks.values()].map(({ secret, ...w }) => w) })
      if (url.pathname === '/v1/webhook_endpoints' && req.method === 'POST') {
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
        return send(res, 200, w)
      }
      const we = /^\/v1\/webhook_endpoints\/(\w+)$/.exec(url.pathname)
      if (we && req.method === 'DELETE') {
        webhooks.delete(we[1])
        return send(res, 200, { id: we[1], object: 'webhook_endpoint', deleted: true })
      }
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
        return send(res, 200, stripeSession(o))
      }
      const cs = /^\/v1\/checkout\/sessions\/(\w+)$/.exec(url.pathname)
      if (cs && orders.get(cs[1])) return send(res, 200, stripeSession(orders.get(cs[1])))
      return send(res, 404, { error: { type: 'invalid_request_error', message: `No such resource: ${url.pathname}` } })
    }
    const m = /^\/stripe\/checkout\/(\w+)$/.exec(url.pathname)
    const o = m && orders.get(m[1])
    if (o && req.method === 'GET')
      return send(res, 200, page('Stripe mock checkout', [o.subject, `Total ${money(o.cents)} ${o.currency.toUpperCase()}`], `/stripe/checkout/${o.id}`))
    if (o && req.method === 'POST') {
      await deliver(o)
      return send(res, 302, '', { location: o.returnUrl })
    }
    return send(res, 404, { error: 'not found' })
  }

  function configs() {
    return {
      stripe: { currency: 'USD', config: { secret_key: keys.stripeSecret, api_base: base } },
      alipay: {
        currency: 'CNY',
        config: {
          app_id: ids.alipayApp,
          private_key: keys.alipayApp.privatePem,
          public_key: bare(keys.alipayPlatform.publicPem),
          pay_type: 'pagepay',
          seller_id: ids.alipaySeller,
          gateway_url: `${base}/alipay/gateway.do`,
        },
      },
      wxpay: {
        currency: 'CNY',
        config: {
          app_id: ids.wxApp,
          mch_id: ids.wxMch,
          mch_certificate_serial_number: ids.wxSerial,
          mch_apiv3_key: keys.wxApiV3Key,
          mch_private_key: keys.wxMerchant.privatePem,
          platform_public_key: keys.wxPlatform.publicPem,
          platform_serial: ids.wxPlatformSerial,
          api_base: `${base}/wxpay`,
        },
      },
      epay: { currency: 'CNY', config: { pay_domain: `${base}/epay`, partner_id: ids.epayPid, key: keys.epayKey, pay_type: 'alipay' } },
    }
  }

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
      if (url.pathname.startsWith('/epay/')) return await epay(req, res, url, raw)
      if (url.pathname.startsWith('/alipay/')) return await alipay(req, res, url, raw)
      if (url.pathname.startsWith('/wxpay/')) return await wxpay(req, res, url, raw)
      if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/stripe/')) return await stripe(req, res, url, raw)
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
    webhooks,
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
