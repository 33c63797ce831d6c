import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { saveOptions } from '../settings/store'
import { ApiError } from '../lib/errors'
import { sendMail, smtpConfigured, smtpOptions } from './mailer'
import { mailsTo, testSmtpOptions, uniqueEmail, TEST_SMTP_USER } from '../test/test-smtp'

describe('SMTP options', () => {
  it('uses STARTTLS on 587 by default and implicit TLS on 465, with AUTH credentials when a token is set', async () => {
    const s587 = await saveOptions(env, { SMTPServer: 'smtp.example.com', SMTPAccount: 'bot@example.com', SMTPToken: 'pw' })
    expect(s587.int('SMTPPort')).toBe(587)
    expect(smtpOptions(s587)).toMatchObject({
      host: 'smtp.example.com',
      port: 587,
      secure: false,
      startTls: true,
      credentials: { username: 'bot@example.com', password: 'pw' },
    })
    const s465 = await saveOptions(env, { SMTPPort: '465', SMTPToken: '' })
    expect(smtpOptions(s465)).toMatchObject({ port: 465, secure: true, startTls: false, credentials: undefined })
  })

  it('is not configured without a server or a sender, and says so with 503', async () => {
    const empty = await saveOptions(env, {})
    expect(smtpConfigured(empty)).toBe(false)
    const err = await sendMail(env, { to: 'a@example.com', subject: 's', text: 't', html: '<p>t</p>' }).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(503)
    expect(err.message).toMatch(/not configured/)
    expect(smtpConfigured(await saveOptions(env, { SMTPServer: 'smtp.example.com' }))).toBe(false)
    expect(smtpConfigured(await saveOptions(env, { SMTPAccount: 'bot@example.com' }))).toBe(true)
  })
})

describe('SMTP delivery to the local server', () => {
  it('authenticates and delivers text and HTML with the site name as sender name', async () => {
    await saveOptions(env, { ...testSmtpOptions(), SystemName: 'Edge Gateway' })
    const to = uniqueEmail('mailer')
    await sendMail(env, { to, subject: 'Hello there', text: 'Plain body = 100% ✓', html: '<p>HTML body</p>' })
    const [mail] = await mailsTo(to)
    expect(mail).toMatchObject({ from: 'noreply@gateway.test', user: TEST_SMTP_USER, subject: 'Hello there' })
    expect(mail!.fromHeader).toBe('"Edge Gateway" <noreply@gateway.test>')
    expect(mail!.text).toContain('Plain body = 100% ✓')
    expect(mail!.html).toContain('<p>HTML body</p>')
  })

  it('turns a refused login into 502 without leaking the SMTP answer', async () => {
    await saveOptions(env, testSmtpOptions({ SMTPToken: 'wrong-password' }))
    const to = uniqueEmail('refused')
    const err = await sendMail(env, { to, subject: 's', text: 't', html: '<p>t</p>' }).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(502)
    expect(err.message).toBe('Failed to send the email; try again later or contact the administrator')
    expect(await mailsTo(to)).toEqual([])
  })

  it('reports 502 when nothing listens on the SMTP port', async () => {
    await saveOptions(env, testSmtpOptions({ SMTPPort: '1' }))
    const err = await sendMail(env, { to: 'x@example.com', subject: 's', text: 't', html: '<p>t</p>' }).catch((e) => e)
    expect(err.status).toBe(502)
  })
})
