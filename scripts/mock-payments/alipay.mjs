/**
 * The Alipay mock at /alipay/gateway.do: the app's RSA2 signature is checked with the app's public
 * key; precreate answers a signed qr_code, page.pay/wap.pay show a cashier page; paying POSTs the
 * notify form signed with the Alipay key; trade.query answers signed.
 */
import { cents, formParams, money, orderFromPath, page, rid, rsaPair, rsaSign, rsaVerify, send, sortedQuery, tamperedTradeNo, bare } from './shared.mjs'

/** `store`: {orders, findByTradeNo, deliver, base()} from scripts/mock-payments.mjs. */
export function alipayGateway({ orders, findByTradeNo, deliver, base }) {
  const appId = '2021000000000001'
  const sellerId = '2088000000000001'
  const appKeys = rsaPair()
  const platformKeys = rsaPair()
  const json = { 'content-type': 'application/json' }

  function notifies(o, tamper) {
    const p = {
      notify_time: new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' '),
      notify_type: 'trade_status_sync',
      notify_id: rid('n'),
      app_id: appId,
      seller_id: sellerId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: o.gatewayNo,
      out_trade_no: tamperedTradeNo(o, tamper),
      trade_status: 'TRADE_SUCCESS',
      total_amount: money(tamper === 'amount' ? o.cents - 1 : o.cents),
      receipt_amount: money(o.cents),
      subject: o.subject ?? '',
      ...(tamper === 'currency' ? { trans_currency: 'USD' } : {}),
    }
    p.sign = rsaSign(tamper === 'signature' ? appKeys.privateKey : platformKeys.privateKey, sortedQuery(p))
    p.sign_type = 'RSA2'
    return [
      { url: o.notifyUrl, init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: new URLSearchParams(p).toString() } },
    ]
  }

  function answer(method, payload) {
    const name = `${method.replace(/\./g, '_')}_response`
    const inner = JSON.stringify(payload)
    return `{"${name}":${inner},"sign":"${rsaSign(platformKeys.privateKey, inner)}"}`
  }

  function tradeQuery(res, method, biz) {
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
    return send(res, 200, answer(method, payload), json)
  }

  function gatewayDo(req, res, url, raw) {
    const p = formParams(req, url, raw)
    const method = p.method ?? ''
    if (p.app_id !== appId || !rsaVerify(appKeys.publicKey, sortedQuery(p), p.sign)) {
      const fail = { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-signature', sub_msg: 'signature check failed' }
      return send(res, 200, `{"${method.replace(/\./g, '_')}_response":${JSON.stringify(fail)}}`, json)
    }
    const biz = JSON.parse(p.biz_content ?? '{}')
    if (method === 'alipay.trade.query') return tradeQuery(res, method, biz)
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
      return send(res, 200, answer(method, { code: '10000', msg: 'Success', out_trade_no: o.tradeNo, qr_code: `${base()}/alipay/qr/${o.id}` }), json)
    }
    return send(res, 200, page('Alipay mock cashier', [`Order ${o.tradeNo}`, `Amount ¥${biz.total_amount}`, biz.subject], `/alipay/pay/${o.id}`))
  }

  async function handle(req, res, url, raw) {
    if (url.pathname === '/alipay/gateway.do') return gatewayDo(req, res, url, raw)
    const scanned = orderFromPath(/^\/alipay\/qr\/(\w+)$/, url, orders)
    if (scanned) return send(res, 200, page('Alipay mock (scanned)', [`Order ${scanned.tradeNo}`, `Amount ¥${money(scanned.cents)}`], `/alipay/pay/${scanned.id}`))
    const o = orderFromPath(/^\/alipay\/pay\/(\w+)$/, url, orders)
    if (o && req.method === 'POST') {
      await deliver(o)
      return o.returnUrl ? send(res, 302, '', { location: o.returnUrl }) : send(res, 200, page('Alipay mock', ['Paid. You can close this page.'], '#', 'Close'))
    }
    return send(res, 404, { error: 'not found' })
  }

  const preset = () => ({
    currency: 'CNY',
    config: {
      app_id: appId,
      private_key: appKeys.privatePem,
      public_key: bare(platformKeys.publicPem),
      pay_type: 'pagepay',
      seller_id: sellerId,
      gateway_url: `${base()}/alipay/gateway.do`,
    },
  })

  return { kind: 'alipay', prefixes: ['/alipay/'], handle, notifies, preset }
}
