/**
 * Passkeys through Chromium's virtual WebAuthn authenticator (DevTools protocol: a CTAP2 platform
 * authenticator with resident keys and user verification): add one from the profile, rename it,
 * sign out, sign in with the passkey alone, delete it; screenshots of the profile section and of the
 * login page in light, dark, phone and Chinese. A passkey is a second factor, so once the account has
 * one the password sign-in asks for it: later tests carry the credential into their own virtual
 * authenticator and finish the password sign-in with it. The console is opened as
 * http://localhost:<port> because browsers refuse an IP address as the WebAuthn RP id.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession } from '../../worker/e2e/support/api'
import { expectNoOverflow, openPage, shot } from './support/browser'
import { LOOKS_ZH_PHONE, presetTheme, signInToPanel, signOut, type Look } from './support/console'
import { useBrowser } from './support/suite'
import { totp } from './support/totp'

const account = { username: `pk${Date.now().toString(36).slice(-6)}`, password: 'user-password-1' }

/** A credential as the DevTools WebAuthn domain reads and adds it. */
interface Credential {
  credentialId: string
  isResidentCredential: boolean
  rpId?: string
  privateKey: string
  userHandle?: string
  signCount: number
}

/** The account's passkey as the last authenticator left it (its sign count moves with every use). */
let saved: Credential | undefined

/** A virtual platform authenticator for this page, as a phone or laptop with a fingerprint reader; holding `credential` when given. */
async function virtualAuthenticator(context: BrowserContext, page: Page, credential?: Credential) {
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  if (credential) await cdp.send('WebAuthn.addCredential', { authenticatorId, credential })
  return { credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials }
}

/** The password step of an account with a second factor: the prompt replaces the password form. */
async function passwordStep(page: Page) {
  await page.goto('/login')
  await page.locator('input[name="username"]').fill(account.username)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  await page.getByTestId('login-2fa-passkey').waitFor()
}

/** Opens the console in `look` and signs in with the password and then the saved passkey. */
async function openWithPasskey(browser: Parameters<typeof openPage>[0], baseURL: string, look?: Look) {
  const opened = await openPage(browser, { baseURL, viewport: look?.viewport, locale: look?.locale })
  if (look) await presetTheme(opened.page, look.theme)
  const authenticator = await virtualAuthenticator(opened.context, opened.page, saved)
  await passwordStep(opened.page)
  await opened.page.getByTestId('login-2fa-passkey').click()
  await opened.page.waitForURL((url) => url.pathname.startsWith('/panel'))
  saved = (await authenticator.credentials())[0]
  return { ...opened, authenticator }
}

describe('passkeys', () => {
  const suite = useBrowser()
  const base = () => inject('gatewayUrl').replace('://127.0.0.1', '://localhost')
  beforeAll(async () => {
    await rootSession()
    await userSession(account.username, account.password)
  })

  // Sign in, add, rename, sign out and sign in again: several page loads, slower than one test's default minute.
  it('adds a passkey in the profile and signs in with it alone', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: base() })
    const authenticator = await virtualAuthenticator(context, page)
    await signInToPanel(page, account)
    await page.goto('/panel/profile')
    const card = page.getByTestId('passkeys-card')
    await card.getByTestId('passkeys-empty').waitFor()

    await card.getByTestId('passkey-add').click()
    const dialog = page.getByTestId('passkey-name-dialog')
    // A name is required before the browser is asked.
    await dialog.getByTestId('passkey-name-submit').click()
    await dialog.getByText('This field is required').waitFor()
    await dialog.locator('input[name="name"]').fill('Test laptop')
    await dialog.getByTestId('passkey-name-submit').click()
    await page.getByText('Passkey added').first().waitFor()
    await card.getByTestId('passkey-name').getByText('Test laptop').waitFor()
    const [credential] = await authenticator.credentials()
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })

    await card.getByRole('button', { name: 'Rename' }).click()
    await dialog.locator('input[name="name"]').fill('Work laptop')
    await dialog.getByTestId('passkey-name-submit').click()
    await card.getByTestId('passkey-name').getByText('Work laptop').waitFor()
    await card.getByText('never used').waitFor()
    await shot(page, 'passkeys-profile-light')

    await signOut(page)
    await page.goto('/login')
    await page.getByTestId('passkey-sign-in').click()
    await page.waitForURL((url) => url.pathname.startsWith('/panel'))
    await page.goto('/panel/profile')
    await card.getByText(/last used/).waitFor()
    saved = (await authenticator.credentials())[0]
    expect(saved!.signCount).toBeGreaterThan(credential!.signCount)
    await context.close()
  }, 180_000)

  // Password, then the passkey as the second factor; with TOTP on too the prompt offers both.
  it('asks for the passkey after the password, next to the code once TOTP is on', async () => {
    const { context, page, authenticator } = await openWithPasskey(suite.browser, base())
    await page.goto('/panel/profile')
    await page.getByTestId('2fa-start').click()
    const secret = await page.getByTestId('2fa-secret').inputValue()
    await page.getByTestId('2fa-enable-code').fill(totp(secret, Date.now()))
    await page.getByTestId('2fa-confirm').click()
    await page.getByTestId('2fa-status').getByText('On').waitFor()
    await signOut(page)
    await passwordStep(page)
    await page.getByTestId('login-2fa-code').waitFor()
    await shot(page, 'second-factor-both-light')
    await page.getByTestId('login-2fa-passkey').click()
    await page.waitForURL((url) => url.pathname.startsWith('/panel'))
    saved = (await authenticator.credentials())[0]
    await context.close()

    for (const look of LOOKS_ZH_PHONE.filter((l) => l.name !== 'phone-light')) {
      const opened = await openPage(suite.browser, { baseURL: base(), viewport: look.viewport, locale: look.locale })
      await presetTheme(opened.page, look.theme)
      await passwordStep(opened.page)
      await opened.page.getByTestId('login-2fa-code').waitFor()
      await expectNoOverflow(opened.page)
      await shot(opened.page, `second-factor-both-${look.name}`)
      await opened.context.close()
    }
  }, 240_000)

  // One test per look: each signs in and renders the whole profile, a minute's work on a loaded machine.
  it.each(LOOKS_ZH_PHONE)('shows the passkeys section in the $name look', async (look) => {
    const { context, page } = await openWithPasskey(suite.browser, base(), look)
    await page.goto('/panel/profile')
    await page.getByTestId('passkey-row').first().waitFor()
    await expectNoOverflow(page)
    await shot(page, `passkeys-profile-${look.name}`)
    await context.close()
  })

  it('offers the passkey sign-in on the login page (zh_CN, dark)', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: base(), locale: 'zh-CN' })
    await presetTheme(page, 'dark')
    await page.goto('/login')
    await page.getByTestId('passkey-sign-in').getByText('使用通行密钥登录').waitFor()
    await shot(page, 'passkeys-login-dark-zh')
    await context.close()
  })

  it('deletes a passkey after confirming', async () => {
    const { context, page } = await openWithPasskey(suite.browser, base())
    await page.goto('/panel/profile')
    const card = page.getByTestId('passkeys-card')
    await card.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Passkey deleted').first().waitFor()
    await card.getByTestId('passkeys-empty').waitFor()
    await context.close()
  })
})
