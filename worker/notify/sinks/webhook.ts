/**
 * `webhook`: a JSON POST of `{"event","at","severity","text","data"}`. With a secret, the header
 * `X-Signature` carries the lower-case hex HMAC-SHA256 of the exact body bytes keyed by the secret,
 * so the receiver can check the notice came from this gateway.
 */
import { toHex } from '../../lib/crypto'
import { hmacSha256, httpSink } from './http'
import { WEBHOOK_SIGNATURE_HEADER } from '../../../shared/contract/notify'

export const SIGNATURE_HEADER = WEBHOOK_SIGNATURE_HEADER

export const webhookSink = httpSink('webhook', async (target, n) => {
  const body = JSON.stringify({ event: n.event, at: n.at, severity: n.severity, text: n.text, data: n.data })
  const headers: Record<string, string> = target.secret ? { [SIGNATURE_HEADER]: toHex(await hmacSha256(target.secret, body)) } : {}
  return { url: target.url, headers, body }
})
