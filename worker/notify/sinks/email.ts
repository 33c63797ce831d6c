/** `email`: the notice by the configured SMTP mailer (worker/mail/) to `config.address`. */
import { sendMail } from '../../mail/mailer'
import { headline, type NotifySink } from '../types'
import { plainText } from './http'

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export const emailSink: NotifySink = {
  type: 'email',
  usesUrl: false,
  requiredConfig: ['address'],
  async send(env, target, n) {
    const text = plainText(n)
    try {
      await sendMail(env, { to: target.config.address!, subject: `${headline(n)}: ${n.text}`.slice(0, 200), text, html: `<pre>${esc(text)}</pre>` })
      return { ok: true, httpStatus: 0, error: '' }
    } catch (err) {
      return { ok: false, httpStatus: 0, error: err instanceof Error ? err.message : String(err) }
    }
  },
}
