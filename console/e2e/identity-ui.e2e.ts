/**
 * Sign-in methods in the browser against a private gateway and local stand-ins for the providers:
 * OIDC login through oauth2-mock-server (the browser follows the real redirects), binding and
 * unbinding from the profile, a failing callback retried with a count and then sent back to
 * /login, WeChat login and binding with codes from a fake WeChat server, email binding with a
 * code mailed to a local SMTP server, the login and register pages following the login settings,
 * and Turnstile with a stand-in widget script (challenges.cloudflare.com is out of reach here).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OAuth2Server } from 'oauth2-mock-server'
import type { Browser, Page } from 'playwright-core'
import { startSmtpCapture, type SmtpCapture } from '../../worker/test/smtp-capture'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { saveOptions } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

const root = { username: 'identityroot', password: 'identity-root-1' }
const member = { username: 'idmember', password: 'id-member-pass-1' }
const CLIENT_ID = 'console-e2e'
const CLIENT_SECRET = 'console-e2e-secret'
const WECHAT_TOKEN = 'console-e2e-wechat'
const SMTP = { username: 'mailer@identity.test', password: 'smtp-pass' }

/** A QR-looking picture (finder squares and a fixed pattern) as a data URL, which the CSP allows. */
function fakeQrCode(): string {
  const cells: string[] = []
  for (let y = 0; y < 21; y++) {
    for (let x = 0; x < 21; x++) {
      const finder = (x < 7 && y < 7) || (x > 13 && y < 7) || (x < 7 && y > 13)
      const on = finder ? Math.max(Math.abs((x % 14) - 3), Math.abs((y % 14) - 3)) !== 2 : (x * 7 + y * 13 + ((x * y) % 5)) % 3 === 0
      if (on) cells.push(`<rect x="${x}" y="${y}" width="1" height="1"/>`)
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 23 23"><rect x="-1" y="-1" width="23" height="23" fill="#fff"/><g fill="#111">${cells.join('')}</g></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/**
 * Stands in for https://challenges.cloudflare.com/turnstile/v0/api.js: a `turnstile` object that
 * draws a box and, when `solve` is on, hands out fake-token-1, fake-token-2, … (one per render or reset).
 */
function fakeTurnstileScript(solve: boolean): string {
  return `(() => {
    let issued = 0
    const widgets = {}
    const solveSoon = (id) => setTimeout(() => {
      const w = widgets[id]
      if (!w) return
      const token = 'fake-token-' + ++issued
      w.label.textContent = 'Verified: ' + token
      w.opts.callback && w.opts.callback(token)
    }, 150)
    window.turnstile = {
      render(el, opts) {
        const id = 'w' + Object.keys(widgets).length
        const box = document.createElement('div')
        box.setAttribute('data-fake-turnstile', opts.sitekey)
        box.style.cssText = 'width:300px;height:65px;border:1px solid #8884;border-radius:6px;display:flex;align-items:center;padding:0 16px;font:14px sans-serif;color:#888'
        const label = document.createElement('span')
        label.textContent = 'Verifying you are human…'
        box.appendChild(label)
        el.appendChild(box)
        widgets[id] = { el, box, label, opts }
        ${solve ? 'solveSoon(id)' : ''}
        return id
      },
      reset(id) {
        const w = widgets[id]
        if (!w) return
        w.label.textContent = 'Verifying you are human…'
        ${solve ? 'solveSoon(id)' : ''}
      },
      remove(id) {
        const w = widgets[id]
        if (w) w.box.remove()
        delete widgets[id]
      },
    }
  })()`
}

async function useTurnstileStandIn(page: Page, solve: boolean): Promise<{ loads: () => number }> {
  let loads = 0
  await page.route('https://challenges.cloudflare.com/turnstile/v0/api.js*', (route) => {
    loads++
    return route.fulfill({ contentType: 'application/javascript', body: fakeTurnstileScript(solve) })
  })
  return { loads: () => loads }
}

/** Screenshot variants; the steps inside use test ids, so the Chinese one runs them too. */
const THEMES = [
  { name: 'light', viewport: DESKTOP, theme: 'light', locale: 'en-US' },
  { name: 'dark', viewport: DESKTOP, theme: 'dark', locale: 'en-US' },
  { name: 'phone', viewport: PHONE, theme: 'light', locale: 'en-US' },
  { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark', locale: 'zh-CN' },
] as const

async function themedPage(browser: Browser, baseURL: string, variant: (typeof THEMES)[number]) {
  const opened = await openPage(browser, { baseURL, viewport: variant.viewport, locale: variant.locale })
  await presetTheme(opened.page, variant.theme)
  return opened
}

/** The page has no horizontal scroll bar (phone width included); names the elements sticking out if it has. */
async function expectNoOverflow(page: Page) {
  const wider = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth <= width) return []
    return Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)} → ${el.getBoundingClientRect().right}`)
  })
  expect(wider, wider.join('\n')).toEqual([])
}

describe('sign-in methods and account binding', () => {
  const suite = useFreshGateway(root)
  let oidc: OAuth2Server
  let smtp: SmtpCapture
  let wechat: http.Server
  /** Codes the fake WeChat server accepts: code → openid. */
  const wechatCodes = new Map<string, string>()
  /** Claims the OIDC provider puts into the next tokens it signs. */
  let claims: Record<string, unknown> = {}

  beforeAll(async () => {
    oidc = new OAuth2Server()
    await oidc.issuer.keys.generate('RS256')
    await oidc.start(0, '127.0.0.1')
    oidc.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => Object.assign(token.payload, claims))
    smtp = await startSmtpCapture(SMTP)
    wechat = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      res.setHeader('content-type', 'application/json')
      if (url.pathname !== '/api/wechat/user' || req.headers.authorization !== WECHAT_TOKEN) return res.writeHead(401).end('{}')
      const openid = wechatCodes.get(url.searchParams.get('code') ?? '')
      res.end(JSON.stringify(openid ? { success: true, message: '', data: openid } : { success: false, message: 'verification code is wrong or expired' }))
    })
    await new Promise<void>((resolve) => wechat.listen(0, '127.0.0.1', resolve))
    await saveOptions(suite.server.url, suite.session, {
      OIDCIssuer: oidc.issuer.url!,
      OIDCClientId: CLIENT_ID,
      OIDCClientSecret: CLIENT_SECRET,
      OIDCAuthEnabled: 'true',
      WeChatServerAddress: `http://127.0.0.1:${(wechat.address() as AddressInfo).port}`,
      WeChatServerToken: WECHAT_TOKEN,
      WeChatAccountQRCodeImageURL: fakeQrCode(),
      WeChatAuthEnabled: 'true',
      GitHubClientId: 'Iv1.console-e2e',
      GitHubClientSecret: 'github-secret',
      GitHubOAuthEnabled: 'true',
      LarkClientId: 'cli_console_e2e',
      LarkClientSecret: 'lark-secret',
      LarkAuthEnabled: 'true',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: SMTP.username,
      SMTPToken: SMTP.password,
      SMTPFrom: 'noreply@identity.test',
    })
  })

  afterAll(async () => {
    await oidc?.stop()
    await smtp?.stop()
    await new Promise<void>((resolve) => (wechat ? wechat.close(() => resolve()) : resolve()))
  })

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

    claims = { sub: 'oidc-sub-newbie', preferred_username: 'oidcnewbie', email: 'oidcnewbie@idp.test', email_verified: true, name: 'OIDC Newbie' }
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

  it('binds and unbinds OIDC, WeChat and an email from the profile of a password user', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/register')
    await page.getByTestId('oauth-buttons').getByText('or sign up with').waitFor()
    const form = page.locator('form')
    await form.locator('input[name="username"]').fill(member.username)
    await form.locator('input[name="password"]').fill(member.password)
    await form.locator('input[name="confirm_password"]').fill(member.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL('**/login')
    await signIn(page, member)
    await page.goto('/panel/profile')
    for (const key of ['email', 'github', 'oidc', 'wechat', 'lark']) await page.locator(`[data-testid="binding-${key}"][data-bound="false"]`).waitFor()
    // No Telegram bot is configured, so no Telegram row.
    expect(await page.getByTestId('binding-telegram').count()).toBe(0)

    // OIDC: profile → provider → /oauth/oidc → message 'bind' → back on the profile, same session.
    claims = { sub: 'oidc-sub-member', preferred_username: 'someone-else', email: 'member@idp.test' }
    const callback = page.waitForResponse((res) => res.url().includes('/api/oauth/oidc?'))
    await page.getByRole('button', { name: 'Bind OIDC' }).click()
    expect(await (await callback).json()).toMatchObject({ success: true, message: 'bind' })
    await page.waitForURL('**/panel/profile')
    await page.getByText('Bound successfully').first().waitFor()
    await page.locator('[data-testid="binding-oidc"][data-bound="true"]').getByText('oidc-sub-member').waitFor()
    await page.getByTestId('profile-username').getByText(`@${member.username}`).waitFor()

    await page.getByTestId('unbind-oidc').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Unbind' }).click()
    await page.getByText('Unbound successfully').first().waitFor()
    await page.locator('[data-testid="binding-oidc"][data-bound="false"]').waitFor()

    // WeChat: a wrong code is refused, the right one binds.
    wechatCodes.set('515151', 'openid-member')
    await page.getByRole('button', { name: 'Bind WeChat' }).click()
    const wechatDialog = page.getByTestId('wechat-dialog')
    await wechatDialog.getByTestId('wechat-qrcode').waitFor()
    await wechatDialog.locator('input[name="code"]').fill('999999')
    await wechatDialog.getByRole('button', { name: 'Bind WeChat' }).click()
    await page.getByText('Error: WeChat login failed: verification code is wrong or expired').waitFor()
    await wechatDialog.locator('input[name="code"]').fill('515151')
    await wechatDialog.getByRole('button', { name: 'Bind WeChat' }).click()
    await wechatDialog.waitFor({ state: 'detached' })
    await page.locator('[data-testid="binding-wechat"][data-bound="true"]').getByText('openid-member').waitFor()

    // Email: send a code (60 s countdown), type it from the mail, bound.
    const address = 'member@example.com'
    await page.getByRole('button', { name: 'Bind Email' }).click()
    const emailDialog = page.getByTestId('email-bind-dialog')
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await emailDialog.getByText('Please enter a valid email address').waitFor()
    await emailDialog.locator('input[name="email"]').fill(address)
    await emailDialog.getByRole('button', { name: 'Send code' }).click()
    await page.getByText('Verification code sent, please check your inbox').waitFor()
    await emailDialog.getByRole('button', { name: /Resend in \d+ s/ }).waitFor()
    await expect.poll(() => smtp.to(address).length).toBeGreaterThan(0)
    const code = /verification code is: (\S+)/.exec(smtp.to(address).at(-1)!.text)?.[1]
    expect(code).toBeTruthy()
    await emailDialog.locator('input[name="code"]').fill('WRONG1')
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await emailDialog.getByText('is invalid or expired').waitFor()
    await emailDialog.locator('input[name="code"]').fill(code!)
    await emailDialog.getByRole('button', { name: 'Bind email' }).click()
    await page.getByText('Email bound').first().waitFor()
    await page.locator('[data-testid="binding-email"][data-bound="true"]').getByText(address).waitFor()
    await context.close()

    for (const variant of THEMES) {
      const opened = await themedPage(suite.browser, suite.server.url, variant)
      await signIn(opened.page, member)
      await opened.page.goto('/panel/profile')
      await opened.page.locator('[data-testid="binding-wechat"][data-bound="true"]').waitFor()
      await expectNoOverflow(opened.page)
      await shot(opened.page, `identity-profile-bindings-${variant.name}`)
      if (variant.name !== 'dark') {
        await opened.page.getByTestId('change-email').click()
        await opened.page.getByTestId('email-bind-dialog').locator('input[name="email"]').waitFor()
        await shot(opened.page, `identity-email-dialog-${variant.name}`)
      }
      await opened.context.close()
    }
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
    wechatCodes.set('424242', 'openid-newcomer')
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
    claims = { sub: 'oidc-sub-switch', preferred_username: 'oidcswitch', email: 'oidcswitch@idp.test', email_verified: true, name: 'OIDC Switch' }
    // The flow starts signed out; hold the provider's redirect back (code and state) for later.
    // (A route sees only the first request of a redirect chain: ask the provider ourselves, without following.)
    let callbackUrl = ''
    const isAuthorize = (url: URL) => url.href.startsWith(oidc.issuer.url!) && url.pathname.endsWith('/authorize')
    await page.route(isAuthorize, async (route) => {
      const answer = await route.fetch({ maxRedirects: 0 })
      callbackUrl = answer.headers()['location'] ?? ''
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
