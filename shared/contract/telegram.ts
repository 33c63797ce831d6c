/** Wire shapes of the Telegram bot administration (GET /api/option/telegram/, /status): menus and the bot's state. */

/** How a menu's reply is formatted; `plain` sends it without a parse mode. */
export const PARSE_MODES = ['MarkdownV2', 'Markdown', 'HTML', 'plain'] as const
export type ParseMode = (typeof PARSE_MODES)[number]

export interface TelegramMenu {
  id: number
  command: string
  description: string
  parse_mode: ParseMode
  reply_message: string
}

/** What the last reload applied, and the live webhook or poller state when the bot is on. */
export interface TelegramStatus {
  enabled: boolean
  configured: boolean
  mode: 'webhook' | 'polling'
  bot_username: string
  applied_at: number
  applied_mode: string
  menus_applied: number
  last_update_time: number
  webhook?: { url: string; pending_update_count: number; last_error_date: number; last_error_message: string }
  polling?: { running: boolean; offset: number; last_poll_time: number; last_error: string }
  error: string
}

/** Body of POST /api/option/telegram/ (PUT adds `id`). */
export type MenuBody = Omit<TelegramMenu, 'id'>

/** Answer of POST /api/user/telegram/code: a one-time code for `/bind <code>`. */
export interface TelegramBindCode {
  code: string
  /** Seconds the code stays valid. */
  expires_in: number
  bot_username: string
  /** `https://t.me/<bot>?start=<code>`: opens the bot and binds on Start. */
  link: string
}
