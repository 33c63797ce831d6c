/**
 * Settings page (root) on the shared server: edits in several sections take effect (system name in
 * the top bar and title, currency display on the profile, registration closed on the register
 * page, a chat link added), survive a reload, a secret is write-only (empty field + "Configured",
 * never returned by GET /api/option/), invalid JSON stays in the form, the server's refusal of a
 * login method without credentials shows under its switch, the output limits and image ratios the
 * reservation reads are saved, and a plain admin sees "root only".
 * Every option changed here is restored afterwards (other files share this server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

interface Option {
  key: string
  value: string
  secret: boolean
  configured?: boolean
}

const suffix = Date.now().toString(36)
const SYSTEM_NAME = `Settings E2E ${suffix}`
const CHAT_NAME = `E2E Chat ${suffix}`
const SECRET = `smtp-secret-${suffix}`
const ADMIN = { username: `setadm${suffix}`, password: 'admin-password-1' }

/** Full-page screenshot from the top (a scrolled page would show the sticky bars mid-page). */
async function shotTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await shot(page, name)
}

const byKey = (list: Option[]) => Object.fromEntries(list.map((o) => [o.key, o]))

async function signInAs(page: Page, account: { username: string; password: string }) {
  await page.goto('/login')
  await page.locator('input[name="username"]').fill(account.username)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL((url) => url.pathname.startsWith('/panel/'))
}

/** Clicks a section's save button and waits for the success toast. */
async function saveSection(page: Page, id: string) {
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
  await page.getByTestId(`settings-${id}-save`).click()
  expect((await saved).status()).toBe(200)
  await page.getByText('Saved successfully').first().waitFor()
}

