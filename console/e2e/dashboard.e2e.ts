/**
 * Dashboard: a user makes relay calls with their key (two models), signs in through the login
 * page and sees their request count, today's figures, both models in the statistics table and the
 * callable models; the period picker changes the URL and refuses an invalid custom range.
 * Screenshots in light, dark and at phone width. Root sees the plans card (a plan granted to a
 * user counts as active, not as sold) that the user neither sees nor receives; screenshots of it
 * in light, dark, phone and zh_CN.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, relayFixture, rootSession, userSession } from '../../worker/e2e/support/api'
import { DESKTOP, openPage, shot, expectNoOverflow } from './support/browser'
import { signIn, openSignedIn, LOOKS_ZH_PHONE, type Look } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const MODEL_A = `dash-alpha-${suffix}`
const MODEL_B = `dash-beta-${suffix}`
const username = `dash${suffix}`
const password = 'user-password-1'

async function chat(key: string, model: string, text: string) {
  const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: text }] }),
  })
  expect(res.status).toBe(200)
  await res.json()
}

/** Text of a stat card's value. */
const statValue = (page: Page, id: string) => page.getByTestId(`${id}-value`).innerText()

describe('dashboard', () => {
  const suite = useBrowser()
  let today: { request_count: number; tokens: number }

  it('shows the calls the user just made through the relay', async () => {
    const fx = await relayFixture({ model: MODEL_A, username })
    // A second model on its own channel, so the charts and the table have two series.
    await fx.root.ok('POST', '/api/prices/single', { model: MODEL_B, type: 'tokens', channel_type: 1, input: 0.5, output: 1.5 })
    await fx.root.ok('POST', '/api/channel/', {
      type: 8,
      name: `mock-dash-${suffix}`,
      key: 'sk-mock-dash',
      base_url: inject('mockUrl'),
      // A long model name as suppliers have them (Bedrock, Vertex): it must not widen the phone layout.
      models: [MODEL_B, `anthropic.claude-3-5-sonnet-20240620-v1:0-dashboard-${suffix}-with-a-very-long-name`],
      group: ['default'],
      test_model: MODEL_B,
    })
    await chat(fx.token.key, MODEL_A, 'first question for the dashboard')
    await chat(fx.token.key, MODEL_A, 'second question')
    await chat(fx.token.key, MODEL_A, 'third question with a few more words in it')
    await chat(fx.token.key, MODEL_B, 'a question for the other model')

    // The statistics rollup is written behind the wallet (about a second later).
    await expect.poll(async () => (await fx.user.ok('GET', '/api/user/dashboard')).today.request_count, { timeout: 15_000 }).toBe(4)
    const data = await fx.user.ok('GET', '/api/user/dashboard')
    today = data.today
    expect(data.balance.request_count).toBe(4)

    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, { username, password })
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor()
    await expect.poll(() => statValue(page, 'stat-requests')).toBe('4')
    expect(await statValue(page, 'stat-today-requests')).toBe('4')
    expect(await statValue(page, 'stat-today-tokens')).toBe(String(today.tokens))
    // The plan figures are the administrators': a user is not sent them and sees no plans card.
    expect(data).not.toHaveProperty('plans')
    expect(await page.getByTestId('plan-figures').count()).toBe(0)

    const table = page.getByTestId('model-stats')
    const rowA = table.getByRole('row').filter({ hasText: MODEL_A })
    const rowB = table.getByRole('row').filter({ hasText: MODEL_B })
    await rowA.waitFor()
    expect(await rowA.getByRole('cell').nth(1).innerText()).toBe('3')
    expect(await rowB.getByRole('cell').nth(1).innerText()).toBe('1')

    // Charts drew their series; the callable models include both.
    await page.getByTestId('chart-consumption').locator('.recharts-area').first().waitFor()
    expect(await page.getByTestId('chart-model-share').locator('.recharts-pie-sector').count()).toBe(2)
    const chips = page.getByTestId('available-models').getByTestId('model-chip')
    await chips.filter({ hasText: MODEL_A }).waitFor()
    await chips.filter({ hasText: MODEL_B }).waitFor()

    // Tooltips: today's consumption per model as money (the table's amounts), requests with a total.
    const consumption = page.getByTestId('chart-consumption')
    const box = (await consumption.locator('.recharts-surface').boundingBox())!
    await page.mouse.move(box.x + box.width - 12, box.y + box.height / 3)
    const moneyA = await rowA.getByTestId('model-quota').innerText()
    expect(moneyA).toMatch(/^\$\d+\.\d+$/)
    const tip = consumption.locator('.recharts-tooltip-wrapper')
    await tip.getByText(MODEL_A).waitFor()
    expect(await tip.innerText()).toContain(moneyA)
    await page.getByTestId('chart-requests').locator('.recharts-bar-rectangle').last().hover()
    const requestsTip = page.getByTestId('chart-requests').locator('.recharts-tooltip-wrapper')
    await requestsTip.getByText('Total').waitFor()
    expect((await requestsTip.innerText()).replace(/\s+/g, ' ')).toMatch(new RegExp(`${MODEL_A} 3 .*Total 4`))
    await page.mouse.move(0, 0)
    await shot(page, 'dashboard-light')

    // Periods: a preset goes to the URL; an inverted custom range is refused in the form.
    await page.getByTestId('range-picker').getByRole('button', { name: '30 days' }).click()
    await page.waitForURL(/days=30/)
    await rowA.waitFor()
    await page.getByTestId('range-custom').click()
    const form = page.getByTestId('range-form')
    await form.locator('input[name="from"]').fill('2025-03-10')
    await form.locator('input[name="to"]').fill('2025-03-01')
    await form.getByRole('button', { name: 'Apply' }).click()
    await form.getByText('The end date must not be before the start date').waitFor()
    await form.locator('input[name="to"]').fill('2025-03-20')
    await form.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/from=2025-03-10/)
    await page.getByTestId('card-consumption').getByText('No usage in this period').waitFor()
    await page.getByTestId('range-custom').getByText('2025-03-10 – 2025-03-20').waitFor()
    await context.close()
  })

  it('in dark and at phone width', async () => {
    for (const v of LOOKS_ZH_PHONE) {
      const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), v, { username, password })
      await page.getByTestId('model-stats').getByRole('row').filter({ hasText: MODEL_A }).waitFor()
      await page.getByTestId('chart-consumption').locator('.recharts-area').first().waitFor()
      await expectNoOverflow(page)
      await page.mouse.move(0, 0)
      await shot(page, `dashboard-${v.name}`)
      await context.close()
    }
  })

  it('shows root the plans card: a granted plan is active, not sold', async () => {
    const root = await rootSession()
    const plan = `Dash plan ${suffix}`
    const { id: planId } = await root.ok<{ id: number }>('POST', '/api/plan/', { name: plan, price: 3, duration_unit: 'month', windows: [{ period: 'day', quota: 1000 }] })
    const holder = await userSession(`dashsub${suffix}`)
    const { id: holderId } = await holder.ok<{ id: number }>('GET', '/api/user/self')
    await root.ok('POST', '/api/plan/grant', { user_id: holderId, plan_id: planId })
    const figures = (await root.ok<{ plans: { active: { plan_id: number; count: number }[]; active_total: number } }>('GET', '/api/user/dashboard')).plans
    expect(figures.active).toContainEqual(expect.objectContaining({ plan_id: planId, count: 1 }))
    expect(figures.active_total).toBeGreaterThanOrEqual(1)

    const looks: Look[] = [{ name: 'light', viewport: DESKTOP, theme: 'light' }, ...LOOKS_ZH_PHONE]
    for (const v of looks) {
      const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), v, SHARED_ROOT)
      const card = page.getByTestId('plan-figures')
      const row = card.getByRole('row').filter({ hasText: plan })
      await row.waitFor()
      expect((await row.getByRole('cell').allInnerTexts()).map((c) => c.trim())).toEqual([plan, '0', '—', '1'])
      expect(Number(await statValue(page, 'plan-active'))).toBeGreaterThanOrEqual(1)
      await expectNoOverflow(page)
      await page.mouse.move(0, 0)
      await card.scrollIntoViewIfNeeded()
      await shot(page, `dashboard-plans-${v.name}`)
      await context.close()
    }
  })
})
