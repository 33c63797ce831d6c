/**
 * Signing in with external accounts, in the browser against a private gateway and local stand-ins
 * for the providers (console/e2e/support/identity.ts): every enabled method on the login page, OIDC
 * login (the browser follows the real redirects), a failing callback retried with a count and then
 * sent back to /login, WeChat login with codes from a fake WeChat server, and the question before an
 * external login switches a signed-in browser to another account.
 */
import { describe, expect, it } from 'vitest'
import { PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { THEMES, root, themedPage, useIdentityProviders } from './support/identity'
import { useFreshGateway } from './support/suite'

describe('signing in with external accounts', () => {
  const suite = useFreshGateway(root)
  const idp = useIdentityProviders(suite)

  it('shows every enabled method on the login page and signs a new user in with OIDC', async () => {
    for (const variant of THEMES) {
      const { context, page } = await themedPage(suite.browser, suite.server.url, variant)
      await page.goto('/login')
      for (const method of ['github', 'oidc', 'lark', 'wechat']) await page.getByTestId(`oauth-${method}`).waitFor()
      await expectNoOverflow(page)
      await shot(page, `identity-login-${variant.name}`)
      await context.close()
    }

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    const cloudflare: string[] = []
    page.on('request', (req) => req.url().includes('challenges.cloudflare.com') && cloudflare.push(req.url()))
    // GitHub and Lark leave for the provider with a fresh state (the pages themselves are not reachable here).
    await page.goto('/login')
    const github = page.waitForRequest((req) => req.url().startsWith('https://github.com/login/oauth/authorize'))
    await page.route('https://github.com/**', (route) => route.fulfill({ body: 'github' }))
    await page.getByTestId('oauth-github').click()
    const githubUrl = new URL((await github).url())
    expect(githubUrl.searchParams.get('client_id')).toBe('Iv1.console-e2e')
    expect(githubUrl.searchParams.get('scope')).toBe('user:email')
    expect(githubUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)
    await page.goto('/login')
    await page.route('https://open.feishu.cn/**', (route) => route.fulfill({ body: 'lark' }))
    const lark = page.waitForRequest((req) => req.url().startsWith('https://open.feishu.cn/open-apis/authen/v1/authorize'))
    await page.getByTestId('oauth-lark').click()
    const larkUrl = new URL((await lark).url())
    expect(larkUrl.searchParams.get('app_id')).toBe('cli_console_e2e')
    expect(larkUrl.searchParams.get('redirect_uri')).toBe(`${suite.server.url}/oauth/lark`)
    expect(larkUrl.searchParams.get('state')).toMatch(/^[A-Za-z0-9]{32}$/)

    idp.claims = { sub: 'oidc-sub-newbie', preferred_username: 'oidcnewbie', email: 'oidcnewbie@idp.test', email_verified: true, name: 'OIDC Newbie' }
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with OIDC' }).click()
    // Login page → provider's /authorize → /oauth/oidc?code&state → /panel.
    await page.waitForURL('**/panel/dashboard')
    await page.goto('/panel/profile')
    await page.getByTestId('profile-username').getByText('@oidcnewbie').waitFor()
    const row = page.locator('[data-testid="binding-oidc"][data-bound="true"]')
    await row.getByText('oidc-sub-newbie').waitFor()
    await page.locator('[data-testid="binding-email"][data-bound="true"]').getByText('oidcnewbie@idp.test').waitFor()

    // Without a password, unbinding the only method would lock the account out: the server's message shows.
    await page.getByTestId('unbind-email').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unbind' }).click()
    await page.getByText('Unbound successfully').first().waitFor()
    await page.locator('[data-testid="binding-email"][data-bound="false"]').waitFor()
    // The first confirmation has closed before the next one opens (as it does for a person).
    await page.getByRole('alertdialog').waitFor({ state: 'detached' })
    await page.getByTestId('unbind-oidc').click()
    await page.getByRole('alertdialog').getByText('Unbind OIDC?').waitFor()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unbind' }).click()
    await page.getByText(/Error: Cannot unbind OIDC: it is the only way to sign in/).waitFor()
    await page.locator('[data-testid="binding-oidc"][data-bound="true"]').waitFor()
    // Turnstile is off: its script was never requested.
    expect(cloudflare).toEqual([])
    await context.close()
  })

  it('retries a failing callback with a visible count, then returns to /login', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    const calls: string[] = []
    page.on('request', (req) => req.url().includes('/api/oauth/oidc?') && calls.push(req.url()))
    await page.goto(`/oauth/oidc?code=12345&state=${'Z'.repeat(32)}`)
    const error = page.getByTestId('oauth-error')
    await error.getByText('Invalid or expired state; please start the sign-in again').waitFor()
    await page
      .getByTestId('oauth-retry')
      .getByText(/Retry 1 of 3/)
      .waitFor()
    await shot(page, 'identity-callback-retry-light')
    await page
      .getByTestId('oauth-retry')
      .getByText(/Retry 2 of 3/)
      .waitFor()
    await page
      .getByTestId('oauth-retry')
      .getByText(/Retry 3 of 3/)
      .waitFor({ timeout: 15_000 })
    await error.getByText('Sign-in failed').waitFor({ timeout: 15_000 })
    await page.getByTestId('oauth-give-up').getByText('Returning to the sign-in page').waitFor()
    await page.waitForURL('**/login', { timeout: 15_000 })
    // The first attempt and three retries, each with the code as sent (a numeric code stays text).
    expect(calls).toHaveLength(4)
    expect(new URL(calls[0]!).searchParams.get('code')).toBe('12345')
    await context.close()

    // A provider that sent the user back without a code (cancelled) also ends on /login.
    const cancelled = await openPage(suite.browser, { baseURL: suite.server.url, viewport: PHONE })
    await presetTheme(cancelled.page, 'dark')
    await cancelled.page.goto('/oauth/github?error=access_denied&error_description=The+user+has+denied+your+application+access.')
    await cancelled.page.getByText('The sign-in was cancelled or the provider sent no authorization code.').waitFor()
    await cancelled.page.getByText('The user has denied your application access.').waitFor()
    await shot(cancelled.page, 'identity-callback-cancelled-phone-dark')
    await cancelled.page.waitForURL('**/login')
    await cancelled.context.close()
  })

  it('signs in with a WeChat code typed into the dialog', async () => {
    for (const variant of THEMES) {
      const { context, page } = await themedPage(suite.browser, suite.server.url, variant)
      await page.goto('/login')
      await page.getByTestId('oauth-wechat').click()
      const dialog = page.getByTestId('wechat-dialog')
      await dialog.getByTestId('wechat-qrcode').waitFor()
      expect(await dialog.getByTestId('wechat-qrcode').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      await shot(page, `identity-wechat-dialog-${variant.name}`)
      await context.close()
    }

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    idp.wechatCodes.set('424242', 'openid-newcomer')
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with WeChat' }).click()
    await page.getByTestId('wechat-dialog').getByText('Scan the QR code with WeChat').waitFor()
    const dialog = page.getByTestId('wechat-dialog')
    await dialog.getByRole('button', { name: 'Sign in' }).click()
    await dialog.getByText('This field is required').waitFor()
    await dialog.locator('input[name="code"]').fill('000000')
    await dialog.getByRole('button', { name: 'Sign in' }).click()
    await page.getByText('Error: WeChat login failed: verification code is wrong or expired').waitFor()
    await dialog.locator('input[name="code"]').fill('424242')
    await dialog.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/panel/dashboard')
    await page.goto('/panel/profile')
    await page.locator('[data-testid="binding-wechat"][data-bound="true"]').getByText('openid-newcomer').waitFor()
    await context.close()
  })

  it('asks before an external login switches a signed-in browser to another account (issue 12)', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    idp.claims = { sub: 'oidc-sub-switch', preferred_username: 'oidcswitch', email: 'oidcswitch@idp.test', email_verified: true, name: 'OIDC Switch' }
    // The flow starts signed out; hold the provider's redirect back (code and state) for later.
    // (A route sees only the first request of a redirect chain: ask the provider ourselves, without following.)
    let callbackUrl = ''
    const isAuthorize = (url: URL) => url.href.startsWith(idp.oidc.issuer.url!) && url.pathname.endsWith('/authorize')
    await page.route(isAuthorize, async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 })
      callbackUrl = answer.headers().location ?? ''
      await route.abort()
    })
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in with OIDC' }).click()
    await expect.poll(() => callbackUrl, { timeout: 30_000 }).toContain('/oauth/oidc?')
    await page.unroute(isAuthorize)
    // Meanwhile this browser signs in with a password; then the callback arrives.
    await signIn(page, root)
    await page.goto(callbackUrl)
    const dialog = page.getByTestId('switch-account-dialog')
    await dialog.getByText('Switch account?').waitFor()
    await dialog.getByText(`You are signed in as ${root.username}.`, { exact: false }).waitFor()
    await shot(page, 'identity-switch-account')
    // Nothing changed yet: the session is still root's.
    expect((await (await context.request.get(`${suite.server.url}/api/user/self`)).json()).data.username).toBe(root.username)
    await dialog.getByTestId('switch-account-confirm').click()
    await page.waitForURL('**/panel/dashboard')
    expect((await (await context.request.get(`${suite.server.url}/api/user/self`)).json()).data.username).toBe('oidcswitch')
    await context.close()
  })
})
