/**
 * TOTP two-factor sign-in in the console (issue 36): turn it on in the profile (QR code, secret,
 * backup codes), then sign in with the password and a code this test computes itself (RFC 6238 on
 * node:crypto, independent of the gateway's code); later sign-ins use backup codes, in the dark,
 * phone and Chinese looks, with screenshots of the profile's security section and the 2FA prompt.
 * Last, root resets another account's TOTP from the users page ("Reset 2FA" behind a confirmation).
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openPage, shot } from './support/browser'
import { userSession } from '../../worker/e2e/support/api'
import { LOOKS_ZH_PHONE, presetTheme, rowAction, signIn, signOut } from './support/console'
import { useFreshGateway } from './support/suite'
import { totp } from './support/totp'

const account = { username: 'totproot', password: 'totp-pass-123' }

async function passwordStep(page: Page) {
  await page.goto('/login')
  await page.locator('input[name="username"]').fill(account.username)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  await page.getByTestId('login-2fa-code').waitFor()
}

describe('two-factor sign-in', () => {
  const suite = useFreshGateway(account)
  let backupCodes: string[] = []

  it('turns TOTP on in the profile and signs in with a computed code', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    await page.goto('/panel/profile')
    await page.getByTestId('2fa-status').getByText('Off').waitFor()
    await page.getByTestId('2fa-start').click()
    const secret = await page.getByTestId('2fa-secret').inputValue()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    backupCodes = (await page.getByTestId('2fa-backup-codes').locator('li').allTextContents()).map((s) => s.trim())
    expect(backupCodes).toHaveLength(10)
    await page.getByTestId('2fa-card').scrollIntoViewIfNeeded()
    await shot(page, 'two-factor-setup-light')
    await page.getByTestId('2fa-enable-code').fill(totp(secret, Date.now()))
    await page.getByTestId('2fa-confirm').click()
    await page.getByTestId('2fa-status').getByText('On').waitFor()
    await expect.poll(() => page.getByTestId('2fa-secret').count()).toBe(0)

    await signOut(page)
    await passwordStep(page)
    await shot(page, 'two-factor-prompt-light')
    // The step after the one that confirmed the setup (that one is used up).
    await page.getByTestId('login-2fa-code').fill(totp(secret, Date.now() + 30_000))
    await page.getByTestId('login-2fa-submit').click()
    await page.waitForURL('**/panel/dashboard')
    await context.close()
  })

  it('signs in with backup codes and shows the prompt and the security section in every look', async () => {
    for (const [i, look] of LOOKS_ZH_PHONE.entries()) {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: look.viewport, locale: look.locale })
      await presetTheme(page, look.theme)
      await passwordStep(page)
      await shot(page, `two-factor-prompt-${look.name}`)
      await page.getByTestId('login-2fa-code').fill(backupCodes[i]!)
      await page.getByTestId('login-2fa-submit').click()
      await page.waitForURL((url) => url.pathname.startsWith('/panel'))
      await page.goto('/panel/profile')
      await page.getByTestId('2fa-card').scrollIntoViewIfNeeded()
      await page.getByTestId('2fa-status').waitFor()
      await shot(page, `two-factor-profile-${look.name}`)
      await context.close()
    }
    // A used backup code does not work twice.
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await passwordStep(page)
    await page.getByTestId('login-2fa-code').fill(backupCodes[0]!)
    await page.getByTestId('login-2fa-submit').click()
    await page
      .getByText(/already used/)
      .first()
      .waitFor()
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('lets root reset another account’s two-factor sign-in from the users page', async () => {
    const member = await userSession('totpmember', 'member-pass-123', suite.server.url)
    const setup = await member.ok<{ secret: string }>('POST', '/api/user/2fa/setup')
    await member.ok('POST', '/api/user/2fa/enable', { code: totp(setup.secret, Date.now()) })
    expect((await member.ok<{ enabled: boolean }>('GET', '/api/user/2fa/status')).enabled).toBe(true)

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await passwordStep(page)
    await page.getByTestId('login-2fa-code').fill(backupCodes[LOOKS_ZH_PHONE.length]!)
    await page.getByTestId('login-2fa-submit').click()
    await page.waitForURL('**/panel/dashboard')
    await page.goto('/panel/user')
    const row = page.locator('tbody tr', { has: page.getByText('totpmember', { exact: true }) })
    await rowAction(page, row, 'Edit')
    const section = page.getByTestId('user-form-dialog').getByTestId('user-two-factor')
    await section.getByText('Authenticator app').waitFor()
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'two-factor-admin-reset')
    await section.getByTestId('admin-reset-2fa').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Reset 2FA' }).click()
    await section.waitFor({ state: 'detached' })
    expect((await member.ok<{ enabled: boolean }>('GET', '/api/user/2fa/status')).enabled).toBe(false)
    await context.close()
  })
})
