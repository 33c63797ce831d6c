/**
 * WeChat Pay API v3, Native (QR) payments.
 * - Requests carry `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=…,nonce_str=…,signature=…,
 *   timestamp=…,serial_no=…`, the signature being SHA256withRSA (merchant key) over
 *   `METHOD\npath?query\ntimestamp\nnonce\nbody\n`.
 * - A notify is verified with the WeChat Pay platform public key (or platform certificate) named by
 *   `Wechatpay-Serial`, over `timestamp\nnonce\nbody\n`, within 5 minutes; its resource is then
 *   decrypted with AES-256-GCM (APIv3 key) into the transaction, which must name our appid and
 *   mchid, be SUCCESS and carry amount.total (fen) and currency. Answers: 204 when handled, 4xx/5xx
 *   with `{"code":"FAIL","message":…}` otherwise (WeChat Pay then retries).
 * The config is read on every call: there is no process-wide client as in one-hub.
 */
import { z } from 'zod'
import { aesGcmDecrypt, base64ToBytes, isRsaPrivateKey, isRsaPublicKey, readCertificate, rsaSign, rsaVerify } from '../crypto'
import { randomString } from '../../../lib/crypto'
import { GatewayError, type Gateway } from '../types'

export const WXPAY_API = 'https://api.mch.weixin.qq.com'
const TOLERANCE_SECONDS = 300

const schema = z.object({
  app_id: z.string().trim().min(1, 'is required').max(64),
  mch_id: z.string().trim().min(1, 'is required').max(64),
  mch_certificate_serial_number: z.string().trim().min(1, 'is required').max(64),
  mch_apiv3_key: z.string().refine((k) => new TextEncoder().encode(k).length === 32, 'must be the 32-character APIv3 key'),
  mch_private_key: z.string().trim().min(1, 'is required').refine(isRsaPrivateKey, 'is not an RSA private key (apiclient_key.pem)'),
  platform_public_key: z.string().trim().min(1, 'is required').refine(isRsaPublicKey, 'is not a public key or certificate (WeChat Pay public key or platform certificate PEM)'),
  /** The public key id (PUB_KEY_ID_…) or the platform certificate serial; read from a certificate when empty. */
  platform_serial: z.string().trim().max(64).default(''),
  api_base: z.union([z.literal(''), z.url()]).default(''),
})
export type WxpayConfig = z.infer<typeof schema>

/** The serial the notify must name: the configured one, or the certificate's own. */
export function platformSerial(config: Pick<WxpayConfig, 'platform_public_key' | 'platform_serial'>): string {
  if (config.platform_serial) return config.platform_serial
  const m = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(config.platform_public_key)
  return m ? readCertificate(base64ToBytes(m[1]!)).serial : ''
}

/** The Authorization header of an API v3 request. */
export async function wxpayAuthorization(
  config: WxpayConfig,
  method: string,
  pathWithQuery: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
  nonce = randomString(32)
): Promise<string> {
  const signature = await rsaSign(config.mch_private_key, `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`)
  return `WECHATPAY2-SHA256-RSA2048 mchid="${config.mch_id}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${config.mch_certificate_serial_number}"`
}

async function call(config: WxpayConfig, method: 'GET' | 'POST', pathWithQuery: string, payload?: unknown): Promise<{ status: number; body: any }> {
  const body = payload === undefined ? '' : JSON.stringify(payload)
  const res = await fetch(`${(config.api_base || WXPAY_API).replace(/\/+$/, '')}${pathWithQuery}`, {
    method,
    headers: {
      Authorization: await wxpayAuthorization(config, method, pathWithQuery, body),
      Accept: 'application/json',
      ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
      'User-Agent': 'edge-ai-gateway',
    },
    body: payload === undefined ? undefined : body,
  })
  const text = await res.text()
  // Answers are signed like notifies; a success is trusted only with a valid signature.
  if (res.ok && !(await verifySignature(config, res.headers, text))) throw new GatewayError('WeChat Pay answer has no valid signature')
  let parsed: any = {}
  try {
    parsed = text ? JSON.parse(text) : {}
  } catch {
    throw new GatewayError(`WeChat Pay answered ${res.status} without JSON`)
  }
  return { status: res.status, body: parsed }
}

/** `Wechatpay-*` headers checked against the platform key, the serial and the clock. */
async function verifySignature(config: WxpayConfig, headers: Headers, body: string): Promise<boolean> {
  const timestamp = headers.get('Wechatpay-Timestamp') ?? ''
  const nonce = headers.get('Wechatpay-Nonce') ?? ''
  const signature = headers.get('Wechatpay-Signature') ?? ''
  const serial = headers.get('Wechatpay-Serial') ?? ''
  if (!timestamp || !nonce || !signature || signature.startsWith('WECHATPAY/SIGNTEST/')) return false
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false
  const expected = platformSerial(config)
  if (expected && serial !== expected) return false
  return rsaVerify(config.platform_public_key, `${timestamp}\n${nonce}\n${body}\n`, signature)
}

