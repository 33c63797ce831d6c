/**
 * Alipay Open Platform with RSA2 (SHA256withRSA over the sorted `k=v&…` params, Web Crypto).
 * - facepay (当面付, default): server-side `alipay.trade.precreate`; its `qr_code` becomes a QR.
 * - pagepay / wappay: a signed GET link to the cashier (`alipay.trade.page.pay` / `wap.pay`).
 * The notify (a POSTed form) is verified with the Alipay public key (sign and sign_type left out,
 * values decoded), must name our app_id (and seller_id when configured) and TRADE_SUCCESS or
 * TRADE_FINISHED; `total_amount` is the paid yuan. Alipay expects the plain text `success`.
 * The config is read on every call: there is no process-wide client as in one-hub.
 */
import { z } from 'zod'
import { centsToDecimal, decimalToCents } from '../../../../shared/contract/payment-amount'
import { isRsaPrivateKey, isRsaPublicKey, rsaSign, rsaVerify, sortedQuery } from '../crypto'
import { GatewayError, type Gateway } from '../types'

export const ALIPAY_GATEWAY = 'https://openapi.alipay.com/gateway.do'
export const ALIPAY_PAY_TYPES = ['facepay', 'pagepay', 'wappay'] as const

const schema = z.object({
  app_id: z.string().trim().min(1, 'is required').max(64),
  private_key: z.string().trim().min(1, 'is required').refine(isRsaPrivateKey, 'is not an RSA private key (PKCS#8 or PKCS#1, PEM or base64)'),
  public_key: z.string().trim().min(1, 'is required').refine(isRsaPublicKey, 'is not an RSA public key (the Alipay public key, PEM or base64)'),
  pay_type: z.enum(ALIPAY_PAY_TYPES).default('facepay'),
  seller_id: z.string().trim().max(64).default(''),
  gateway_url: z.union([z.literal(''), z.url()]).default(''),
})
export type AlipayConfig = z.infer<typeof schema>

/** "yyyy-MM-dd HH:mm:ss" in China time, as Alipay wants its timestamp. */
export function chinaTime(ms = Date.now()): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
}

/** The common params of a call, signed. */
export async function alipaySignedParams(config: AlipayConfig, method: string, biz: Record<string, unknown>, extra: Record<string, string>): Promise<Record<string, string>> {
  const params: Record<string, string> = {
    app_id: config.app_id,
    method,
    format: 'JSON',
    charset: 'utf-8',
    sign_type: 'RSA2',
    timestamp: chinaTime(),
    version: '1.0',
    ...extra,
    biz_content: JSON.stringify(biz),
  }
  for (const k of Object.keys(params)) if (params[k] === '') delete params[k]
  params.sign = await rsaSign(config.private_key, sortedQuery(params))
  return params
}

/** Verify a notify's form fields with the Alipay public key. */
export function alipayVerify(publicKey: string, fields: Record<string, string>): Promise<boolean> {
  if (!fields.sign) return Promise.resolve(false)
  return rsaVerify(publicKey, sortedQuery(fields), fields.sign)
}

/**
 * The raw JSON text of `{name}` in an Alipay answer (`{"<name>":{…},"sign":"…"}`): Alipay signs
 * exactly those bytes, so it is cut out by bracket matching rather than re-serialised.
 */
export function rawResponseValue(text: string, name: string): string | undefined {
  const at = text.indexOf(`"${name}"`)
  if (at < 0) return undefined
  const start = text.indexOf('{', at + name.length + 2)
  if (start < 0) return undefined
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const ch = text[i]
    if (inString) {
      if (ch === '\\') i++
      else if (ch === '"') inString = false
    } else if (ch === '"') inString = true
    else if (ch === '{') depth++
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return undefined
}

/** Call the Open API and return its verified `{method}_response` object. */
async function callApi<T>(config: AlipayConfig, method: string, biz: Record<string, unknown>, extra: Record<string, string>): Promise<T> {
  const params = await alipaySignedParams(config, method, biz, extra)
  const res = await fetch(config.gateway_url || ALIPAY_GATEWAY, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8' },
    body: new URLSearchParams(params),
  })
  const text = await res.text()
  const name = `${method.replace(/\./g, '_')}_response`
  const raw = rawResponseValue(text, name)
  let sign: string | undefined
  try {
    sign = (JSON.parse(text) as { sign?: string }).sign
  } catch {
    throw new GatewayError(`Alipay answered ${res.status} without JSON`)
  }
  if (!raw) throw new GatewayError(`Alipay answered ${res.status} without ${name}`)
  const r = JSON.parse(raw) as T & { code?: string; msg?: string; sub_msg?: string }
  // Error answers may come unsigned; a success is trusted only with a valid signature.
  if (r.code === '10000' && !(sign && (await rsaVerify(config.public_key, raw, sign)))) throw new GatewayError('Alipay answer has no valid signature')
  return r
}

