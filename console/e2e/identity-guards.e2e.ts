/**
 * What guards the sign-in pages, in the browser against a private gateway: the login and register
 * pages following the login settings (with the external providers of console/e2e/support/identity.ts
 * enabled), and Turnstile with a stand-in widget script (challenges.cloudflare.com is out of reach here).
 */
import { describe, expect, it } from 'vitest'
import { openPage, shot } from './support/browser'
import { member, root, useIdentityProviders, useTurnstileStandIn } from './support/identity'
import { saveOptions } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

describe('login settings and Turnstile', () => {
  const suite = useFreshGateway(root)
  useIdentityProviders(suite)

  it('follows the login and registration settings', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await saveOptions(suite.server.url, suite.session, { PasswordLoginEnabled: 'false', PasswordRegisterEnabled: 'false' })
    await page.goto('/login')
    await page.getByText('Choose one of the accounts below to sign in.').waitFor()
    expect(await page.locator('input[name="password"]').count()).toBe(0)
    await page.getByRole('button', { name: 'Sign in with OIDC' }).waitFor()
    await page.getByRole('link', { name: 'Create one' }).click()
    await page.getByText('Sign-up with a password is closed.').waitFor()
    expect(await page.locator('input[name="password"]').count()).toBe(0)
    await page.getByRole('button', { name: 'Sign in with WeChat' }).waitFor()

    await saveOptions(suite.server.url, suite.session, { RegisterEnabled: 'false', PasswordLoginEnabled: 'true', PasswordRegisterEnabled: 'true' })
    await page.goto('/register')
    await page.getByTestId('register-closed').getByText('New registrations are currently closed').waitFor()
    expect(await page.getByTestId('oauth-buttons').count()).toBe(0)
    await page.goto('/login')
    await page.locator('input[name="password"]').waitFor()
    expect(await page.getByRole('link', { name: 'Create one' }).count()).toBe(0)
    await saveOptions(suite.server.url, suite.session, { RegisterEnabled: 'true' })
    await context.close()
  })

  it('asks for a Turnstile token before login and reset calls and sends it with them', async () => {
    // Cloudflare's documented test site key; the "always blocks" test secret keeps the server's answer
    // the same whether or not siteverify is reachable.
    await saveOptions(suite.server.url, suite.session, {
      TurnstileCheckEnabled: 'true',
      TurnstileSiteKey: '1x00000000000000000000AA',
      TurnstileSecretKey: '2x0000000000000000000000000000000AA',
    })
    try {
      // The widget has not produced a token yet: nothing is sent.
      const pending = await openPage(suite.browser, { baseURL: suite.server.url })
      const script = await useTurnstileStandIn(pending.page, false)
      const logins: string[] = []
      pending.page.on('request', (req) => req.url().includes('/api/user/login') && logins.push(req.url()))
      await pending.page.goto('/login')
      await pending.page.locator('[data-fake-turnstile="1x00000000000000000000AA"]').waitFor()
      expect(script.loads()).toBe(1)
      await pending.page.locator('input[name="username"]').fill(member.username)
      await pending.page.locator('input[name="password"]').fill(member.password)
      await pending.page.getByRole('button', { name: 'Sign in', exact: true }).click()
      await pending.page.getByText('Turnstile checking, retry in a few seconds').waitFor()
      expect(logins).toEqual([])
      await pending.context.close()

      // With a token: it travels in the body; the failed attempt resets the widget for a new one.
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
      await useTurnstileStandIn(page, true)
      await page.goto('/login')
      await page.getByText('Verified: fake-token-1').waitFor()
      await shot(page, 'identity-login-turnstile-light')
      await page.locator('input[name="username"]').fill(member.username)
      await page.locator('input[name="password"]').fill(member.password)
      const first = page.waitForRequest((req) => req.url().endsWith('/api/user/login'))
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      expect((await first).postDataJSON()).toMatchObject({ username: member.username, turnstile: 'fake-token-1' })
      await page.getByText('Error: Turnstile verification failed').waitFor()
      await page.getByText('Verified: fake-token-2').waitFor()
      const second = page.waitForRequest((req) => req.url().endsWith('/api/user/login'))
      await page.getByRole('button', { name: 'Sign in', exact: true }).click()
      expect((await second).postDataJSON()).toMatchObject({ turnstile: 'fake-token-2' })

      // The reset mail request carries it in the query.
      await page.goto('/reset')
      await page.getByText(/Verified: fake-token-\d+/).waitFor()
      await page.locator('input[name="email"]').fill('member@example.com')
      const reset = page.waitForRequest((req) => req.url().includes('/api/reset_password?'))
      await page.getByRole('button', { name: 'Send reset email' }).click()
      expect(new URL((await reset).url()).searchParams.get('turnstile')).toMatch(/^fake-token-\d+$/)
      await page.getByText('Error: Turnstile verification failed').waitFor()
      await context.close()
    } finally {
      await saveOptions(suite.server.url, suite.session, { TurnstileCheckEnabled: 'false' })
    }
  })
})
