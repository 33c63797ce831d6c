/**
 * The Telegram bot against the fetch-level Bot API mock: webhook secret check, reload
 * (getMe, setMyCommands, setWebhook), each command for bound and unbound chats, binding with the
 * profile's one-time code, /recharge crediting exactly once, balance in both display modes, custom
 * menus served only after a reload, admin menu CRUD, and polling through the Durable Object alarm.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callbackUpdate, feed, MOCK_BOT_TOKEN, textUpdate } from '../../scripts/mock-telegram-api.mjs'
import { setOptions } from '../test/factories'
import { setupRoot, signedInUser, TestClient } from '../test/client'
import type { TelegramPoller } from './poller.do'
import { mockTelegram, TG_BASE } from '../test/telegram-bot-mock'

const SECRET = 'test-secret_0123456789'
const ALICE_TG = 5001
const BOB_TG = 5002
let tg: ReturnType<typeof mockTelegram>

beforeEach(() => {
  tg = mockTelegram()
})
afterEach(() => tg.restore())

const enable = (extra: Record<string, string> = {}) =>
  setOptions({ TelegramBotEnabled: 'true', TelegramBotToken: MOCK_BOT_TOKEN, TelegramWebhookSecret: SECRET, TelegramApiBase: TG_BASE, TelegramMode: 'webhook', ...extra })

function post(update: Record<string, unknown>, secret: string | null = SECRET) {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (secret !== null) headers['X-Telegram-Bot-Api-Secret-Token'] = secret
  return exports.default.fetch(new Request('http://gateway.test/api/telegram/webhook', { method: 'POST', headers, body: JSON.stringify(update) }))
}

let nextUpdate = 1
/** An update from a user delivered to the webhook; returns the texts the bot sent back to that chat. */
async function deliver(fromId: number, update: Record<string, unknown>) {
  const before = tg.sent(fromId).length
  const res = await post({ update_id: nextUpdate++, ...update })
  expect(res.status).toBe(200)
  return tg
    .sent(fromId)
    .slice(before)
    .map((m) => m.text as string)
}
const say = (fromId: number, text: string) => deliver(fromId, textUpdate(tg.state, fromId, text))
const press = (fromId: number, data: string) => deliver(fromId, callbackUpdate(tg.state, fromId, data))
/** The callback data of the confirmation button last sent to `chatId`. */
const confirmButton = (chatId: number) => tg.sent(chatId).at(-1)!.reply_markup.inline_keyboard[0][0].callback_data as string

async function readyBot() {
  const root = await setupRoot()
  await enable()
  expect((await root.put('/api/option/telegram/reload')).status).toBe(200)
  return root
}

async function boundAlice() {
  const root = await readyBot()
  const alice = await signedInUser('alice')
  const code = (await alice.client.post('/api/user/telegram/code')).body.data.code as string
  expect(await say(ALICE_TG, `/bind ${code}`)).toEqual([expect.stringContaining('Bound to <b>alice</b>')])
  return { root, alice }
}

describe('telegram webhook', () => {
  it('answers 404 while disabled and 401 to a wrong or missing secret token, doing nothing', async () => {
    await setupRoot()
    expect((await post({ update_id: 1, ...textUpdate(tg.state, ALICE_TG, '/start') })).status).toBe(404)
    await enable()
    for (const secret of [null, '', 'wrong-secret', SECRET + 'x']) {
      const res = await post({ update_id: 2, ...textUpdate(tg.state, ALICE_TG, '/start') }, secret)
      expect(res.status).toBe(401)
      expect(((await res.json()) as { success: boolean }).success).toBe(false)
    }
    expect(tg.state.calls).toEqual([])
    const ok = await post({ update_id: 3, ...textUpdate(tg.state, ALICE_TG, '/start') })
    expect(ok.status).toBe(200)
    expect(tg.sent(ALICE_TG)).toHaveLength(1)
  })

  it('reload needs the bot switched on, then sets commands and the webhook with a generated secret', async () => {
    const root = await setupRoot()
    expect((await root.put('/api/option/telegram/reload')).status).toBe(400)
    const refused = await root.put('/api/option/', { key: 'TelegramBotEnabled', value: 'true' })
    expect(refused.status).toBe(400)
    await enable({ TelegramWebhookSecret: '' })
    const res = await root.put('/api/option/telegram/reload')
    expect(res.body.data).toMatchObject({ bot_username: 'gateway_mock_bot', mode: 'webhook', menus: 0 })
    expect(tg.state.webhook.url).toBe('http://gateway.test/api/telegram/webhook')
    expect(tg.state.webhook.secret_token).toMatch(/^[A-Za-z0-9]{48}$/)
    expect(tg.calls('setMyCommands')[0]!.params.commands.map((c: { command: string }) => c.command)).toEqual([
      'start',
      'help',
      'bind',
      'unbind',
      'balance',
      'recharge',
      'apikey',
      'aff',
    ])
    expect((await root.get('/api/status')).body.data.telegram_bot).toBe('gateway_mock_bot')
    // The generated secret stays write-only and is the one the webhook accepts.
    const listed = (await root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'TelegramWebhookSecret')
    expect(listed).toMatchObject({ value: '', configured: true })
    expect((await post({ update_id: 9, ...textUpdate(tg.state, ALICE_TG, '/help') }, tg.state.webhook.secret_token)).status).toBe(200)
    const status = (await root.get('/api/option/telegram/status')).body.data
    expect(status).toMatchObject({ enabled: true, mode: 'webhook', bot_username: 'gateway_mock_bot', webhook: { url: 'http://gateway.test/api/telegram/webhook' } })
    expect(status.last_update_time).toBeGreaterThan(0)
  })
})

