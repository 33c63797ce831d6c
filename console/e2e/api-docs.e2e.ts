/**
 * The API reference page (/panel/api-docs) on the shared server: an admin opens it from the menu,
 * every operation of /api/openapi.json is listed under its tag, the filter narrows the list, and
 * expanding POST /api/token/ shows its role and the body tree with the token form’s
 * fields. A plain user has no menu entry and is sent back to the panel.
 * Screenshots: light and dark (desktop), phone, zh_CN.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const ADMIN = { username: `docadm${suffix}`, password: 'admin-password-1' }

/** Signed in through the API (many UI sign-ins would meet the login rate limit): the cookie plus the profile the console keeps. */
async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

/** Full-page screenshot from the top (scrolled, the sticky bars would land mid-page). */
async function shotTop(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0))
  await shot(page, name)
}

async function openDocs(page: Page) {
  await page.goto('/panel/api-docs')
  await page.getByTestId('api-tag').first().waitFor()
}

async function expand(page: Page, endpoint: string) {
  const item = page.locator(`[data-testid="endpoint"][data-endpoint="${endpoint}"]`)
  await item.getByRole('button').first().click()
  await item.getByTestId('schema-tree').or(item.getByTestId('endpoint-parameters')).first().waitFor()
  return item
}

describe('API reference page', () => {
  const suite = useBrowser()
  let admin: ApiSession
  let operations = 0

  beforeAll(async () => {
    const root = await rootSession()
    await userSession(ADMIN.username, ADMIN.password)
    await root.ok('POST', '/api/user/manage', { username: ADMIN.username, action: 'promote' })
    admin = await userSession(ADMIN.username, ADMIN.password)
    const res = await fetch(`${admin.base}/api/openapi.json`, { headers: { cookie: admin.cookieHeader() } })
    expect(res.status).toBe(200)
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> }
    operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)
    expect(operations).toBeGreaterThan(100)
  })

  it('an admin opens it from the menu, filters, and expands an endpoint (light, dark)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP })
      await signIn(page, context, admin)
      await presetTheme(page, theme)
      await page.goto('/panel/dashboard')
      await page.getByTestId('console-nav').getByRole('link', { name: 'API reference' }).click()
      await page.waitForURL('**/panel/api-docs')
      await page.getByTestId('api-tag').first().waitFor()
      expect(await page.getByTestId('endpoint').count()).toBe(operations)
      await expect.poll(() => page.getByText(`${operations} endpoints`, { exact: false }).count()).toBeGreaterThan(0)

      const item = await expand(page, 'POST /api/token/')
      await expect.poll(() => item.getByTestId('endpoint-role').textContent()).toBe('User')
      const fields = await item.getByTestId('schema-field').evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))
      expect(fields).toEqual(expect.arrayContaining(['name', 'remain_quota', 'unlimited_quota', 'expired_time', 'group', 'setting']))
      const name = item.locator('[data-testid="schema-field"][data-field="name"]').first()
      expect(await name.textContent()).toContain('required')
      expect(await name.textContent()).toContain('length ≤ 50')
      // Nested fields of the setting object are shown under it.
      expect(fields).toContain('limits_ip_setting')
      expect(await item.getByText('Authenticate with the session cookie + the X-XSRF-TOKEN header or an access token').count()).toBe(1)

      const search = await expand(page, 'GET /api/token/admin/search')
      expect(await search.getByTestId('endpoint-parameters').locator('tbody tr').count()).toBe(5)
      await shotTop(page, `api-docs-${theme}`)

      // DELETE /api/token/{id}, DELETE /api/token/ and DELETE /api/user/token (the access token).
      await page.getByPlaceholder('Filter by method, path or tag').fill('delete token')
      await expect.poll(() => page.getByTestId('endpoint').count()).toBe(3)
      await page.getByPlaceholder('Filter by method, path or tag').fill('no-such-endpoint')
      await page.getByText('No endpoint matches the filter.').waitFor()
      await context.close()
    }
  })

  it('fits a phone and reads in Chinese', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: PHONE })
    await signIn(page, context, admin)
    await openDocs(page)
    await expand(page, 'PUT /api/prices/single/{model}')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await shotTop(page, 'api-docs-phone')
    await context.close()

    const zh = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP, locale: 'zh-CN' })
    await signIn(zh.page, zh.context, admin)
    await openDocs(zh.page)
    await zh.page.getByRole('heading', { name: 'API 文档' }).waitFor()
    await expand(zh.page, 'POST /api/user/login')
    await zh.page.getByText('必填').first().waitFor()
    await shotTop(zh.page, 'api-docs-zh')
    await zh.context.close()
  })

  it('is not offered to a plain user', async () => {
    const user = await userSession(`docuser${suffix}`)
    const { context, page } = await openPage(suite.browser, { baseURL: user.base, viewport: DESKTOP })
    await signIn(page, context, user)
    await page.goto('/panel/dashboard')
    await page.getByTestId('console-nav').waitFor()
    expect(await page.getByTestId('console-nav').getByRole('link', { name: 'API reference' }).count()).toBe(0)
    await page.goto('/panel/api-docs')
    await page.waitForURL((url) => !url.pathname.startsWith('/panel/api-docs'))
    await context.close()
  })
})
