/**
 * The WeChat Pay v3 mock at /wxpay/v3/…: the WECHATPAY2-SHA256-RSA2048 Authorization is checked
 * with the merchant key; Native orders answer a signed code_url; "scanning" (/wxpay/scan/:id) POSTs
 * the notify with the resource AES-256-GCM encrypted under the APIv3 key and signed with the
 * platform key (public-key mode, serial PUB_KEY_ID_MOCK); the order query answers signed.
 */
import crypto from 'node:crypto'
import { money, orderFromPath, page, rid, rsaPair, rsaSign, rsaVerify, send, tamperedTradeNo } from './shared.mjs'

/** `store`: {orders, findByTradeNo, deliver, base()} from scripts/mock-payments.mjs. */
export function wxpayGateway({ orders, findByTradeNo, deliver, base }) {
  const ids = { app: 'wxmock0001', mch: '1900000001', serial: 'MOCKMERCHANTSERIAL', platformSerial: 'PUB_KEY_ID_MOCK' }
  const merchantKeys = rsaPair()
  const platformKeys = rsaPair()
  const apiV3Key = crypto.randomBytes(16).toString('hex')

  function signedHeaders(body, signer = platformKeys.privateKey) {
    const ts = String(Math.floor(Date.now() / 1000))
    const nonce = crypto.randomBytes(16).toString('hex')
    return {
      'Wechatpay-Timestamp': ts,
      'Wechatpay-Nonce': nonce,
      'Wechatpay-Signature': rsaSign(signer, `${ts}\n${nonce}\n${body}\n`),
      'Wechatpay-Serial': ids.platformSerial,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    }
  }

  function sendSigned(res, payload) {
    const body = JSON.stringify(payload)
    res.writeHead(200, { 'content-type': 'application/json', ...signedHeaders(body) })
    return res.end(body)
  }

  function transaction(o, tamper) {
    return {
      appid: ids.app,
      mchid: ids.mch,
      out_trade_no: tamperedTradeNo(o, tamper),
      transaction_id: o.gatewayNo,
      trade_type: 'NATIVE',
      trade_state: o.paid || tamper ? 'SUCCESS' : 'NOTPAY',
      trade_state_desc: o.paid ? '支付成功' : '未支付',
      success_time: new Date().toISOString(),
      payer: { openid: 'mock-openid' },
      amount: { total: tamper === 'amount' ? o.cents - 1 : o.cents, payer_total: o.cents, currency: tamper === 'currency' ? 'USD' : o.currency, payer_currency: 'CNY' },
    }
  }

  function notifies(o, tamper) {
    const nonce = crypto.randomBytes(6).toString('hex')
    const aad = 'transaction'
    const cipher = crypto.createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce))
    cipher.setAAD(Buffer.from(aad))
    const enc = Buffer.concat([cipher.update(JSON.stringify(transaction(o, tamper || 'none'))), cipher.final(), cipher.getAuthTag()])
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: 'encrypt-resource',
      event_type: 'TRANSACTION.SUCCESS',
      summary: '支付成功',
      resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext: enc.toString('base64'), associated_data: aad, nonce },
    })
    const headers = signedHeaders(body, tamper === 'signature' ? merchantKeys.privateKey : undefined)
    return [{ url: o.notifyUrl, init: { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body } }]
  }

  function api(req, res, url, raw) {
    const signedPath = url.pathname.replace(/^\/wxpay/, '') + url.search
    const auth = /^WECHATPAY2-SHA256-RSA2048 (.*)$/.exec(req.headers.authorization ?? '')
    const fields = Object.fromEntries([...(auth?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
    const message = `${req.method}\n${signedPath}\n${fields.timestamp}\n${fields.nonce_str}\n${raw}\n`
    if (fields.mchid !== ids.mch || fields.serial_no !== ids.serial || !rsaVerify(merchantKeys.publicKey, message, fields.signature)) {
      return send(res, 401, { code: 'SIGN_ERROR', message: '签名错误' })
    }
    if (url.pathname === '/wxpay/v3/pay/transactions/native' && req.method === 'POST') {
      const b = JSON.parse(raw)
      if (b.appid !== ids.app || b.mchid !== ids.mch) return send(res, 400, { code: 'PARAM_ERROR', message: 'appid/mchid' })
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
      return sendSigned(res, { code_url: `weixin://wxpay/bizpayurl?pr=${o.id}` })
    }
    const q = /^\/wxpay\/v3\/pay\/transactions\/out-trade-no\/(\w+)$/.exec(url.pathname)
    if (q) {
      const o = findByTradeNo(q[1])
      if (!o) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' })
      return sendSigned(res, transaction(o))
    }
    return send(res, 404, { code: 'NOT_FOUND', message: 'no such API in the mock' })
  }

  async function handle(req, res, url, raw) {
    if (url.pathname.startsWith('/wxpay/v3/')) return api(req, res, url, raw)
    const o = orderFromPath(/^\/wxpay\/scan\/(\w+)$/, url, orders)
    if (o && req.method === 'GET') return send(res, 200, page('WeChat Pay mock (scanned)', [`Order ${o.tradeNo}`, `Amount ¥${money(o.cents)}`], `/wxpay/scan/${o.id}`))
    if (o && req.method === 'POST') {
      await deliver(o)
      return send(res, 200, page('WeChat Pay mock', ['Paid. You can close this page.'], '#', 'Close'))
    }
    return send(res, 404, { error: 'not found' })
  }

  const preset = () => ({
    currency: 'CNY',
    config: {
      app_id: ids.app,
      mch_id: ids.mch,
      mch_certificate_serial_number: ids.serial,
      mch_apiv3_key: apiV3Key,
      mch_private_key: merchantKeys.privatePem,
      platform_public_key: platformKeys.publicPem,
      platform_serial: ids.platformSerial,
      api_base: `${base()}/wxpay`,
    },
  })

  return { kind: 'wxpay', prefixes: ['/wxpay/'], handle, notifies, preset }
}