describe('telegram commands', () => {
  it('gives unbound chats only /start, /help and /bind', async () => {
    await readyBot()
    const [welcome] = await say(BOB_TG, '/start')
    expect(welcome).toContain('/bind')
    expect(welcome).not.toContain('/balance')
    for (const cmd of ['/balance', '/recharge abc', '/apikey', '/aff', '/unbind']) expect((await say(BOB_TG, cmd))[0]).toContain('not bound')
    expect((await say(BOB_TG, '/bind nope'))[0]).toContain('invalid or has expired')
    expect((await say(BOB_TG, '/bind'))[0]).toContain('code shown on your profile page')
  })

  it('binds with the one-time profile code (the /start deep link after a confirmation) and unbinds', async () => {
    const { alice } = await boundAlice()
    expect((await alice.client.get('/api/user/telegram')).body.data).toMatchObject({ enabled: true, bot_username: 'gateway_mock_bot', telegram_id: ALICE_TG })
    expect((await say(ALICE_TG, '/help'))[0]).toContain('/balance')
    // A second Telegram account cannot take a bound account, and codes are single-use.
    const bob = await signedInUser('bob')
    const issued = (await bob.client.post('/api/user/telegram/code')).body.data
    expect(issued.link).toBe(`https://t.me/gateway_mock_bot?start=${issued.code}`)
    expect((await say(ALICE_TG, `/bind ${issued.code}`))[0]).toContain('already bound to another gateway account')
    const again = (await alice.client.post('/api/user/telegram/code')).body.data.code as string
    expect((await say(ALICE_TG, `/bind ${again}`))[0]).toBe('This chat is already bound to that account.')
    expect((await say(BOB_TG, `/start ${issued.code}`))[0]).toContain('Bind this chat to <b>bob</b>?')
    expect(await press(BOB_TG, confirmButton(BOB_TG))).toEqual([expect.stringContaining('Bound to <b>bob</b>')])
    expect((await say(7777, `/bind ${issued.code}`))[0]).toContain('invalid or has expired')
    expect((await say(ALICE_TG, '/unbind'))[0]).toContain('Unbound')
    expect((await say(ALICE_TG, '/balance'))[0]).toContain('not bound')
    expect((await bob.client.delete('/api/user/telegram')).status).toBe(200)
    expect((await bob.client.get('/api/user/telegram')).body.data.telegram_id).toBe(0)
  })

  it('a /start deep link binds nothing until the same Telegram user presses the button (security finding 16)', async () => {
    await readyBot()
    const mallory = await signedInUser('mallory')
    const issued = (await mallory.client.post('/api/user/telegram/code')).body.data as { code: string; link: string }
    // The victim taps Mallory's link: the bot only asks, naming the account.
    const [question] = await say(ALICE_TG, `/start ${issued.code}`)
    expect(question).toContain('Bind this chat to <b>mallory</b>?')
    expect(question).not.toContain(issued.code)
    const button = tg.sent(ALICE_TG).at(-1)!.reply_markup.inline_keyboard[0][0]
    expect(button.text).toBe('Bind to mallory')
    expect(button.callback_data).toMatch(/^bind:[A-Za-z0-9]{16}$/)
    expect(button.callback_data).not.toContain(issued.code)
    const telegramOf = async () => (await mallory.client.get('/api/user/telegram')).body.data.telegram_id
    expect(await telegramOf()).toBe(0)
    expect((await say(ALICE_TG, '/balance'))[0]).toContain('not bound')
    // Another Telegram user pressing the same button binds nothing.
    expect(await press(BOB_TG, button.callback_data)).toEqual([expect.stringContaining('invalid or has expired')])
    expect(await telegramOf()).toBe(0)
    // The asked user's press binds; the button is spent with the code.
    expect(await press(ALICE_TG, button.callback_data)).toEqual([expect.stringContaining('Bound to <b>mallory</b>')])
    expect(await telegramOf()).toBe(ALICE_TG)
    expect(await press(ALICE_TG, button.callback_data)).toEqual([expect.stringContaining('invalid or has expired')])
    // An invalid or expired code is not asked about.
    expect(await say(BOB_TG, '/start nope')).toEqual([expect.stringContaining('invalid or has expired')])
    expect(tg.sent(BOB_TG).at(-1)!.reply_markup).toBeUndefined()
  })

  it('shows the balance in dollars or units per the display setting and QuotaPerUnit', async () => {
    const { root, alice } = await boundAlice()
    expect((await root.post(`/api/user/quota/${alice.id}`, { quota: 1_234_567, remark: 'test' })).status).toBe(200)
    await setOptions({ QuotaPerUnit: '1000000', DisplayInCurrencyEnabled: 'true' })
    expect((await say(ALICE_TG, '/balance'))[0]).toContain('Balance: <b>$1.23</b>')
    await setOptions({ DisplayInCurrencyEnabled: 'false' })
    expect((await say(ALICE_TG, '/balance'))[0]).toContain('Balance: <b>1,234,567 units</b>')
  })

  it('/recharge credits a code exactly once through the wallet; a replayed update does nothing', async () => {
    const { root, alice } = await boundAlice()
    const [code] = (await root.post('/api/redemption/', { name: 'tg', quota: 500000, count: 1 })).body.data
    const update = { update_id: nextUpdate++, ...textUpdate(tg.state, ALICE_TG, `/recharge ${code}`) }
    expect((await post(update)).status).toBe(200)
    expect(tg.sent(ALICE_TG).at(-1)!.text).toContain('Redeemed $1.00. Balance: <b>$1.00</b>')
    const sentBefore = tg.sent(ALICE_TG).length
    expect((await post(update)).status).toBe(200)
    expect(tg.sent(ALICE_TG)).toHaveLength(sentBefore)
    expect((await say(ALICE_TG, `/recharge ${code}`))[0]).toContain('Invalid or already used redemption code')
    expect((await alice.client.get('/api/user/self')).body.data.quota).toBe(500000)
    const logs = await env.DB.prepare('SELECT COUNT(*) AS n, SUM(quota) AS q FROM logs WHERE user_id = ? AND type = 1').bind(alice.id).first<{ n: number; q: number }>()
    expect(logs).toEqual({ n: 1, q: 500000 })
  })

  it('/apikey lists masked keys and reveals one on its button (logged); /aff shows the invitation', async () => {
    const { alice } = await boundAlice()
    const token = (await alice.client.post('/api/token/', { name: 'laptop', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).body.data as { id: number; key: string }
    const [list] = await say(ALICE_TG, '/apikey')
    expect(list).toContain('<b>laptop</b>')
    expect(list).not.toContain(token.key.slice(3))
    const keyboard = tg.sent(ALICE_TG).at(-1)!.reply_markup
    expect(keyboard.inline_keyboard[0][0]).toEqual({ text: 'Reveal laptop', callback_data: `key:${token.id}` })
    expect((await post({ update_id: nextUpdate++, ...callbackUpdate(tg.state, ALICE_TG, `key:${token.id}`) })).status).toBe(200)
    expect(tg.sent(ALICE_TG).at(-1)!.text).toContain(`<code>${token.key}</code>`)
    expect(tg.calls('answerCallbackQuery')).toHaveLength(1)
    const reveal = await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND content LIKE '%revealed the key%'").bind(alice.id).first<{ n: number }>()
    expect(reveal!.n).toBe(1)
    // Another user's token id reveals nothing.
    const bob = await signedInUser('bob')
    const other = (await bob.client.post('/api/token/', { name: 'bobs', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).body.data as { id: number; key: string }
    await post({ update_id: nextUpdate++, ...callbackUpdate(tg.state, ALICE_TG, `key:${other.id}`) })
    expect(tg.sent(ALICE_TG).at(-1)!.text).toBe('Token not found')
    expect((await say(ALICE_TG, '/aff'))[0]).toContain('Invited: 0')
  })
})

describe('telegram menus', () => {
  it('validates menus, keeps them admin-only, and serves them only after a reload', async () => {
    const { root } = await boundAlice()
    const user = (await signedInUser('plain')).client
    const menu = { command: 'faq', description: 'Questions', parse_mode: 'HTML', reply_message: '<b>Read the docs</b>' }
    expect((await user.post('/api/option/telegram/', menu)).status).toBe(403)
    expect((await new TestClient().get('/api/option/telegram/')).status).toBe(401)
    const bad = await root.post('/api/option/telegram/', { command: 'Bad-Cmd', description: '', parse_mode: 'Text', reply_message: '' })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields).sort()).toEqual(['command', 'description', 'parse_mode', 'reply_message'])
    expect((await root.post('/api/option/telegram/', { ...menu, command: 'balance' })).status).toBe(400)
    const created = await root.post('/api/option/telegram/', menu)
    expect(created.status).toBe(200)
    expect((await root.post('/api/option/telegram/', menu)).status).toBe(409)

    expect(await say(ALICE_TG, '/faq')).toEqual(['Unknown command. Send /help for the list.'])
    expect((await root.put('/api/option/telegram/reload')).body.data.menus).toBe(1)
    expect(await say(ALICE_TG, '/faq')).toEqual(['<b>Read the docs</b>'])
    expect(tg.sent(ALICE_TG).at(-1)!.parse_mode).toBe('HTML')
    expect(tg.calls('setMyCommands').at(-1)!.params.commands.at(-1)).toEqual({ command: 'faq', description: 'Questions' })
    expect((await say(BOB_TG, '/faq'))[0]).toContain('not bound')

    const id = created.body.data.id as number
    expect((await root.put('/api/option/telegram/', { ...menu, id, reply_message: 'plain text', parse_mode: 'plain' })).status).toBe(200)
    expect((await root.get(`/api/option/telegram/${id}`)).body.data).toMatchObject({ reply_message: 'plain text', parse_mode: 'plain' })
    expect(await say(ALICE_TG, '/faq')).toEqual(['<b>Read the docs</b>'])
    const list = (await root.get('/api/option/telegram/?keyword=fa')).body.data
    expect(list).toMatchObject({ total_count: 1, page: 1 })
    expect((await root.delete(`/api/option/telegram/${id}`)).status).toBe(200)
    expect((await root.delete(`/api/option/telegram/${id}`)).status).toBe(404)
    await root.put('/api/option/telegram/reload')
    expect(await say(ALICE_TG, '/faq')).toEqual(['Unknown command. Send /help for the list.'])
  })
})

describe('telegram polling', () => {
  it('deletes the webhook and long-polls getUpdates from the stored offset in the alarm', async () => {
    const root = await setupRoot()
    await enable({ TelegramMode: 'polling' })
    tg.state.webhook.url = 'https://stale.example/hook'
    expect((await root.put('/api/option/telegram/reload')).body.data.mode).toBe('polling')
    expect(tg.state.webhook.url).toBe('')
    const poller = env.TELEGRAM_POLLER.getByName('telegram')
    const status = () => runInDurableObject(poller, (instance: TelegramPoller) => instance.status())
    // The alarm also fires by itself; running it from the test only makes it come sooner.
    const pollUntil = async (done: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 50 && !(await done()); i++) await runDurableObjectAlarm(poller)
      expect(await done()).toBe(true)
    }
    feed(tg.state, textUpdate(tg.state, ALICE_TG, '/start'))
    feed(tg.state, textUpdate(tg.state, ALICE_TG, '/help'))
    await pollUntil(async () => tg.sent(ALICE_TG).length === 2 && (await status()).offset === 1002)
    expect(tg.calls('getUpdates')[0]!.params).toMatchObject({ offset: 0, limit: 100, timeout: 25 })
    expect(await status()).toMatchObject({ running: true, lastError: '' })
    // Later polls confirm the offset and handle nothing twice.
    await pollUntil(() => tg.calls('getUpdates').some((c) => c.params.offset === 1002))
    await runDurableObjectAlarm(poller)
    expect(tg.sent(ALICE_TG)).toHaveLength(2)
    expect((await root.get('/api/option/telegram/status')).body.data.polling).toMatchObject({ running: true, offset: 1002, last_error: '' })
    // Switching back to webhook stops the poller at its next alarm.
    await setOptions({ TelegramMode: 'webhook' })
    await pollUntil(async () => !(await status()).running)
  })
})
