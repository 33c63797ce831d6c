/**
 * The Epay (易支付) mock: /epay/submit.php (and mapi.php) checks the partner id and the MD5
 * signature and shows a cashier page; paying calls the notify URL with a signed GET, then returns
 * to return_url.
 */
import crypto from 'node:crypto'
import { cents, formParams, md5, money, orderFromPath, page, rid, send, sortedQuery, tamperedTradeNo } from './shared.mjs'

/** `store`: {orders, deliver, base()} from scripts/mock-payments.mjs. */
export function epayGateway({ orders, deliver, base }) {
  const pid = '1001'
  const key = crypto.randomBytes(12).toString('hex')

  function notifies(o, tamper) {
    const p = {
      pid,
      trade_no: o.gatewayNo,
      out_trade_no: tamperedTradeNo(o, tamper),
      type: o.payType || 'alipay',
      name: o.name ?? o.tradeNo,
      money: money(tamper === 'amount' ? o.cents - 1 : o.cents),
      trade_status: 'TRADE_SUCCESS',
    }
    p.sign = md5(sortedQuery(p) + (tamper === 'signature' ? 'wrong-key' : key))
    p.sign_type = 'MD5'
    return [{ url: `${o.notifyUrl}${o.notifyUrl.includes('?') ? '&' : '?'}${new URLSearchParams(p)}`, init: { method: 'GET' } }]
  }

  async function handle(req, res, url, raw) {
    if (url.pathname === '/epay/submit.php' || url.pathname === '/epay/mapi.php') {
      const p = formParams(req, url, raw)
      if (p.pid !== pid) return send(res, 400, page('Epay mock', ['Unknown merchant (pid).'], '#', 'Close'))
      if (md5(sortedQuery(p) + key) !== p.sign) return send(res, 400, page('Epay mock', ['Signature check failed.'], '#', 'Close'))
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
    const o = orderFromPath(/^\/epay\/pay\/(\w+)$/, url, orders)
    if (o && req.method === 'POST') {
      await deliver(o)
      const back = new URL(o.returnUrl)
      return send(res, 302, '', { location: back.href })
    }
    return send(res, 404, { error: 'not found' })
  }

  const preset = () => ({ currency: 'CNY', config: { pay_domain: `${base()}/epay`, partner_id: pid, key, pay_type: 'alipay' } })

  return { kind: 'epay', prefixes: ['/epay/'], handle, notifies, preset }
}
