/**
 * Test helpers that play the gateways' side in worker tests: notifies signed (and for WeChat Pay
 * encrypted) exactly as each real gateway sends them, with the fixed test keys of
 * payment-test-keys.ts. scripts/mock-payments.mjs does the same from Node for the e2e tests.
 */
import { exports } from 'cloudflare:workers'
import { bytesToBase64, md5Hex, rsaSign, sortedQuery } from '../payments/gateways/crypto'
import { PLATFORM_CERT_SERIAL, PLATFORM_KEY_PKCS8 } from './payment-test-keys'

const enc = new TextEncoder()

export interface BuiltNotify {
  method: string
  query?: string
  headers: Record<string, string>
  body?: string
}

export async function epayNotify(key: string, fields: Record<string, string>, opts: { tamper?: Record<string, string> } = {}): Promise<BuiltNotify> {
  const params: Record<string, string> = { trade_status: 'TRADE_SUCCESS', type: 'alipay', name: fields.out_trade_no ?? '', ...fields }
  params.sign = await md5Hex(sortedQuery(params) + key)
  params.sign_type = 'MD5'
  Object.assign(params, opts.tamper)
  return { method: 'GET', query: new URLSearchParams(params).toString(), headers: {} }
}

export async function alipayNotify(fields: Record<string, string>, opts: { tamper?: Record<string, string>; key?: string } = {}): Promise<BuiltNotify> {
  const params: Record<string, string> = {
    notify_time: '2026-01-02 03:04:05',
    notify_type: 'trade_status_sync',
    notify_id: crypto.randomUUID(),
    charset: 'utf-8',
    version: '1.0',
    trade_status: 'TRADE_SUCCESS',
    ...fields,
  }
  params.sign = await rsaSign(opts.key ?? PLATFORM_KEY_PKCS8, sortedQuery(params))
  params.sign_type = 'RSA2'
  Object.assign(params, opts.tamper)
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body: new URLSearchParams(params).toString() }
}

export interface WxTransaction {
  appid: string
  mchid: string
  out_trade_no: string
  transaction_id?: string
  trade_state?: string
  amount: { total: number; currency: string; payer_total?: number; payer_currency?: string }
}

export async function wxpayNotify(
  apiV3Key: string,
  tx: WxTransaction,
  opts: { eventType?: string; timestamp?: number; serial?: string; key?: string; tamperBody?: (body: string) => string } = {}
): Promise<BuiltNotify> {
  const nonce = 'abcdefghijkl'
  const aad = 'transaction'
  const k = await crypto.subtle.importKey('raw', enc.encode(apiV3Key), 'AES-GCM', false, ['encrypt'])
  const plain = JSON.stringify({ trade_state: 'SUCCESS', transaction_id: `42000${Date.now()}`, trade_type: 'NATIVE', ...tx })
  const ciphertext = bytesToBase64(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: enc.encode(nonce), additionalData: enc.encode(aad) }, k, enc.encode(plain)))
  let body = JSON.stringify({
    id: crypto.randomUUID(),
    create_time: new Date().toISOString(),
    resource_type: 'encrypt-resource',
    event_type: opts.eventType ?? 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: { original_type: 'transaction', algorithm: 'AEAD_AES_256_GCM', ciphertext, associated_data: aad, nonce },
  })
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000))
  const sigNonce = crypto.randomUUID().replace(/-/g, '')
  const signature = await rsaSign(opts.key ?? PLATFORM_KEY_PKCS8, `${timestamp}\n${sigNonce}\n${body}\n`)
  if (opts.tamperBody) body = opts.tamperBody(body)
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'Wechatpay-Timestamp': timestamp,
      'Wechatpay-Nonce': sigNonce,
      'Wechatpay-Signature': signature,
      'Wechatpay-Serial': opts.serial ?? PLATFORM_CERT_SERIAL,
      'Wechatpay-Signature-Type': 'WECHATPAY2-SHA256-RSA2048',
    },
    body,
  }
}

export interface StripeSessionFields {
  client_reference_id: string
  amount_total: number
  currency: string
  payment_status?: string
  payment_intent?: string
}

export async function stripeNotify(
  secret: string,
  session: StripeSessionFields,
  opts: { type?: string; timestamp?: number; tamperBody?: (b: string) => string } = {}
): Promise<BuiltNotify> {
  const object = { id: `cs_test_${crypto.randomUUID().replace(/-/g, '')}`, object: 'checkout.session', payment_status: 'paid', payment_intent: `pi_${Date.now()}`, ...session }
  return stripeEvent(secret, opts.type ?? 'checkout.session.completed', object, opts)
}

/** Any Stripe event (`invoice.paid`, `customer.subscription.deleted`, …) about `object`, signed with `secret`. */
export async function stripeEvent(
  secret: string,
  type: string,
  object: Record<string, unknown>,
  opts: { timestamp?: number; tamperBody?: (b: string) => string } = {}
): Promise<BuiltNotify> {
  let body = JSON.stringify({ id: `evt_${crypto.randomUUID().replace(/-/g, '')}`, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } })
  const t = opts.timestamp ?? Math.floor(Date.now() / 1000)
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const v1 = [...new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(`${t}.${body}`)))].map((b) => b.toString(16).padStart(2, '0')).join('')
  if (opts.tamperBody) body = opts.tamperBody(body)
  return { method: 'POST', headers: { 'content-type': 'application/json', 'Stripe-Signature': `t=${t},v1=${v1}` }, body }
}

/** A NotifyRequest for calling a gateway's parseNotify directly. */
export function toNotifyRequest(n: BuiltNotify, base = 'https://gateway.test/api/payment/notify/x') {
  return { method: n.method, url: new URL(n.query ? `${base}?${n.query}` : base), headers: new Headers(n.headers), body: n.body ?? '' }
}

/** Delivers a built notify to the gateway `uuid`'s notify route of the worker under test. */
export async function sendNotify(uuid: string, n: BuiltNotify): Promise<{ status: number; text: string }> {
  const res = await exports.default.fetch(
    new Request(`http://gateway.test/api/payment/notify/${uuid}${n.query ? `?${n.query}` : ''}`, { method: n.method, headers: n.headers, body: n.body })
  )
  return { status: res.status, text: await res.text() }
}
