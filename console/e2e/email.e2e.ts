/**
 * Email flows through a local SMTP server: registration with a verification code (sent from the
 * form, with the resend countdown) and the password reset from the request page to the emailed
 * link, whose page shows the new password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpCapture, type SmtpCapture } from '../../worker/test/smtp-capture'
import { openPage } from './support/browser'
import { signIn } from './support/console'
import { saveOptions } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

const root = { username: 'mailadmin', password: 'mail-admin-pass-1' }
const user = { username: 'mailuser', email: 'mailuser@example.com', password: 'mail-user-pass-1' }

describe('email flows', () => {
  const suite = useFreshGateway(root)
  let smtp: SmtpCapture

  beforeAll(async () => {
    smtp = await startSmtpCapture({ username: 'mailer@gateway.test', password: 'smtp-pass' })
    await saveOptions(suite.server.url, suite.session, {
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: 'mailer@gateway.test',
      SMTPToken: 'smtp-pass',
      SMTPFrom: 'noreply@gateway.test',
      EmailVerificationEnabled: 'true',
      ServerAddress: suite.server.url,
    })
  })
  afterAll(async () => {
    await smtp?.stop()
  })

  const lastMailTo = async (address: string) => {
    await expect.poll(() => smtp.to(address).length).toBeGreaterThan(0)
    return smtp.to(address).at(-1)!
  }

  it('registers with an emailed verification code', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/register')
    const form = page.locator('form')
    await form.locator('input[name="username"]').fill(user.username)
    await form.locator('input[name="password"]').fill(user.password)
    await form.locator('input[name="confirm_password"]').fill(user.password)

    // Email is required while verification is on.
    await page.getByRole('button', { name: 'Create account' }).click()
    await form.getByText('Please enter a valid email address').waitFor()
    await form.getByText('This field is required').waitFor()

    await form.locator('input[name="email"]').fill(user.email)
    await form.getByRole('button', { name: 'Send code' }).click()
    await page.getByText('Verification code sent, please check your inbox').waitFor()
    const resend = form.getByRole('button', { name: /Resend in \d+ s/ })
    await resend.waitFor()
    expect(await resend.isDisabled()).toBe(true)

    const mail = await lastMailTo(user.email)
    const code = /verification code is: (\S+)/.exec(mail.text)?.[1]
    expect(code).toBeTruthy()
    await form.locator('input[name="verification_code"]').fill(code!)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/login')
    await signIn(page, user)
    await context.close()
  })

  it('resets a forgotten password from the emailed link', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/login')
    await page.getByRole('link', { name: 'Forgot password?' }).click()
    await page.waitForURL('**/reset')
    await page.locator('input[name="email"]').fill(user.email)
    await page.getByRole('button', { name: 'Send reset email' }).click()
    await page.getByText('Reset email sent').waitFor()

    const mail = await lastMailTo(user.email)
    const link = /https?:\/\/\S+\/user\/reset\?[^\s"<>]+/.exec(mail.text)?.[0]
    expect(link).toBeTruthy()

    // A tampered link is refused.
    const bad = new URL(link!)
    bad.searchParams.set('token', 'not-the-token')
    await page.goto(bad.pathname + bad.search)
    await page.getByRole('button', { name: 'Reset password' }).click()
    await page.getByTestId('invalid-link').getByText('Invalid link').waitFor()

    const good = new URL(link!)
    await page.goto(good.pathname + good.search)
    expect(await page.locator('#reset-email').inputValue()).toBe(user.email)
    await page.getByRole('button', { name: 'Reset password' }).click()
    const field = page.locator('#new-password')
    await field.waitFor()
    const newPassword = await field.inputValue()
    expect(newPassword.length).toBeGreaterThanOrEqual(8)

    await signIn(page, { username: user.username, password: newPassword })
    await context.close()
  })
})