describe('settings page', () => {
  const suite = useBrowser()
  let root: ApiSession
  let original: Record<string, Option>

  beforeAll(async () => {
    root = await rootSession()
    original = byKey(await root.ok<Option[]>('GET', '/api/option/'))
  })

  afterAll(async () => {
    // Put back every plain option that differs, and clear the secret if it was not set before.
    const now = byKey(await root.ok<Option[]>('GET', '/api/option/'))
    const restore: Record<string, string> = {}
    for (const [key, item] of Object.entries(original)) {
      if (!item.secret && now[key]?.value !== item.value) restore[key] = item.value
    }
    if (!original.SMTPToken?.configured && now.SMTPToken?.configured) restore.SMTPToken = ''
    if (Object.keys(restore).length) await root.ok('PUT', '/api/option/', { options: restore })
  })

  // First: it registers a user, which the next test closes.
  it('tells a plain administrator that only root can change settings', async () => {
    await (await userSession(ADMIN.username, ADMIN.password)).ok('GET', '/api/user/self')
    await root.ok('POST', '/api/user/manage', { username: ADMIN.username, action: 'promote' })
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP })
    await signInAs(page, ADMIN)
    await page.goto('/panel/setting')
    await page.getByTestId('settings-root-only').getByText('Only the super administrator can change settings').waitFor()
    expect(await page.getByTestId('settings-general').count()).toBe(0)
    await context.close()
  })

  it('saves sections that take effect, keeps them after a reload, and never reads a secret back', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInAs(page, SHARED_ROOT)
    await page.goto('/panel/setting')
    await page.getByTestId('settings-general').waitFor()
    await shotTop(page, 'settings-operation-light')

    // Other → name and logo: the top bar and the page title follow at once.
    await page.getByRole('tab', { name: 'Other' }).click()
    await page.waitForURL(/tab=other/)
    await page.locator('input[name="SystemName"]').fill(SYSTEM_NAME)
    await page.getByTestId('logo-preview').getByText(SYSTEM_NAME).waitFor()
    await saveSection(page, 'brand')
    await page.locator('header').getByText(SYSTEM_NAME).filter({ visible: true }).waitFor()
    await expect.poll(() => page.title()).toBe(SYSTEM_NAME)

    // The footer preview renders the HTML the way the footer does.
    const footer = page.getByTestId('settings-footer')
    await footer.getByRole('button', { name: 'Preview' }).click()
    await footer.locator('textarea[name="Footer"]').fill('Run by <a href="https://example.com">the e2e team</a>')
    await footer.getByTestId('content-preview').getByRole('link', { name: 'the e2e team' }).waitFor()
    await shotTop(page, 'settings-other-light')
    await footer.getByRole('button', { name: 'Discard changes' }).click()

    // Operation → general: quota display in points instead of dollars.
    await page.getByRole('tab', { name: 'Operation' }).click()
    const currency = page.getByRole('switch', { name: 'Show quota in US dollars' })
    if ((await currency.getAttribute('aria-checked')) === 'true') {
      await currency.click()
      await saveSection(page, 'general')
    }
    // The quota inputs switch to points.
    await page.getByTestId('settings-quota').getByText('in quota points').waitFor()

    // Chat links: a new row.
    const links = page.getByTestId('settings-chat-links')
    const rowsBefore = await links.getByTestId('chat-link-row').count()
    await links.getByTestId('chat-links-add').click()
    const row = links.getByTestId('chat-link-row').nth(rowsBefore)
    await row.getByRole('textbox', { name: 'Name' }).fill(CHAT_NAME)
    await row.getByRole('textbox', { name: 'URL template' }).fill('https://chat.example.com/#/?key={key}&server={server}')
    await saveSection(page, 'chat-links')

    // Rate: invalid JSON is refused in the form and nothing is sent.
    const rate = page.getByTestId('settings-rate')
    const ratio = rate.locator('textarea[name="GroupRatio"]')
    let puts = 0
    const countPut = (req: { url(): string; method(): string }) => {
      if (req.url().endsWith('/api/option/') && req.method() === 'PUT') puts += 1
    }
    page.on('request', countPut)
    await ratio.fill('{"default": 1,')
    await page.getByTestId('settings-rate-save').click()
    await rate.getByText('This is not valid JSON').waitFor()
    await ratio.fill('{"default": "cheap"}')
    await page.getByTestId('settings-rate-save').click()
    await rate.getByText('Every value must be a number of 0 or more').waitFor()
    page.off('request', countPut)
    expect(puts).toBe(0)
    expect(byKey(await root.ok<Option[]>('GET', '/api/option/')).GroupRatio!.value).toBe(original.GroupRatio!.value)
    await rate.getByRole('button', { name: 'Discard changes' }).click()

    // Payment: the minimum top-up must be a whole number of at least 1.
    const payment = page.getByTestId('settings-payment')
    await payment.locator('input[name="PaymentMinAmount"]').fill('0')
    await page.getByTestId('settings-payment-save').click()
    await payment.getByText('Must be between 1 and 1000000').waitFor()
    await payment.locator('input[name="PaymentMinAmount"]').fill('2.5')
    await page.getByTestId('settings-payment-save').click()
    await payment.getByText('Enter a whole number').waitFor()
    await payment.getByRole('button', { name: 'Discard changes' }).click()

    // System → registration closed; GitHub login without credentials is refused by the server.
    await page.getByRole('tab', { name: 'System' }).click()
    await page.waitForURL(/tab=system/)
    const login = page.getByTestId('settings-login')
    const register = login.getByRole('switch', { name: 'Allow new accounts' })
    if ((await register.getAttribute('aria-checked')) === 'true') {
      await register.click()
      await saveSection(page, 'login')
    }
    const github = login.getByRole('switch', { name: 'GitHub login' })
    if ((await github.getAttribute('aria-checked')) === 'false' && !original.GitHubClientSecret?.configured) {
      await github.click()
      await page.getByTestId('settings-login-save').click()
      await login.getByText('Cannot enable GitHub login').waitFor()
      await shotTop(page, 'settings-system-light')
      await login.getByRole('button', { name: 'Discard changes' }).click()
    }

    // SMTP: the port must be 1–65535; the token is write-only.
    const smtp = page.getByTestId('settings-smtp')
    await smtp.locator('input[name="SMTPPort"]').fill('70000')
    await page.getByTestId('settings-smtp-save').click()
    await smtp.getByText('Must be between 1 and 65535').waitFor()
    await smtp.locator('input[name="SMTPPort"]').fill(original.SMTPPort!.value)
    await smtp.locator('input[name="SMTPToken"]').fill(SECRET)
    await saveSection(page, 'smtp')
    await smtp.getByTestId('secret-SMTPToken-status').getByText('Configured').waitFor()
    await expect.poll(() => smtp.locator('input[name="SMTPToken"]').inputValue()).toBe('')

    // Everything is still there after a reload.
    await page.reload()
    await page.getByTestId('settings-smtp').waitFor()
    expect(await page.locator('input[name="SMTPToken"]').inputValue()).toBe('')
    await page.getByTestId('secret-SMTPToken-status').getByText('Configured').waitFor()
    expect(await page.getByRole('switch', { name: 'Allow new accounts' }).getAttribute('aria-checked')).toBe('false')
    await page.getByRole('tab', { name: 'Operation' }).click()
    expect(await page.getByRole('switch', { name: 'Show quota in US dollars' }).getAttribute('aria-checked')).toBe('false')
    await expect.poll(() => page.getByTestId('settings-chat-links').locator(`input[value="${CHAT_NAME}"]`).count()).toBe(1)
    await page.getByRole('tab', { name: 'Other' }).click()
    expect(await page.locator('input[name="SystemName"]').inputValue()).toBe(SYSTEM_NAME)

    // The API never returns the secret, only that it is configured.
    const res = await fetch(`${root.base}/api/option/`, { headers: { cookie: root.cookieHeader() } })
    const text = await res.text()
    expect(text).not.toContain(SECRET)
    const listed = byKey((JSON.parse(text) as { data: Option[] }).data)
    expect(listed.SMTPToken).toMatchObject({ value: '', secret: true, configured: true })
    expect(JSON.parse(listed.ChatLinks!.value)).toContainEqual({
      name: CHAT_NAME,
      url: 'https://chat.example.com/#/?key={key}&server={server}',
      show: true,
      sort: expect.any(Number),
    })

    // "Clear" (confirmed) removes the secret at once.
    if (original.EmailVerificationEnabled?.value !== 'true') {
      await page.getByRole('tab', { name: 'System' }).click()
      await page.getByTestId('secret-SMTPToken-clear').click()
      const dialog = page.getByRole('alertdialog')
      await dialog.getByRole('button', { name: 'Clear' }).click()
      await dialog.waitFor({ state: 'detached' })
      await page.getByTestId('secret-SMTPToken-status').getByText('Not set').waitFor()
      expect(byKey(await root.ok<Option[]>('GET', '/api/option/')).SMTPToken).toMatchObject({ value: '', configured: false })
    }

    // The currency switch shows on the profile: points, not dollars.
    await page.goto('/panel/profile')
    const balance = page.getByTestId('profile-balance')
    await balance.waitFor()
    expect(await balance.innerText()).not.toMatch(/^\$/)

    // Dark theme and phone width.
    await page.goto('/panel/setting?tab=system')
    await page.getByTestId('settings-smtp').waitFor()
    await page.getByTestId('theme-toggle').click()
    await shotTop(page, 'settings-system-dark')
    await context.close()

    // Signed out: the register page says registration is closed.
    const visitor = await openPage(suite.browser, { baseURL: root.base })
    await visitor.page.goto('/register')
    await visitor.page.getByText('New registrations are currently closed by the administrator.').waitFor()
    await visitor.context.close()
  }, 180_000)

  it('edits the output limits, prompt margins and image price ratios the reservation reads', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInAs(page, SHARED_ROOT)
    await page.goto('/panel/setting?tab=operation')
    const section = page.getByTestId('settings-limits')
    await section.waitFor()
    const ratios = section.locator('textarea[name="ImagePriceRatios"]')
    await ratios.fill('{"dall-e-3": 2}')
    await page.getByTestId('settings-limits-save').click()
    await section.getByText('Must be a JSON object, for example').waitFor()
    await ratios.fill('{"dall-e-3": {"hd|1024x1024": 2.5}}')
    await section.locator('textarea[name="ModelOutputLimits"]').fill('{"e2e-model*": 2048}')
    await section.locator('textarea[name="PromptEstimateMargins"]').fill('{"e2e-model*": 1.5}')
    await saveSection(page, 'limits')
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'settings-limits-light')
    await page.reload()
    await expect.poll(async () => JSON.parse(await page.getByTestId('settings-limits').locator('textarea[name="ModelOutputLimits"]').inputValue())).toEqual({ 'e2e-model*': 2048 })
    const saved = byKey(await root.ok<Option[]>('GET', '/api/option/'))
    expect(JSON.parse(saved.ImagePriceRatios!.value)).toEqual({ 'dall-e-3': { 'hd|1024x1024': 2.5 } })
    expect(JSON.parse(saved.PromptEstimateMargins!.value)).toEqual({ 'e2e-model*': 1.5 })
    await context.close()
  })

  it('fits a phone screen', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE })
    await presetTheme(page, 'light')
    await signInAs(page, SHARED_ROOT)
    await page.goto('/panel/setting?tab=operation')
    await page.getByTestId('settings-chat-links').waitFor()
    // Nothing but the chat links table (which scrolls inside its card) is wider than the screen.
    await expectNoOverflow(page)
    await shotTop(page, 'settings-operation-phone')
    await page.getByRole('tab', { name: 'Other' }).click()
    await page.getByTestId('settings-brand').waitFor()
    await shotTop(page, 'settings-other-phone')
    await page.getByRole('tab', { name: 'System' }).click()
    await page.getByTestId('settings-github').waitFor()
    await page.getByTestId('theme-toggle').click()
    await shotTop(page, 'settings-system-phone-dark')
    await context.close()
  })
})
