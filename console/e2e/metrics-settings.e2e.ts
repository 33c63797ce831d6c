/**
 * Settings → System → Prometheus metrics: root generates the MetricsToken in the console, sees it
 * once, scrapes /metrics with it; after a reload the card only says it is set; "Turn off" makes
 * /metrics answer 404 again. In English light, dark, and Chinese at phone width.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, type ApiSession } from '../../worker/e2e/support/api'
import { PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useBrowser } from './support/suite'

async function openSection(page: Page) {
  await page.goto('/panel/setting?tab=system')
  const section = page.getByTestId('settings-metrics')
  await section.waitFor()
  await section.scrollIntoViewIfNeeded()
  return section
}

const scrape = (root: ApiSession, token?: string) => fetch(`${root.base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} })

describe('metrics settings', () => {
  const suite = useBrowser()
  let root: ApiSession

  beforeAll(async () => {
    root = await rootSession()
    await root.ok('PUT', '/api/option/', { key: 'MetricsToken', value: '' })
  })

  afterAll(async () => {
    if (root) await root.ok('PUT', '/api/option/', { key: 'MetricsToken', value: '' })
  })

  it('generates a token shown once, which scrapes /metrics; turning it off answers 404', async () => {
    expect((await scrape(root)).status).toBe(404)
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await presetTheme(page, 'light')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await expect.poll(() => section.getByTestId('metrics-token-status').textContent()).toBe('Not set')
    await section.getByTestId('metrics-token-generate').click()
    const value = section.getByTestId('metrics-token-value')
    await value.waitFor()
    const token = await value.inputValue()
    expect(token).toMatch(/^mt_[\w-]{43}$/)
    await section.getByText('Copy the token now: it is not shown again.').waitFor()
    await expect.poll(() => section.getByTestId('metrics-token-status').textContent()).toBe('Configured')
    await shot(page, 'settings-metrics-light')
    const res = await scrape(root, token)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('# TYPE gateway_requests_total counter')
    expect((await scrape(root, 'mt_wrong')).status).toBe(401)

    // After a reload the token is gone from the page; the server never sends it back.
    const again = await openSection(page)
    await expect.poll(() => again.getByTestId('metrics-token-status').textContent()).toBe('Configured')
    expect(await again.getByTestId('metrics-token-value').count()).toBe(0)
    expect(await page.content()).not.toContain(token)

    await again.getByTestId('metrics-token-off').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn off' }).click()
    await expect.poll(() => again.getByTestId('metrics-token-status').textContent()).toBe('Not set')
    expect((await scrape(root, token)).status).toBe(404)
    await context.close()
  })

  it('reads in Chinese and dark, and fits a phone', async () => {
    await root.ok('PUT', '/api/option/', { key: 'MetricsToken', value: '' })
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE, locale: 'zh-CN' })
    await presetTheme(page, 'dark')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await section.getByText('Prometheus 指标').waitFor()
    await section.getByTestId('metrics-token-generate').click()
    await section.getByText('请立即复制令牌：它不会再次显示。').waitFor()
    await expectNoOverflow(page)
    await shot(page, 'settings-metrics-phone-dark-zh')
    await context.close()
  })
})
