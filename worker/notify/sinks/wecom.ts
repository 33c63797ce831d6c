/** `wecom`: a WeCom (企业微信) group robot webhook (`…/cgi-bin/webhook/send?key=…`), markdown message. */
import { headline } from '../types'
import { httpSink } from './http'

export const wecomSink = httpSink(
  'wecom',
  async (target, n) => {
    const lines = Object.entries(n.data).map(([k, v]) => `> ${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    const content = [`**${headline(n)}**`, n.text, ...lines, `<font color="comment">${n.at}</font>`].join('\n')
    return { url: target.url, headers: {}, body: JSON.stringify({ msgtype: 'markdown', markdown: { content } }) }
  },
  { urlQuery: true }
)
