/**
 * The alerts page (issue 32) on the shared server: root opens Settings → Alerts from the menu,
 * adds a webhook channel through the dialog (URL of a receiver in this test, a secret, one event),
 * sends a test notice that the receiver gets signed, and reads it in the channel's delivery log;
 * the secret never reaches the page. An administrator has no menu entry. Screenshots: light and
 * dark (desktop), phone, zh_CN.
 */
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const NAME = `ops-${suffix}`
const SECRET = `whsec-console-${suffix}`

/** Signed in through the API (many UI sign-ins would meet the login rate limit): the cookie plus the profile the console keeps. */
async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

describe('alerts page', () => {
  const suite = useBrowser()
  let root: ApiSession
  let server: Server
  let url = ''
  const received: { raw: string; signature: string }[] = []

  beforeAll(async () => {
    root = await rootSession()
    server = createServer((req, res) => {
      let raw = ''
      req.on('data', (c) => (raw += c))
      req.on('end', () => {
        received.push({ raw, signature: String(req.headers['x-signature'] ?? '') })
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  })

  afterAll(async () => {
    const channels = (await root?.ok<{ id: number; name: string }[]>('GET', '/api/notify/channel/')) ?? []
    for (const c of channels.filter((c) => c.name === NAME)) await root.call('DELETE', `/api/notify/channel/${c.id}`)
    await new Promise((r) => server?.close(r))
  })

  it('adds a webhook channel, sends a test and shows the delivery (light, dark)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP })
      await signIn(page, context, root)
      await presetTheme(page, theme)
      await page.goto('/panel/dashboard')
      await page.getByTestId('console-nav').getByRole('link', { name: 'Alerts' }).click()
      await page.waitForURL('**/panel/notify')
      await page.getByRole('heading', { name: 'Alerts' }).waitFor()
      if (theme === 'light') {
        await page.getByTestId('notify-create').click()
        const dialog = page.getByTestId('notify-channel-dialog')
        await dialog.locator('input[name="name"]').fill(NAME)
        await dialog.locator('input[name="url"]').fill(url)
        await dialog.locator('input[name="secret"]').fill(SECRET)
        await dialog.getByTestId('notify-event-channel.disabled').click()
        await shot(page, 'notify-dialog')
        await dialog.getByTestId('notify-channel-save').click()
        await dialog.waitFor({ state: 'detached' })
      }
      const row = page.locator('tbody tr', { hasText: NAME })
      await row.waitFor()
      expect(await row.textContent()).toContain('channel.disabled')
      expect(await page.content()).not.toContain(SECRET)
      const before = received.length
      await row.getByRole('button', { name: 'Send test' }).click()
      await expect.poll(() => received.length).toBe(before + 1)
      const got = received.at(-1)!
      expect(JSON.parse(got.raw)).toMatchObject({ event: 'test', severity: 'info' })
      expect(got.signature).toBe(createHmac('sha256', SECRET).update(got.raw).digest('hex'))
      await row.getByRole('button', { name: 'Delivery log' }).click()
      const log = page.getByTestId('notify-deliveries')
      await log.waitFor()
      await expect.poll(async () => (await log.locator('tbody tr').first().textContent()) ?? '').toContain('Delivered')
      await shot(page, `notify-${theme}`)
      await context.close()
    }
  })

  it('fits a phone and reads in Chinese', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE })
    await signIn(page, context, root)
    await page.goto('/panel/notify')
    await page.locator('tbody tr', { hasText: NAME }).waitFor()
    await expectNoOverflow(page)
    await shot(page, 'notify-phone')
    await context.close()

    const zh = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP, locale: 'zh-CN' })
    await signIn(zh.page, zh.context, root)
    await zh.page.goto('/panel/notify')
    await zh.page.getByRole('heading', { name: '告警通知' }).waitFor()
    await zh.page.getByText('发送测试').first().waitFor()
    await shot(zh.page, 'notify-zh')
    await zh.context.close()
  })

  it('is not offered to an administrator', async () => {
    const name = `ntfadm${suffix}`
    await userSession(name, 'admin-password-1')
    await root.ok('POST', '/api/user/manage', { username: name, action: 'promote' })
    const admin = await userSession(name, 'admin-password-1')
    const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP })
    await signIn(page, context, admin)
    await page.goto('/panel/dashboard')
    await page.getByTestId('console-nav').waitFor()
    expect(await page.getByTestId('console-nav').getByRole('link', { name: 'Alerts' }).count()).toBe(0)
    await page.goto('/panel/notify')
    await page.waitForURL((u) => !u.pathname.startsWith('/panel/notify'))
    await context.close()
  })
})
