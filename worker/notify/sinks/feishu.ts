/**
 * `feishu` / `lark`: a custom bot's incoming webhook, `{"msg_type":"text","content":{"text"}}`.
 * With a secret the body also carries `timestamp` (seconds) and `sign`: base64 of the HMAC-SHA256
 * keyed by "<timestamp>\n<secret>" over an empty message (the platform's documented scheme).
 */
import { base64, hmacSha256, httpSink, plainText } from './http'

async function feishuSign(secret: string, timestampSeconds: number): Promise<string> {
  return base64(await hmacSha256(`${timestampSeconds}\n${secret}`, ''))
}

const build = (type: string) =>
  httpSink(type, async (target, n) => {
    const body: Record<string, unknown> = { msg_type: 'text', content: { text: plainText(n) } }
    if (target.secret) {
      const timestamp = Math.floor(Date.now() / 1000)
      body.timestamp = String(timestamp)
      body.sign = await feishuSign(target.secret, timestamp)
    }
    return { url: target.url, headers: {}, body: JSON.stringify(body) }
  })

export const feishuSink = build('feishu')
export const larkSink = build('lark')
