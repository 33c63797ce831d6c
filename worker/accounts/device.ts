/**
 * What a session's device is called (a short "browser on system" summary of its User-Agent, shown
 * in the profile's session list and in mails) and the new-device sign-in notice: with the root
 * setting NewDeviceSignInNotice on, a sign-in from a device and address pair the account has not
 * used before is mailed to the account's address. "Seen before" means a live session of the
 * account with the same device summary and IP, or the account's previous sign-in came from this IP;
 * the account's very first sign-in sends nothing. A failed notice never blocks the sign-in.
 */
import { and, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { sessions, users } from '../db/schema'
import { getSettings } from '../settings/store'
import { sendMail, smtpConfigured } from '../mail/mailer'
import { newDeviceMail } from '../mail/templates'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'device-notice' })

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//i, 'curl'],
]
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
]

/** "Chrome on Windows", "Safari on iOS", "Unknown device" for an empty or unrecognised agent. */
export function deviceSummary(userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1]
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? 'Unknown device'
}

async function isNewDevice(env: Env, user: { id: number; lastLoginTime: number; lastLoginIp: string }, ip: string, userAgent: string) {
  if (user.lastLoginTime === 0 || user.lastLoginIp === ip) return false
  const device = deviceSummary(userAgent)
  const sameIp = await createDb(env.DB)
    .select({ userAgent: sessions.userAgent })
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), eq(sessions.ip, ip)))
  return !sameIp.some((s) => deviceSummary(s.userAgent) === device)
}

/** Called by createSession before the new session row exists. */
export async function noticeIfNewDevice(env: Env, userId: number, ip: string, userAgent: string): Promise<void> {
  try {
    const settings = await getSettings(env)
    if (!settings.bool('NewDeviceSignInNotice') || !smtpConfigured(settings)) return
    const [user] = await createDb(env.DB)
      .select({ id: users.id, username: users.username, email: users.email, lastLoginTime: users.lastLoginTime, lastLoginIp: users.lastLoginIp })
      .from(users)
      .where(eq(users.id, userId))
    if (!user?.email || !(await isNewDevice(env, user, ip, userAgent))) return
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
    const site = settings.str('SystemName') || 'AI Gateway'
    await sendMail(env, { to: user.email, ...newDeviceMail(site, user.username, deviceSummary(userAgent), ip, when) }, settings)
  } catch (err) {
    serverLog.error('new-device notice not sent', { user_id: userId, error: err })
  }
}
