/**
 * `telegram`: the gateway's own bot (settings TelegramBotToken, TelegramApiBase — the bot of
 * worker/telegram/) sends the notice as plain text to `config.chat_id` (an admin's chat or a group)
 * through the Bot API's sendMessage. Fails while no bot token is set.
 */
import { getSettings } from '../../settings/store'
import type { NotifySink } from '../types'
import { post, plainText } from './http'

export const telegramSink: NotifySink = {
  type: 'telegram',
  usesUrl: false,
  requiredConfig: ['chat_id'],
  async send(env, target, n) {
    const s = await getSettings(env)
    const token = s.str('TelegramBotToken')
    if (!token) return { ok: false, httpStatus: 0, error: 'the Telegram bot has no token (Settings → Telegram)' }
    const base = s.str('TelegramApiBase').replace(/\/+$/, '') || 'https://api.telegram.org'
    const out = await post({ url: `${base}/bot${token}/sendMessage`, headers: {}, body: JSON.stringify({ chat_id: target.config.chat_id, text: plainText(n).slice(0, 4000) }) })
    // The token is part of the URL: never let it into the recorded error.
    return { ...out, error: out.error.split(token).join('[redacted]') }
  },
}
