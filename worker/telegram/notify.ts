/**
 * Notices to a user's bound Telegram chat, only for users who switched them on
 * (users.telegram_notify) and only while the bot is on: the low-balance reminder (called by
 * mail/quota-reminder.ts on the same crossing as the mail, with its own 10-minute mark),
 * payment success (payments.service.ts; a plan order names its plan) and finished tasks. Best effort: a failure is logged and
 * never reaches billing or the caller.
 */
import { eq } from 'drizzle-orm'
import { cacheKeys } from '../cache/keys'
import { createDb } from '../db/client'
import { users } from '../db/schema'
import type { Settings } from '../settings/store'
import { formatQuota } from './account'
import { botActive, createBot, telegramConfig } from './config'
import { USER_STATUS } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'telegram-notify' })

const DEDUPE_TTL_SECONDS = 10 * 60
/** A notice must not hold up the payment callback or task sweep that sends it. */
const NOTIFY_TIMEOUT_SECONDS = 5
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * Sends `html` to the user's chat when bound, opted in and the bot is on; true when sent. `ownSwitch`:
 * the caller checked the notice's own switch (a budget notice), so the bot notices switch does not apply.
 */
export async function notifyTelegram(env: Env, userId: number, html: string, ownSwitch = false): Promise<boolean> {
  try {
    const cfg = await telegramConfig(env)
    if (!botActive(cfg)) return false
    const [user] = await createDb(env.DB).select({ chat: users.telegramId, notify: users.telegramNotify, status: users.status }).from(users).where(eq(users.id, userId)).limit(1)
    if (!user || !user.chat || (!user.notify && !ownSwitch) || user.status !== USER_STATUS.ENABLED) return false
    await createBot(cfg, undefined, NOTIFY_TIMEOUT_SECONDS).api.sendMessage(user.chat, html, { parse_mode: 'HTML' })
    return true
  } catch (err) {
    serverLog.error('telegram notice not sent', { user_id: userId, error: err })
    return false
  }
}

/** The low-balance or exhausted reminder, once per crossing (10-minute mark per user and kind). */
export async function remindOnTelegram(env: Env, settings: Settings, userId: number, kind: 'low' | 'exhausted', balance: number): Promise<boolean> {
  if (!settings.bool('TelegramBotEnabled')) return false
  const mark = cacheKeys.quotaRemindTelegram(userId, kind)
  if (await env.CACHE.get(mark)) return false
  await env.CACHE.put(mark, String(Date.now()), { expirationTtl: DEDUPE_TTL_SECONDS })
  const amount = formatQuota({ displayInCurrency: settings.bool('DisplayInCurrencyEnabled'), quotaPerUnit: Math.max(1, settings.int('QuotaPerUnit')) }, Math.max(0, balance))
  const text =
    kind === 'exhausted'
      ? `Your balance is used up (${amount}). Top up to keep your keys working.`
      : `Your balance is low: <b>${amount}</b>. Top up with /recharge or in the console.`
  const sent = await notifyTelegram(env, userId, text)
  if (!sent) await env.CACHE.delete(mark)
  return sent
}

/** Payment success: what was paid, through which gateway, and the balance after the credit. */
export async function notifyPayment(env: Env, userId: number, paid: string, gateway: string, balance: number): Promise<boolean> {
  const cfg = await telegramConfig(env)
  return notifyTelegram(env, userId, `Payment received through ${esc(gateway)}: ${esc(paid)}. Balance: <b>${formatQuota(cfg, balance)}</b>`)
}

/** A paid plan order: what was paid, through which gateway, and the plan that started (or, a renewal, was extended). */
export async function notifyPlanPayment(env: Env, userId: number, paid: string, gateway: string, plan: string, renewed = false): Promise<boolean> {
  return notifyTelegram(env, userId, `Payment received through ${esc(gateway)}: ${esc(paid)}. Your plan <b>${esc(plan)}</b> has ${renewed ? 'been renewed' : 'started'}.`)
}

/** An asynchronous task (Midjourney, Suno) reached its end: success or failure (refunded). */
export async function notifyTaskFinished(env: Env, userId: number, kind: string, taskId: string, status: string, reason: string): Promise<boolean> {
  const ok = status === 'SUCCESS'
  const head = `${esc(kind)} task <code>${esc(taskId || '-')}</code>`
  return notifyTelegram(env, userId, ok ? `${head} finished.` : `${head} failed and was refunded${reason ? `: ${esc(reason.slice(0, 300))}` : '.'}`)
}
