/**
 * Epay (易支付, the "彩虹易支付" protocol): a POSTed form to `{pay_domain}/submit.php`, signed with
 * MD5 over the sorted non-empty params plus the merchant key; the notify (a GET, sometimes a POST
 * form) is verified the same way, must name our partner id and `TRADE_SUCCESS`, and carries the
 * paid `money`. Epay sends no currency: the money is in the gateway's configured currency. The
 * gateway expects the plain text `success`.
 */
import { z } from 'zod'
import { centsToDecimal, decimalToCents } from '../../../../shared/contract/payment-amount'
import { md5Hex, sortedQuery } from '../crypto'
import type { Gateway, NotifyRequest } from '../types'
import { safeEqual } from '../../../lib/crypto'

export const EPAY_PAY_TYPES = ['', 'alipay', 'wxpay', 'qqpay', 'bank', 'jdpay', 'paypal', 'usdt'] as const

const schema = z.object({
  pay_domain: z.url('must be a URL (https://pay.example.com)'),
  partner_id: z.string().trim().min(1, 'is required').max(64),
  key: z.string().min(1, 'is required').max(256),
  pay_type: z.enum(EPAY_PAY_TYPES).default(''),
})
export type EpayConfig = z.infer<typeof schema>

/** MD5 of the sorted params (sign and sign_type left out) with the key appended. */
export function epaySign(params: Record<string, string | undefined>, key: string): Promise<string> {
  return md5Hex(sortedQuery(params) + key)
}

/** Query params and, for a POSTed form, its fields (the form wins). */
export function notifyParams(req: NotifyRequest): Record<string, string> {
  const params: Record<string, string> = Object.fromEntries(req.url.searchParams)
  if (req.method === 'POST' && (req.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(req.body)) params[k] = v
  }
  return params
}

export const epay: Gateway<EpayConfig> = {
  type: 'epay',
  currencies: ['CNY', 'USD'],
  fields: [
    { key: 'pay_domain', kind: 'text', required: true, default: 'https://pay.example.com', host: true },
    { key: 'partner_id', kind: 'text', required: true },
    { key: 'key', kind: 'text', required: true, secret: true },
    { key: 'pay_type', kind: 'select', options: [...EPAY_PAY_TYPES] },
  ],
  schema,

  async pay(config, input) {
    const params: Record<string, string> = {
      type: config.pay_type,
      pid: config.partner_id,
      out_trade_no: input.tradeNo,
      notify_url: input.notifyUrl,
      return_url: input.returnUrl,
      name: input.subject,
      money: centsToDecimal(input.payCents),
    }
    if (!params.type) delete params.type
    params.sign = await epaySign(params, config.key)
    params.sign_type = 'MD5'
    return { type: 'redirect', data: { url: `${config.pay_domain.replace(/\/+$/, '')}/submit.php`, method: 'POST', params } }
  },

  async parseNotify(config, req) {
    const p = notifyParams(req)
    const tradeNo = p.out_trade_no
    if (!p.sign) return { kind: 'invalid', reason: 'no signature', tradeNo }
    if (!safeEqual((await epaySign(p, config.key)).toLowerCase(), p.sign.toLowerCase())) return { kind: 'invalid', reason: 'bad signature', tradeNo }
    if (p.pid !== config.partner_id) return { kind: 'invalid', reason: `partner id ${p.pid} is not ours`, tradeNo }
    if (p.trade_status !== 'TRADE_SUCCESS') return { kind: 'ignored', reason: `trade_status ${p.trade_status}`, tradeNo }
    const amountCents = decimalToCents(p.money ?? '')
    if (!tradeNo || amountCents === undefined) return { kind: 'invalid', reason: 'no out_trade_no or money', tradeNo }
    return { kind: 'paid', tradeNo, gatewayNo: p.trade_no || tradeNo, amountCents, currency: '' }
  },

  ack(kind) {
    return new Response(kind === 'ok' ? 'success' : 'fail', { status: kind === 'retry' ? 500 : 200, headers: { 'content-type': 'text/plain' } })
  },
}
