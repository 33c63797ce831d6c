/**
 * Tencent Cloud TC3-HMAC-SHA256 signing for Hunyuan: canonical request over content-type, host and
 * x-tc-action, scope `<date>/hunyuan/tc3_request`, key chain "TC3"+SecretKey → date → service → tc3_request.
 */

const enc = new TextEncoder()
const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('')
const sha256Hex = async (s: string) => hex(await crypto.subtle.digest('SHA-256', enc.encode(s)))

async function hmac(key: ArrayBuffer | Uint8Array, data: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return crypto.subtle.sign('HMAC', k, enc.encode(data))
}

export const TC3_CONTENT_TYPE = 'application/json; charset=utf-8'

export interface Tc3Input {
  secretId: string
  secretKey: string
  host: string
  action: string
  body: string
  /** Unix seconds. */
  timestamp: number
  service?: string
}

/** The Authorization header value. */
export async function tc3Authorization(i: Tc3Input): Promise<string> {
  const service = i.service ?? 'hunyuan'
  const date = new Date(i.timestamp * 1000).toISOString().slice(0, 10)
  const signedHeaders = 'content-type;host;x-tc-action'
  const canonical = ['POST', '/', '', `content-type:${TC3_CONTENT_TYPE}\nhost:${i.host}\nx-tc-action:${i.action.toLowerCase()}\n`, signedHeaders, await sha256Hex(i.body)].join(
    '\n'
  )
  const scope = `${date}/${service}/tc3_request`
  const toSign = ['TC3-HMAC-SHA256', String(i.timestamp), scope, await sha256Hex(canonical)].join('\n')
  let key = await hmac(enc.encode(`TC3${i.secretKey}`), date)
  key = await hmac(key, service)
  key = await hmac(key, 'tc3_request')
  const signature = hex(await hmac(key, toSign))
  return `TC3-HMAC-SHA256 Credential=${i.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`
}
