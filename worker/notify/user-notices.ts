/**
 * A user's own notices, chosen in the profile (users.notify_*): reading and saving the choices,
 * and sending a key owner the budget notices of their keys by mail and/or to their bound Telegram
 * chat. The low-balance reminder stays mail/quota-reminder.ts (its mail now follows
 * `balance_email`, its Telegram copy the bot notices switch), so one crossing is one mail.
 * Budget notices reach the owner once per (event, key, period), marked like the operators' notices.
 * A plan's renewal order (payments/renewal-orders.ts) is announced by mail (when the user has an
 * address and SMTP is set up) and to the bound Telegram chat, with the link to /panel/plans.
 */
import { eq } from 'drizzle-orm'
import type { BudgetCrossing } from '../wallet/wallet-types'
import type { UserNoticePrefs, UserNoticesView } from '../../shared/contract/notify'
import { USER_STATUS } from '../../shared/contract/enums'
import { createDb } from '../db/client'
import { users } from '../db/schema'
import { sendMail, smtpConfigured } from '../mail/mailer'
import { budgetNoticeMail, renewalDueMail } from '../mail/templates'
import { getSettings } from '../settings/store'
import { notifyTelegram } from '../telegram/notify'
import { claimMark } from './emit'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'budget-notice' })

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

const prefsColumns = {
  balance_email: users.notifyBalanceEmail,
  budget_email: users.notifyBudgetEmail,
  budget_telegram: users.notifyBudgetTelegram,
  email: users.email,
  telegram_id: users.telegramId,
}

export async function getUserNotices(env: Env, userId: number): Promise<UserNoticesView | undefined> {
  const [row] = await createDb(env.DB).select(prefsColumns).from(users).where(eq(users.id, userId)).limit(1)
  if (!row) return undefined
  const { email, telegram_id, ...prefs } = row
  return { ...prefs, has_email: email !== '', telegram_bound: telegram_id !== 0 }
}

export async function saveUserNotices(env: Env, userId: number, prefs: UserNoticePrefs): Promise<UserNoticesView | undefined> {
  await createDb(env.DB)
    .update(users)
    .set({ notifyBalanceEmail: prefs.balance_email, notifyBudgetEmail: prefs.budget_email, notifyBudgetTelegram: prefs.budget_telegram })
    .where(eq(users.id, userId))
  return getUserNotices(env, userId)
}

/** The key owner's copy of a budget notice, where they opted in. Never throws; true when anything went out. */
export async function notifyBudgetOwner(env: Env, userId: number, c: BudgetCrossing, event: string, text: string): Promise<boolean> {
  try {
    const [user] = await createDb(env.DB)
      .select({ status: users.status, email: users.email, byMail: users.notifyBudgetEmail, byTelegram: users.notifyBudgetTelegram, chat: users.telegramId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
    if (!user || user.status !== USER_STATUS.ENABLED) return false
    const settings = await getSettings(env)
    const mail = user.byMail && user.email !== '' && smtpConfigured(settings)
    const telegram = user.byTelegram && user.chat !== 0 && settings.bool('TelegramBotEnabled')
    if (!mail && !telegram) return false
    const cooldown = Math.max(1, settings.int('NotifyCooldownMinutes')) * 60
    if (!(await claimMark(env, `owner:${event}`, `token:${c.tokenId}:${c.start}`, cooldown, Math.ceil(c.end / 1000)))) return false
    let sent = false
    if (mail) {
      const site = settings.str('ServerAddress').trim().replace(/\/+$/, '')
      try {
        await sendMail(env, { to: user.email, ...budgetNoticeMail(settings.str('SystemName'), c.kind, text, site ? `${site}/panel/tokens` : '') }, settings)
        sent = true
      } catch (err) {
        serverLog.error('budget notice mail not sent', { user_id: userId, error: err })
      }
    }
    if (telegram) sent = (await notifyTelegram(env, userId, esc(text), true)) || sent
    return sent
  } catch (err) {
    serverLog.error('budget notice not sent', { user_id: userId, error: err })
    return false
  }
}

/** The user's notice that a renewal order waits to be paid. Never throws; true when anything went out. */
export async function notifyRenewalDue(env: Env, userId: number, text: string): Promise<boolean> {
  try {
    const [user] = await createDb(env.DB).select({ status: users.status, email: users.email }).from(users).where(eq(users.id, userId)).limit(1)
    if (!user || user.status !== USER_STATUS.ENABLED) return false
    const settings = await getSettings(env)
    const site = settings.str('ServerAddress').trim().replace(/\/+$/, '')
    let sent = false
    if (user.email !== '' && smtpConfigured(settings)) {
      try {
        await sendMail(env, { to: user.email, ...renewalDueMail(settings.str('SystemName'), text, site ? `${site}/panel/plans` : '') }, settings)
        sent = true
      } catch (err) {
        serverLog.error('renewal notice mail not sent', { user_id: userId, error: err })
      }
    }
    const link = site ? ` <a href="${esc(site)}/panel/plans">Pay it on the plans page</a>.` : ''
    return (await notifyTelegram(env, userId, `${esc(text)}${link}`)) || sent
  } catch (err) {
    serverLog.error('renewal notice not sent', { user_id: userId, error: err })
    return false
  }
}
