/**
 * The root system page (issue 32) on the shared server: root opens it from the menu and sees the
 * version, the cron jobs, channel health, the database, reachability (KV, Durable Objects, D1 all
 * reachable), telemetry and the environment check; an administrator has no menu entry, is sent
 * away from the page and gets 403 from its API. Root also sets the OTLP collector on the settings
 * page (sample rate 0, so other files on the shared server are not traced) and the page's "Send a
 * test span" reaches a local receiver. Screenshots: light and dark (desktop), phone, zh_CN.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const ADMIN = { username: `sysadm${suffix}`, password: 'admin-password-1' }

/** Signed in through the API: the cookie plus the profile the console keeps. */
async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

describe('system page', () => {
  const suite = useBrowser()
  let root: ApiSession
  let admin: ApiSession

  let receiver: Server
  const received: string[] = []

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => {
        body += c
      })
      req.on('end', () => {
        received.push(`${req.url} ${body}`)
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    root = await rootSession()
    await userSession(ADMIN.username, ADMIN.password)
    await root.ok('POST', '/api/user/manage', { username: ADMIN.username, action: 'promote' })
    admin = await userSession(ADMIN.username, ADMIN.password)
  })

  it('shows every card to root, from the menu (light, dark)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP })
      await signIn(page, context, root)
      await presetTheme(page, theme)
      await page.goto('/panel/dashboard')
      await page.getByTestId('console-nav').getByRole('link', { name: 'System' }).click()
      await page.waitForURL('**/panel/system')
      await page.getByRole('heading', { name: 'System', exact: true }).waitFor()
      await page.getByTestId('system-page').waitFor()
      for (const card of ['system-version', 'system-cron', 'system-health', 'system-database', 'system-telemetry', 'system-alerts', 'system-environment']) {
        expect(await page.getByTestId(card).count(), card).toBe(1)
      }
      const env = page.getByTestId('system-environment')
      await expect.poll(async () => (await env.getByText(/^OK · \d+ ms$/).count()) >= 3).toBe(true)
      expect(await page.getByTestId('system-cron').textContent()).toContain('*/5 * * * *')
      await shot(page, `system-${theme}`)
      await context.close()
    }
  })

  it('fits a phone and reads in Chinese', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE })
    await signIn(page, context, root)
    await page.goto('/panel/system')
    await page.getByTestId('system-cron').waitFor()
    await expectNoOverflow(page)
    await shot(page, 'system-phone')
    await context.close()

    const zh = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP, locale: 'zh-CN' })
    await signIn(zh.page, zh.context, root)
    await zh.page.goto('/panel/system')
    await zh.page.getByRole('heading', { name: '系统', exact: true }).waitFor()
    // The cards, not the description (which names them too): the report has loaded.
    await zh.page.getByTestId('system-alerts').getByText('告警', { exact: true }).waitFor()
    await shot(zh.page, 'system-zh')
    await zh.context.close()
  })

  afterAll(async () => {
    await root?.ok('PUT', '/api/option/', { options: { OtlpEndpoint: '', OtlpSampleRate: '1' } })
    await new Promise((resolve) => receiver.close(resolve))
  })

  it('sets the collector on the settings page and sends a test span from the system page', async () => {
    const { port } = receiver.address() as AddressInfo
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP })
    await signIn(page, context, root)
    await page.goto('/panel/setting?tab=system')
    const card = page.getByTestId('settings-traces')
    await card.waitFor()
    await card.locator('input[name="OtlpEndpoint"]').fill(`http://127.0.0.1:${port}`)
    await card.locator('input[name="OtlpSampleRate"]').fill('0')
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
    await page.getByTestId('settings-traces-save').click()
    expect((await saved).status()).toBe(200)
    await page.goto('/panel/system')
    const telemetry = page.getByTestId('system-telemetry')
    await telemetry.getByText(`http://127.0.0.1:${port}`).waitFor()
    await page.getByTestId('system-otlp-test').click()
    await page.getByText(/The collector accepted the test span/).waitFor()
    expect(received.some((r) => r.startsWith('/v1/traces ') && r.includes('gateway.test'))).toBe(true)
    await context.close()
  })

  it('is not offered to an administrator, and its API refuses them', async () => {
    expect((await admin.call('GET', '/api/system/')).status).toBe(403)
    const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP })
    await signIn(page, context, admin)
    await page.goto('/panel/dashboard')
    await page.getByTestId('console-nav').waitFor()
    expect(await page.getByTestId('console-nav').getByRole('link', { name: 'System' }).count()).toBe(0)
    await page.goto('/panel/system')
    await page.waitForURL((url) => !url.pathname.startsWith('/panel/system'))
    await context.close()
  })
})
