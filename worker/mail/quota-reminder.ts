/**
 * Low-quota reminder mails. The user's wallet calls `remindLowQuota(env, {userId, before, after})`
 * after a charge (in the background): when the balance crosses below QuotaRemindThreshold, or
 * reaches 0, the user gets one mail for that crossing. Only the cached settings are read when no
 * threshold was crossed; users without an email, a disabled SMTP setup or a failed delivery
 * are skipped quietly (logged), so billing never fails because of mail. A 10-minute mark per user
 * and kind absorbs overlapping reports of the same crossing from concurrent requests. Users who
 * bound Telegram and switched notices on also get the reminder there, and the operators' alert
 * channels that take `user.balance_low` get one notice per user per cool-down. This mail is the
 * user's own `user.balance_low` notice: it follows their profile switch (users.notify_balance_email,
 * on by default), so a crossing never mails twice.
 */
import { cacheKeys } from '../cache/keys'
import { sendMail, smtpConfigured } from './mailer'
import { getSettings, type Settings } from '../settings/store'
import { quotaReminderMail } from './templates'
import { remindOnTelegram } from '../telegram/notify'
import { emitNotice } from '../notify/emit'
import { USER_STATUS } from '../../shared/contract/enums'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'quota-reminder' })

export type QuotaReminderKind = 'low' | 'exhausted'

const DEDUPE_TTL_SECONDS = 10 * 60
const markKey = cacheKeys.quotaRemindMail

/** Which reminder (if any) a balance change from `before` to `after` calls for. */
export function quotaCrossing(before: number, after: number, threshold: number): QuotaReminderKind | null {
  if (before > 0 && after <= 0) return 'exhausted'
  if (threshold > 0 && before >= threshold && after < threshold) return 'low'
  return null
}

export function formatBalance(settings: Settings, quota: number): string {
  if (settings.bool('DisplayInCurrencyEnabled')) {
    const perUnit = settings.int('QuotaPerUnit') || 500000
    return `$${(Math.max(0, quota) / perUnit).toFixed(2)}`
  }
  return `${Math.max(0, quota)} quota`
}

export interface QuotaChange {
  userId: number
  /** Balance before the charge. */
  before: number
  /** Balance after the charge. */
  after: number
}

/** Mails the user when this change crossed a reminder threshold; returns the kind mailed, if any. */
export async function remindLowQuota(env: Env, change: QuotaChange): Promise<QuotaReminderKind | null> {
  if (change.after >= change.before) return null
  const settings = await getSettings(env)
  const kind = quotaCrossing(change.before, change.after, settings.int('QuotaRemindThreshold'))
  if (!kind) return null
  // The operators' alert channels that take user.balance_low (worker/notify/; one per user per cool-down).
  await emitNotice(env, {
    event: 'user.balance_low',
    subject: `user:${change.userId}`,
    text: `User #${change.userId} ${kind === 'exhausted' ? 'ran out of quota' : 'fell below the reminder threshold'}: ${formatBalance(settings, change.after)} left`,
    data: { user_id: change.userId, kind, quota: change.after },
  })
  // The bound Telegram chat gets the same reminder when the user opted in (telegram/notify.ts).
  await remindOnTelegram(env, settings, change.userId, kind, change.after)
  if (!smtpConfigured(settings)) return null
  const user = await env.DB.prepare('SELECT email, status, notify_balance_email AS wanted FROM users WHERE id = ?')
    .bind(change.userId)
    .first<{ email: string; status: number; wanted: number }>()
  // The user's choice in the profile (worker/notify/user-notices.ts): this mail is their balance_low notice.
  if (!user?.email || !user.wanted || user.status !== USER_STATUS.ENABLED) return null
  if (await env.CACHE.get(markKey(change.userId, kind))) return null
  await env.CACHE.put(markKey(change.userId, kind), String(Date.now()), { expirationTtl: DEDUPE_TTL_SECONDS })
  const site = settings.str('ServerAddress').trim().replace(/\/+$/, '')
  const mail = quotaReminderMail(settings.str('SystemName'), kind, formatBalance(settings, change.after), site ? `${site}/panel/topup` : '')
  try {
    await sendMail(env, { to: user.email, ...mail }, settings)
    return kind
  } catch (err) {
    serverLog.error('quota reminder not sent', { user_id: change.userId, error: err })
    await env.CACHE.delete(markKey(change.userId, kind))
    return null
  }
}