export const alipay: Gateway<AlipayConfig> = {
  type: 'alipay',
  currencies: ['CNY'],
  fields: [
    { key: 'app_id', kind: 'text', required: true },
    { key: 'private_key', kind: 'textarea', required: true, secret: true },
    { key: 'public_key', kind: 'textarea', required: true },
    { key: 'pay_type', kind: 'select', options: [...ALIPAY_PAY_TYPES], default: 'facepay' },
    { key: 'seller_id', kind: 'text' },
    { key: 'gateway_url', kind: 'text', default: ALIPAY_GATEWAY, advanced: true, host: true },
  ],
  schema,

  async pay(config, input) {
    const total = centsToDecimal(input.payCents)
    const biz: Record<string, unknown> = { out_trade_no: input.tradeNo, total_amount: total, subject: input.subject, timeout_express: '15m' }
    if (config.pay_type === 'facepay') {
      const r = await callApi<{ code?: string; msg?: string; sub_msg?: string; qr_code?: string }>(config, 'alipay.trade.precreate', biz, { notify_url: input.notifyUrl })
      if (r.code !== '10000' || !r.qr_code) throw new GatewayError(`Alipay refused the order: ${r.sub_msg || r.msg || r.code}`, r)
      return { type: 'qr', data: { url: r.qr_code } }
    }
    const page = config.pay_type === 'pagepay'
    const params = await alipaySignedParams(
      config,
      page ? 'alipay.trade.page.pay' : 'alipay.trade.wap.pay',
      { ...biz, product_code: page ? 'FAST_INSTANT_TRADE_PAY' : 'QUICK_WAP_WAY' },
      { notify_url: input.notifyUrl, return_url: input.returnUrl }
    )
    return { type: 'redirect', data: { url: config.gateway_url || ALIPAY_GATEWAY, method: 'GET', params } }
  },

  async parseNotify(config, req) {
    const fields: Record<string, string> = Object.fromEntries(req.url.searchParams)
    for (const [k, v] of new URLSearchParams(req.body)) fields[k] = v
    const tradeNo = fields.out_trade_no
    if (!(await alipayVerify(config.public_key, fields))) return { kind: 'invalid', reason: fields.sign ? 'bad signature' : 'no signature', tradeNo }
    if (fields.app_id !== config.app_id) return { kind: 'invalid', reason: `app_id ${fields.app_id} is not ours`, tradeNo }
    if (config.seller_id && fields.seller_id !== config.seller_id) return { kind: 'invalid', reason: `seller_id ${fields.seller_id} is not ours`, tradeNo }
    if (fields.trade_status !== 'TRADE_SUCCESS' && fields.trade_status !== 'TRADE_FINISHED') return { kind: 'ignored', reason: `trade_status ${fields.trade_status}`, tradeNo }
    const amountCents = decimalToCents(fields.total_amount ?? '')
    if (!tradeNo || amountCents === undefined) return { kind: 'invalid', reason: 'no out_trade_no or total_amount', tradeNo }
    // Cross-border merchants get the pricing currency; domestic notifies are always yuan.
    return { kind: 'paid', tradeNo, gatewayNo: fields.trade_no || tradeNo, amountCents, currency: fields.trans_currency || 'CNY' }
  },

  ack(kind) {
    return new Response(kind === 'ok' ? 'success' : 'failure', { status: kind === 'retry' ? 500 : 200, headers: { 'content-type': 'text/plain' } })
  },

  async query(config, order) {
    const r = await callApi<{ code?: string; trade_status?: string; trade_no?: string; total_amount?: string }>(config, 'alipay.trade.query', { out_trade_no: order.tradeNo }, {})
    if (r.code !== '10000') return { paid: false }
    const paid = r.trade_status === 'TRADE_SUCCESS' || r.trade_status === 'TRADE_FINISHED'
    return { paid, gatewayNo: r.trade_no, amountCents: decimalToCents(r.total_amount ?? ''), currency: 'CNY' }
  },
}
