/** `slack`: a Slack incoming webhook — `text` as the fallback plus a section block in mrkdwn. */
import { headline } from '../types'
import { httpSink, plainText } from './http'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export const slackSink = httpSink('slack', async (target, n) => {
  const fields = Object.entries(n.data).map(([k, v]) => `*${esc(k)}*: ${esc(typeof v === 'string' ? v : JSON.stringify(v))}`)
  const body = {
    text: plainText(n),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: headline(n) } },
      { type: 'section', text: { type: 'mrkdwn', text: [esc(n.text), ...fields].join('\n') } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: n.at }] },
    ],
  }
  return { url: target.url, headers: {}, body: JSON.stringify(body) }
})
