/**
 * A user's own notices: the profile switches (validated, saved), budget notices mailed to the key
 * owner only when opted in and once per period, Telegram only to a bound chat, and the low-balance
 * reminder mail following its switch.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { MOCK_BOT_TOKEN } from '../../scripts/mock-telegram-api.mjs'
import type { BudgetCrossing } from '../wallet/wallet-types'
import { remindLowQuota } from '../mail/quota-reminder'
import { setupRoot, signedInUser } from '../test/client'
import { setOptions } from '../test/factories'
import { mockTelegram, TG_BASE } from '../test/telegram-bot-mock'
import { mailsTo, testSmtpOptions, uniqueEmail } from '../test/test-smtp'
import { alertBudgetCrossings } from './budget'

let tg: ReturnType<typeof mockTelegram>
beforeEach(() => {
  tg = mockTelegram()
})
afterEach(() => tg.restore())

const crossing = (tokenId: number, kind: BudgetCrossing['kind'] = 'threshold'): BudgetCrossing => {
  const now = Date.now()
  return { tokenId, kind, used: kind === 'exhausted' ? 1000 : 800, quota: 1000, period: 'day', start: now - 3_600_000, end: now + 3_600_000 }
}

async function userWithEmail(name: string) {
  const user = await signedInUser(name)
  const email = uniqueEmail(name)
  await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind(email, user.id).run()
  return { ...user, email }
}

describe('/api/user/notices', () => {
  it('shows the defaults, refuses a malformed body, and saves the switches', async () => {
    await setupRoot()
    const user = await signedInUser('noticeprefs')
    expect((await user.client.get('/api/user/notices')).body.data).toEqual({
      balance_email: true,
      budget_email: false,
      budget_telegram: false,
      has_email: false,
      telegram_bound: false,
    })
    for (const bad of [
      { balance_email: 'yes', budget_email: true, budget_telegram: false },
      { balance_email: true },
      { balance_email: true, budget_email: true, budget_telegram: true, extra: 1 },
    ]) {
      const res = await user.client.put('/api/user/notices', bad)
      expect(res.status).toBe(400)
      expect(res.body.success).toBe(false)
    }
    const saved = await user.client.put('/api/user/notices', { balance_email: false, budget_email: true, budget_telegram: true })
    expect(saved.status).toBe(200)
    expect(saved.body.data).toMatchObject({ balance_email: false, budget_email: true, budget_telegram: true })
    expect((await user.client.get('/api/user/notices')).body.data).toMatchObject({ balance_email: false, budget_email: true, budget_telegram: true })
  })
})

describe('budget notices to the key owner', () => {
  it('mails an opted-in owner once per (event, key, period), and nobody who did not opt in', async () => {
    await setupRoot()
    await setOptions({ ...testSmtpOptions(), SystemName: 'Budget Site', ServerAddress: 'https://gw.example.com', NotifyCooldownMinutes: '1' })
    const opted = await userWithEmail('budgetmail')
    const quiet = await userWithEmail('budgetquiet')
    expect((await opted.client.put('/api/user/notices', { balance_email: true, budget_email: true, budget_telegram: false })).status).toBe(200)

    const first = crossing(31)
    await alertBudgetCrossings(env, opted.id, [first])
    await alertBudgetCrossings(env, opted.id, [first]) // reported again in the same period
    await alertBudgetCrossings(env, opted.id, [{ ...first, kind: 'exhausted', used: 1000 }])
    await alertBudgetCrossings(env, quiet.id, [crossing(32), crossing(32, 'exhausted')])

    const mails = await mailsTo(opted.email)
    expect(mails.map((m) => m.subject)).toEqual(['Budget Site: an API key reached 80 % of its budget', 'Budget Site: an API key spent its budget'])
    expect(mails[0]!.text).toContain('800 of its day budget of 1000')
    expect(mails[0]!.text).toContain('https://gw.example.com/panel/tokens')
    expect(await mailsTo(quiet.email)).toHaveLength(0)
    expect(tg.sent()).toHaveLength(0)
  })

  it('sends to the bound Telegram chat only when opted in for budgets, whatever the bot notices switch says', async () => {
    await setupRoot()
    await setOptions({ TelegramBotEnabled: 'true', TelegramBotToken: MOCK_BOT_TOKEN, TelegramApiBase: TG_BASE })
    const bound = await signedInUser('budgettg')
    await env.DB.prepare('UPDATE users SET telegram_id = 7001, telegram_notify = 0 WHERE id = ?').bind(bound.id).run()
    const unbound = await signedInUser('budgetnochat')
    for (const u of [bound, unbound]) expect((await u.client.put('/api/user/notices', { balance_email: true, budget_email: false, budget_telegram: true })).status).toBe(200)
    expect((await bound.client.get('/api/user/notices')).body.data.telegram_bound).toBe(true)

    await alertBudgetCrossings(env, bound.id, [crossing(41, 'exhausted')])
    await alertBudgetCrossings(env, unbound.id, [crossing(42, 'exhausted')])
    expect(tg.sent().map((m) => Number(m.chat_id))).toEqual([7001])
    expect(tg.sent()[0]!.text).toContain('spent its whole day budget')
  })
})

describe('the low-balance reminder mail follows balance_email', () => {
  it('mails on a crossing by default and not once the user turned it off', async () => {
    await setupRoot()
    await setOptions({ ...testSmtpOptions(), QuotaRemindThreshold: '100000' })
    const on = await userWithEmail('balanceon')
    const off = await userWithEmail('balanceoff')
    expect((await off.client.put('/api/user/notices', { balance_email: false, budget_email: false, budget_telegram: false })).status).toBe(200)
    expect(await remindLowQuota(env, { userId: on.id, before: 150000, after: 50000 })).toBe('low')
    expect(await remindLowQuota(env, { userId: off.id, before: 150000, after: 50000 })).toBeNull()
    expect(await mailsTo(on.email)).toHaveLength(1)
    expect(await mailsTo(off.email)).toHaveLength(0)
  })
})
