/**
 * Analytics (admin): after a direct and an invited registration, relay calls and one channel
 * disabled through the API, the root's analytics page shows the same registrations (direct vs
 * invited) and channel counts as the API, the caller in the top users and the model in the top
 * models; a tooltip of the registrations chart names both series. Ordinary users neither see the
 * menu entry nor reach the page. Screenshots in light, dark and at phone width.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { ApiSession, SHARED_ROOT, relayFixture, rootSession } from '../../worker/e2e/support/api'
import { openPage, shot, expectNoOverflow } from './support/browser'
import { signIn, openSignedIn, LOOKS_ZH_PHONE } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const MODEL = `ana-model-${suffix}`
const password = 'user-password-1'

const DAY = 86400
/** The default period of the page: the last 7 UTC days, today included. */
function lastWeek() {
  const today = Math.floor(Date.now() / 1000 / DAY) * DAY
  return `start_timestamp=${today - 6 * DAY}&end_timestamp=${today + DAY - 1}`
}

async function register(username: string, affCode?: string) {
  const s = new ApiSession(inject('gatewayUrl'))
  await s.call('GET', '/api/status')
  await s.ok('POST', '/api/user/register', { username, password, ...(affCode ? { aff_code: affCode } : {}) })
}

const countOf = (page: Page, card: string, key: string) => page.getByTestId(`${card}-${key}-value`).innerText()

describe('analytics', () => {
  const suite = useBrowser()
  let fixtureUser = ''

  it('shows registrations, channel counts and the top users and models', async () => {
    const root = await rootSession()
    const affCode = await root.ok<string>('GET', '/api/user/aff')
    await register(`direct${suffix}`)
    await register(`invited${suffix}`, affCode)

    fixtureUser = `ana${suffix}`
    // An expensive model, so it ranks among the top ten even after every other file's traffic on this shared server.
    const fx = await relayFixture({ model: MODEL, username: fixtureUser, price: { input: 20_000, output: 20_000 } })
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${fx.token.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: `analytics call ${i}` }] }),
      })
      expect(res.status).toBe(200)
      await res.json()
    }
    // A second channel, disabled by hand.
    const [spare] = await root.ok<{ id: number }[]>('POST', '/api/channel/', {
      type: 8,
      name: `spare-${suffix}`,
      key: 'sk-mock-spare',
      base_url: inject('mockUrl'),
      models: [MODEL],
      group: ['default'],
    })
    await root.ok('PATCH', '/api/channel/', { id: spare!.id, status: 2 })

    await expect
      .poll(async () => (await root.ok('GET', `/api/analytics/period?${lastWeek()}`)).top_models.some((m: { model_name: string }) => m.model_name === MODEL), {
        timeout: 15_000,
      })
      .toBe(true)
    const stats = await root.ok('GET', '/api/analytics/statistics')
    const period = await root.ok('GET', `/api/analytics/period?${lastWeek()}`)
    const direct = period.registrations.reduce((s: number, r: { direct: number }) => s + r.direct, 0)
    const invited = period.registrations.reduce((s: number, r: { invited: number }) => s + r.invited, 0)
    expect(invited).toBeGreaterThanOrEqual(1)
    expect(direct).toBeGreaterThanOrEqual(2)
    expect(stats.channels.disabled).toBeGreaterThanOrEqual(1)

    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, SHARED_ROOT)
    await page.getByTestId('console-drawer').getByRole('link', { name: 'Analytics' }).click()
    await page.waitForURL('**/panel/analytics')
    await page.getByRole('heading', { name: 'Analytics' }).waitFor()

    await page.getByTestId('card-registrations').getByText(`Direct ${direct} · Invited ${invited}`).waitFor()
    expect(await countOf(page, 'channel-counts', 'enabled')).toBe(String(stats.channels.enabled))
    expect(await countOf(page, 'channel-counts', 'disabled')).toBe(String(stats.channels.disabled))
    expect(await countOf(page, 'channel-counts', 'auto_disabled')).toBe(String(stats.channels.auto_disabled))
    expect(await countOf(page, 'channel-counts', 'test_disabled')).toBe(String(stats.channels.test_disabled))
    expect(await page.getByTestId('stat-users-value').innerText()).toBe(stats.user_count.toLocaleString('en-US'))
    expect(await page.getByTestId('stat-invited-value').innerText()).toBe(stats.invited_count.toLocaleString('en-US'))

    await page.getByTestId('top-users').getByRole('row').filter({ hasText: fixtureUser }).waitFor()
    const modelRow = page.getByTestId('top-models').getByRole('row').filter({ hasText: MODEL })
    expect(await modelRow.getByRole('cell').nth(2).innerText()).toBe('2')

    // The registrations chart's tooltip names both series of today's bar.
    const bars = page.getByTestId('chart-registrations').locator('.recharts-bar-rectangle')
    await bars.last().hover()
    const tooltip = page.getByTestId('chart-registrations').locator('.recharts-tooltip-wrapper')
    await tooltip.getByText('Invited').waitFor()
    await tooltip.getByText('Direct').waitFor()
    await page.mouse.move(0, 0)
    await page.evaluate(() => window.scrollTo(0, 0))
    await shot(page, 'analytics-light')
    await context.close()
  })

  it('is hidden from ordinary users', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, { username: fixtureUser, password })
    await page.getByTestId('console-drawer').getByRole('link', { name: 'Dashboard' }).waitFor()
    expect(await page.getByTestId('console-drawer').getByRole('link', { name: 'Analytics' }).count()).toBe(0)
    await page.goto('/panel/analytics')
    await page.waitForURL('**/panel/dashboard')
    await context.close()
  })

  it('in dark and at phone width', async () => {
    for (const v of LOOKS_ZH_PHONE) {
      const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), v, SHARED_ROOT)
      await page.goto('/panel/analytics')
      await page.getByTestId('top-models').getByRole('row').filter({ hasText: MODEL }).waitFor()
      await page.getByTestId('chart-registrations').locator('.recharts-bar-rectangle').first().waitFor()
      await expectNoOverflow(page)
      await page.mouse.move(0, 0)
      await shot(page, `analytics-${v.name}`)
      await context.close()
    }
  })
})