interface Transaction {
  appid?: string
  mchid?: string
  out_trade_no?: string
  transaction_id?: string
  trade_state?: string
  amount?: { total?: number; payer_total?: number; currency?: string; payer_currency?: string }
}

export const wxpay: Gateway<WxpayConfig> = {
  type: 'wxpay',
  currencies: ['CNY'],
  fields: [
    { key: 'app_id', kind: 'text', required: true },
    { key: 'mch_id', kind: 'text', required: true },
    { key: 'mch_certificate_serial_number', kind: 'text', required: true },
    { key: 'mch_apiv3_key', kind: 'text', required: true, secret: true },
    { key: 'mch_private_key', kind: 'textarea', required: true, secret: true },
    { key: 'platform_public_key', kind: 'textarea', required: true },
    { key: 'platform_serial', kind: 'text' },
    { key: 'api_base', kind: 'text', default: WXPAY_API, advanced: true, host: true },
  ],
  schema,

  async pay(config, input) {
    const { status, body } = await call(config, 'POST', '/v3/pay/transactions/native', {
      appid: config.app_id,
      mchid: config.mch_id,
      description: input.subject.slice(0, 127),
      out_trade_no: input.tradeNo,
      notify_url: input.notifyUrl,
      amount: { total: input.payCents, currency: input.currency },
    })
    if (status !== 200 || typeof body.code_url !== 'string') throw new GatewayError(`WeChat Pay refused the order: ${body.message || body.code || status}`, body)
    return { type: 'qr', data: { url: body.code_url } }
  },

  async parseNotify(config, req) {
    if (!(await verifySignature(config, req.headers, req.body))) return { kind: 'invalid', reason: 'bad or missing signature' }
    let event: { event_type?: string; resource?: { algorithm?: string; ciphertext?: string; associated_data?: string; nonce?: string } }
    try {
      event = JSON.parse(req.body)
    } catch {
      return { kind: 'invalid', reason: 'body is not JSON' }
    }
    const r = event.resource
    if (!r || r.algorithm !== 'AEAD_AES_256_GCM' || !r.ciphertext || !r.nonce) return { kind: 'invalid', reason: 'no encrypted resource' }
    const plain = await aesGcmDecrypt(config.mch_apiv3_key, r.nonce, r.ciphertext, r.associated_data ?? '')
    if (plain === undefined) return { kind: 'invalid', reason: 'resource does not decrypt with the APIv3 key' }
    let tx: Transaction
    try {
      tx = JSON.parse(plain)
    } catch {
      return { kind: 'invalid', reason: 'resource is not JSON' }
    }
    const tradeNo = tx.out_trade_no
    if (tx.appid !== config.app_id || tx.mchid !== config.mch_id) return { kind: 'invalid', reason: `appid/mchid ${tx.appid}/${tx.mchid} are not ours`, tradeNo }
    if (event.event_type !== 'TRANSACTION.SUCCESS' || tx.trade_state !== 'SUCCESS') return { kind: 'ignored', reason: `${event.event_type} ${tx.trade_state}`, tradeNo }
    const total = tx.amount?.total
    if (!tradeNo || !Number.isSafeInteger(total)) return { kind: 'invalid', reason: 'no out_trade_no or amount.total', tradeNo }
    return { kind: 'paid', tradeNo, gatewayNo: tx.transaction_id || tradeNo, amountCents: total!, currency: tx.amount?.currency ?? '' }
  },

  ack(kind, message) {
    if (kind === 'ok') return new Response(null, { status: 204 })
    return Response.json({ code: 'FAIL', message: message ?? (kind === 'retry' ? 'Temporarily unable to process' : 'Refused') }, { status: kind === 'retry' ? 500 : 400 })
  },

  async query(config, order) {
    const { status, body } = await call(config, 'GET', `/v3/pay/transactions/out-trade-no/${encodeURIComponent(order.tradeNo)}?mchid=${encodeURIComponent(config.mch_id)}`)
    if (status !== 200) return { paid: false }
    const tx = body as Transaction
    if (tx.appid !== config.app_id || tx.mchid !== config.mch_id) return { paid: false }
    return { paid: tx.trade_state === 'SUCCESS', gatewayNo: tx.transaction_id, amountCents: tx.amount?.total, currency: tx.amount?.currency }
  },
}
