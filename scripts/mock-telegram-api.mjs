/**
 * The Telegram Bot API as the gateway uses it, in memory and without I/O: getMe, setWebhook,
 * deleteWebhook, getWebhookInfo, getUpdates (offset confirms, 409 while a webhook is set),
 * setMyCommands, getMyCommands, sendMessage, editMessageText, answerCallbackQuery. Every call is
 * recorded; tests feed updates with `feed`. Served over HTTP by scripts/mock-telegram.mjs and at
 * fetch level in worker tests (worker/test/telegram-bot-mock.ts).
 */

export const MOCK_BOT_TOKEN = '123456:mock-telegram-token'

export function createBotApiState(token = MOCK_BOT_TOKEN, username = 'gateway_mock_bot') {
  return {
    token,
    me: {
      id: Number(token.split(':')[0]) || 123456,
      is_bot: true,
      first_name: 'Gateway Mock Bot',
      username,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    },
    /** @type {{ method: string, params: Record<string, any> }[]} */
    calls: [],
    /** @type {any[]} */
    updates: [],
    webhook: { url: '', secret_token: '', last_error_date: 0, last_error_message: '' },
    commands: [],
    nextUpdateId: 1000,
    nextMessageId: 1,
  }
}

const ok = (result, description) => ({ status: 200, body: description ? { ok: true, result, description } : { ok: true, result } })
const fail = (status, description) => ({ status, body: { ok: false, error_code: status, description } })
const now = () => Math.floor(Date.now() / 1000)
const user = (id) => ({ id, is_bot: false, first_name: `User ${id}`, username: `user${id}`, language_code: 'en' })
const privateChat = (id) => ({ id, type: 'private', first_name: `User ${id}`, username: `user${id}` })

/** Queue an update (its update_id is assigned here) and return it. */
export function feed(state, update) {
  const full = { update_id: state.nextUpdateId++, ...update }
  state.updates.push(full)
  return full
}

/** A private text message from Telegram user `fromId`, with the bot_command entity Telegram adds. */
export function textUpdate(state, fromId, text) {
  const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text)
  const message = { message_id: state.nextMessageId++, date: now(), chat: privateChat(fromId), from: user(fromId), text }
  if (command) message.entities = [{ type: 'bot_command', offset: 0, length: command[0].length }]
  return { message }
}

/** A press on an inline button with `data` under a bot message in `fromId`'s private chat. */
export function callbackUpdate(state, fromId, data) {
  const message = { message_id: state.nextMessageId++, date: now(), chat: privateChat(fromId), from: state.me, text: 'keyboard' }
  return { callback_query: { id: String(state.nextMessageId++), from: user(fromId), chat_instance: `ci${fromId}`, message, data } }
}

/** Messages the bot sent (optionally to one chat), oldest first. */
export const sentMessages = (state, chatId) =>
  state.calls.filter((c) => c.method === 'sendMessage' && (chatId === undefined || Number(c.params.chat_id) === chatId)).map((c) => c.params)

/** Answer one Bot API call: `pathname` is `/bot<token>/<method>`, `params` the decoded body. */
export function handleBotApi(state, pathname, params = {}) {
  const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(pathname)
  if (!m) return fail(404, 'Not Found')
  if (decodeURIComponent(m[1]) !== state.token) return fail(401, 'Unauthorized')
  const method = m[2]
  state.calls.push({ method, params })
  switch (method) {
    case 'getMe':
      return ok(state.me)
    case 'setWebhook':
      if (!/^https?:\/\//.test(params.url ?? '')) return fail(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook')
      state.webhook = { ...state.webhook, url: params.url, secret_token: params.secret_token ?? '' }
      return ok(true, 'Webhook was set')
    case 'deleteWebhook':
      state.webhook = { ...state.webhook, url: '', secret_token: '' }
      if (params.drop_pending_updates) state.updates = []
      return ok(true, 'Webhook was deleted')
    case 'getWebhookInfo': {
      const info = { url: state.webhook.url, has_custom_certificate: false, pending_update_count: state.updates.length }
      if (state.webhook.last_error_date) Object.assign(info, { last_error_date: state.webhook.last_error_date, last_error_message: state.webhook.last_error_message })
      return ok(info)
    }
    case 'getUpdates': {
      if (state.webhook.url) return fail(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
      const offset = Number(params.offset ?? 0)
      if (offset > 0) state.updates = state.updates.filter((u) => u.update_id >= offset)
      const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100)))
      return ok(state.updates.slice(0, limit))
    }
    case 'setMyCommands':
      state.commands = params.commands ?? []
      return ok(true)
    case 'getMyCommands':
      return ok(state.commands)
    case 'sendMessage':
      if (!params.chat_id || !params.text) return fail(400, 'Bad Request: message text is empty')
      return ok({ message_id: state.nextMessageId++, date: now(), chat: privateChat(Number(params.chat_id)), from: state.me, text: params.text })
    case 'editMessageText':
      return ok({ message_id: Number(params.message_id) || state.nextMessageId++, date: now(), chat: privateChat(Number(params.chat_id)), from: state.me, text: params.text })
    case 'answerCallbackQuery':
      return ok(true)
    default:
      return fail(404, 'Not Found: method not found')
  }
}
