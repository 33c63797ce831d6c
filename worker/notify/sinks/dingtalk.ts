/**
 * `dingtalk`: a DingTalk robot webhook (`…/robot/send?access_token=…`), `{"msgtype":"text","text":{"content"}}`.
 * With a secret ("SEC…") the URL gains `timestamp` (ms) and `sign`: base64 of the HMAC-SHA256 keyed
 * by the secret over "<timestamp>\n<secret>", URL-encoded.
 */
import { base64, hmacSha256, httpSink, plainText } from './http'

async function dingtalkSign(secret: string, timestampMs: number): Promise<string> {
  return base64(await hmacSha256(secret, `${timestampMs}\n${secret}`))
}

export const dingtalkSink = httpSink(
  'dingtalk',
  async (target, n) => {
    const url = new URL(target.url)
    if (target.secret) {
      const timestamp = Date.now()
      url.searchParams.set('timestamp', String(timestamp))
      url.searchParams.set('sign', await dingtalkSign(target.secret, timestamp))
    }
    return { url: url.toString(), headers: {}, body: JSON.stringify({ msgtype: 'text', text: { content: plainText(n) } }) }
  },
  { urlQuery: true }
)
