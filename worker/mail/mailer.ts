/**
 * Outgoing email over SMTP from the Worker (worker-mailer on `cloudflare:sockets` connect()).
 * Configured by the SMTP settings: SMTPServer, SMTPPort (587 STARTTLS when offered; 465 implicit
 * TLS), SMTPAccount + SMTPToken (AUTH PLAIN/LOGIN/CRAM-MD5) and SMTPFrom (defaults to the account).
 * The sender name is SystemName. `sendMail` throws ApiError 503 when SMTP is not configured and
 * 502 when delivery fails (details go to the log, not to the caller).
 */
import { LogLevel, WorkerMailer, type WorkerMailerOptions } from 'worker-mailer'
import { ApiError } from '../lib/errors'
import { getSettings, type Settings } from '../settings/store'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'mailer' })

export interface MailMessage {
  to: string
  subject: string
  html: string
  text: string
}

const TIMEOUT_MS = 15_000

export function smtpConfigured(settings: Settings): boolean {
  return settings.str('SMTPServer').trim() !== '' && senderAddress(settings) !== ''
}

function senderAddress(settings: Settings): string {
  return settings.str('SMTPFrom').trim() || settings.str('SMTPAccount').trim()
}

/** worker-mailer connection options for the current settings (exported for tests). */
export function smtpOptions(settings: Settings): WorkerMailerOptions {
  const port = settings.int('SMTPPort') || 587
  const account = settings.str('SMTPAccount').trim()
  const token = settings.str('SMTPToken')
  return {
    host: settings.str('SMTPServer').trim(),
    port,
    secure: port === 465,
    startTls: port !== 465,
    credentials: account && token ? { username: account, password: token } : undefined,
    authType: ['plain', 'login', 'cram-md5'],
    logLevel: LogLevel.NONE,
    socketTimeoutMs: TIMEOUT_MS,
    responseTimeoutMs: TIMEOUT_MS,
  }
}

export const smtpNotConfigured = () => new ApiError(503, 'Email is not configured: the administrator must set the SMTP server and sender first', { code: 'smtp_not_configured' })

export async function sendMail(env: Env, message: MailMessage, settings?: Settings): Promise<void> {
  const s = settings ?? (await getSettings(env))
  if (!smtpConfigured(s)) throw smtpNotConfigured()
  try {
    await WorkerMailer.send(smtpOptions(s), {
      from: { name: s.str('SystemName'), email: senderAddress(s) },
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    })
  } catch (err) {
    serverLog.error('mail not sent', { subject: message.subject, error: err })
    throw new ApiError(502, 'Failed to send the email; try again later or contact the administrator', { code: 'smtp_failed', cause: err })
  }
}
