/**
 * Notices to the bound Telegram chat: only for users who switched them on (PUT /api/user/telegram),
 * only while the bot is on; the low-balance reminder fires once per crossing; payment and task
 * notices carry the amount, balance or outcome.
 */
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MOCK_BOT_TOKEN } from '../../scripts/mock-telegram-api.mjs'
import { remindLowQuota } from '../mail/quota-reminder'
import { setOptions } from '../test/factories'
import { setupRoot, signedInUser } from '../test/client'
import { mockTelegram, TG_BASE } from '../test/telegram-bot-mock'
import { notifyPayment, notifyTaskFinished } from './notify'

const CHAT = 6001
let tg: ReturnType<typeof mockTelegram>
beforeEach(() => {
  tg = mockTelegram()
})
afterEach(() => tg.restore())

async function boundUser(notify: boolean) {
  await setupRoot()
  await setOptions({
    TelegramBotEnabled: 'true',
    TelegramBotToken: MOCK_BOT_TOKEN,
    TelegramApiBase: TG_BASE,
    QuotaRemindThreshold: '100000',
    DisplayInCurrencyEnabled: 'true',
    QuotaPerUnit: '500000',
  })
  const user = await signedInUser('notified')
  await env.DB.prepare('UPDATE users SET telegram_id = ? WHERE id = ?').bind(CHAT, user.id).run()
  expect((await user.client.put('/api/user/telegram', { notify })).status).toBe(200)
  return user
}

describe('telegram notices', () => {
  it('is a per-user switch, validated, shown by GET /api/user/telegram', async () => {
    const user = await boundUser(true)
    expect((await user.client.get('/api/user/telegram')).body.data).toMatchObject({ telegram_id: CHAT, notify: true })
    expect((await user.client.put('/api/user/telegram', { notify: 'yes' })).status).toBe(400)
    expect((await user.client.put('/api/user/telegram', { notify: false })).body.data).toEqual({ notify: false })
    expect((await user.client.get('/api/user/telegram')).body.data.notify).toBe(false)
  })

  it('sends the low-balance reminder once per crossing, only to opted-in users while the bot is on', async () => {
    const user = await boundUser(true)
    expect(await remindLowQuota(env, { userId: user.id, before: 200000, after: 150000 })).toBeNull()
    expect(tg.sent(CHAT)).toHaveLength(0)
    await remindLowQuota(env, { userId: user.id, before: 150000, after: 50000 })
    expect(tg.sent(CHAT).map((m) => m.text)).toEqual(['Your balance is low: <b>$0.10</b>. Top up with /recharge or in the console.'])
    await remindLowQuota(env, { userId: user.id, before: 120000, after: 40000 })
    expect(tg.sent(CHAT)).toHaveLength(1)
    await remindLowQuota(env, { userId: user.id, before: 40000, after: 0 })
    expect(tg.sent(CHAT).at(-1)!.text).toContain('Your balance is used up ($0.00)')

    await user.client.put('/api/user/telegram', { notify: false })
    expect(await notifyPayment(env, user.id, '10.00 USD', 'Stripe', 5_000_000)).toBe(false)
    await user.client.put('/api/user/telegram', { notify: true })
    await setOptions({ TelegramBotEnabled: 'false' })
    expect(await notifyPayment(env, user.id, '10.00 USD', 'Stripe', 5_000_000)).toBe(false)
    expect(tg.sent(CHAT)).toHaveLength(2)
  })

  it('tells the user about a payment and a finished or failed task', async () => {
    const user = await boundUser(true)
    expect(await notifyPayment(env, user.id, '10.00 USD', 'Stripe <test>', 5_000_000)).toBe(true)
    expect(tg.sent(CHAT).at(-1)).toMatchObject({ text: 'Payment received through Stripe &lt;test&gt;: 10.00 USD. Balance: <b>$10.00</b>', parse_mode: 'HTML' })
    await notifyTaskFinished(env, user.id, 'Midjourney IMAGINE', '1730000000001', 'SUCCESS', '')
    expect(tg.sent(CHAT).at(-1)!.text).toBe('Midjourney IMAGINE task <code>1730000000001</code> finished.')
    await notifyTaskFinished(env, user.id, 'Suno MUSIC', 'abc', 'FAILURE', 'upstream timeout')
    expect(tg.sent(CHAT).at(-1)!.text).toBe('Suno MUSIC task <code>abc</code> failed and was refunded: upstream timeout')
  })
})
