/**
 * Log page: a user makes relay calls (two models, one streamed), opens /panel/log and sees them
 * with model, tokens and quota, opens the price breakdown, filters by model (URL, statistic and
 * rows follow) and downloads the filtered CSV. The admin sees the same calls in all logs with the
 * channel and the user, switches to their own logs, and root deletes logs before a date.
 * Screenshots in light, dark and at phone width.
 */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, relayFixture } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signInToPanel } from './support/console'
import { useBrowser } from './support/suite'

/** Polls with room for a busy machine (vitest's default is one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 })

const suffix = Date.now().toString(36).slice(-6)
const MODEL_A = `log-alpha-${suffix}`
const MODEL_B = `log-beta-${suffix}`
const USERNAME = `lg${suffix}`
const PASSWORD = 'user-password-1'

async function chat(key: string, model: string, text: string, stream = false) {
  const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content: text }] }),
  })
  expect(res.status).toBe(200)
  await res.text()
}

const rows = (page: Page) => page.locator('tbody tr')

describe('log page', () => {
  const suite = useBrowser()
  let fx: Awaited<ReturnType<typeof relayFixture>>
  let channelB: { id: number }

  beforeAll(async () => {
    fx = await relayFixture({ model: MODEL_A, username: USERNAME })
    await fx.root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000', LogConsumeEnabled: 'true' } })
    await fx.root.ok('POST', '/api/prices/single', { model: MODEL_B, type: 'tokens', channel_type: 1, input: 0.5, output: 1.5 })
    ;[channelB] = await fx.root.ok<{ id: number }[]>('POST', '/api/channel/', {
      type: 8,
      name: `mock-log-${suffix}`,
      key: 'sk-mock-log',
      base_url: inject('mockUrl'),
      models: [MODEL_B],
      group: ['default'],
      test_model: MODEL_B,
    })
    await chat(fx.token.key, MODEL_A, 'first question for the log page')
    await chat(fx.token.key, MODEL_A, 'second question, streamed this time please', true)
    await chat(fx.token.key, MODEL_A, 'third question with a few more words in it')
    await chat(fx.token.key, MODEL_B, 'a question for the other model')
    // Consume logs are written behind the wallet.
    const deadline = Date.now() + 15_000
    while ((await fx.user.ok<{ count: number }>('GET', '/api/log/self/stat?type=2')).count < 4) {
      if (Date.now() > deadline) throw new Error('the consume logs did not appear')
      await new Promise((r) => setTimeout(r, 250))
    }
  })

  it('the user sees their calls, the price breakdown, filters by model and downloads CSV', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: fx.user.base })
    await signInToPanel(page, { username: USERNAME, password: PASSWORD })
    await page.goto('/panel/log?type=2')
    await page.getByRole('heading', { name: 'Logs' }).waitFor()
    await eventually(() => rows(page).count()).toBe(4)
    await eventually(() => page.getByTestId('logs-stat-count').innerText()).toBe('4')
    const stat = await fx.user.ok<{ quota: number }>('GET', '/api/log/self/stat?type=2')
    // Amounts under a cent are shown with six decimals.
    expect(await page.getByTestId('logs-stat-quota').innerText()).toBe(`$${(stat.quota / 500000).toFixed(stat.quota < 5000 ? 6 : 2)}`)
    // Users see no channel or user columns, and no admin switch.
    expect(await page.getByRole('columnheader', { name: 'Channel' }).count()).toBe(0)
    expect(await page.getByTestId('logs-scope-all').count()).toBe(0)

    expect((await page.getByTestId('log-model').allInnerTexts()).sort()).toEqual([MODEL_A, MODEL_A, MODEL_A, MODEL_B].sort())
    const first = rows(page).filter({ hasText: MODEL_A }).first()
    expect(Number(await first.getByTestId('log-input').innerText())).toBeGreaterThan(0)
    expect(Number(await first.getByTestId('log-output').innerText())).toBeGreaterThan(0)
    expect(await first.getByTestId('log-type').innerText()).toBe('Consume')
    const streamed = rows(page).filter({ hasText: 'Stream' }).filter({ hasNotText: 'Non-stream' })
    await eventually(() => streamed.count()).toBe(1)
    expect(await streamed.innerText()).toMatch(/\d+\.\d{2} s/)

    await first.getByTestId('quota-breakdown-trigger').click()
    const breakdown = page.getByTestId('quota-breakdown')
    await breakdown.getByText('Price breakdown').waitFor()
    expect(await breakdown.getByTestId('breakdown-input').innerText()).toContain('0.075')
    expect(await breakdown.getByTestId('breakdown-input').innerText()).toContain('$0.15 / 1M tokens')
    expect(await breakdown.getByTestId('breakdown-output').innerText()).toContain('$0.6 / 1M tokens')
    await breakdown.getByText('Group ratio (default)').waitFor()
    await breakdown.getByText(MODEL_A, { exact: true }).waitFor()
    await shot(page, 'logs-breakdown-light')
    await page.keyboard.press('Escape')

    // Filter by model: the URL, the rows and the statistic follow.
    await page.getByLabel('Model name').fill(MODEL_B)
    await page.waitForURL((url) => url.searchParams.get('model_name') === MODEL_B)
    await eventually(() => rows(page).count()).toBe(1)
    await eventually(() => page.getByTestId('logs-stat-count').innerText()).toBe('1')
    expect(await page.getByTestId('log-model').innerText()).toBe(MODEL_B)
    await shot(page, 'logs-light')

    // CSV of the filtered rows.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('logs-export').click()])
    const csv = readFileSync((await download.path())!, 'utf8')
    const lines = csv.trim().split('\n')
    expect(lines[0]).toContain('model_name')
    expect(lines[0]).not.toContain('channel_id')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain(MODEL_B)
    await context.close()
  })

  it('the admin sees the same calls in all logs with the channel and the user', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: fx.user.base })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto('/panel/log')
    await page.getByRole('heading', { name: 'Logs' }).waitFor()
    await page.getByRole('columnheader', { name: 'Channel' }).waitFor()
    expect(await page.getByTestId('logs-scope-all').getAttribute('data-state')).toBe('active')

    await page.getByLabel('Username').fill(USERNAME)
    await page.waitForURL((url) => url.searchParams.get('username') === USERNAME)
    await page.getByTestId('filter-type').click()
    await page.getByRole('option', { name: 'Consume' }).click()
    await page.waitForURL((url) => url.searchParams.get('type') === '2')
    await eventually(() => rows(page).count()).toBe(4)
    expect(new Set(await page.getByTestId('log-user').allInnerTexts())).toEqual(new Set([USERNAME]))
    expect(new Set(await page.getByTestId('log-channel').allInnerTexts())).toEqual(new Set([`#${fx.channel.id}`, `#${channelB.id}`]))

    await page.getByLabel('Channel ID').fill(String(channelB.id))
    await eventually(() => rows(page).count()).toBe(1)
    expect(await page.getByTestId('log-model').innerText()).toBe(MODEL_B)
    await eventually(() => page.getByTestId('logs-stat-count').innerText()).toBe('1')
    await shot(page, 'logs-admin-light')

    // "My logs": root made none of these calls.
    await page.getByTestId('logs-scope-self').click()
    await page.waitForURL((url) => url.searchParams.get('scope') === 'self')
    await page.getByText('No logs match these filters.').waitFor()
    expect(await page.getByRole('columnheader', { name: 'Channel' }).count()).toBe(0)
    await page.getByTestId('logs-scope-all').click()
    await eventually(() => rows(page).count()).toBe(1)

    // Root: delete logs before a date long past (nothing goes), with a confirmation.
    await page.getByTestId('logs-purge').click()
    await page.locator('#logs-purge-date').fill('2001-01-01')
    await page.getByRole('dialog').getByRole('button', { name: 'Delete logs' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Delete these logs?').waitFor()
    await confirm.getByText('2001-01-01 00:00:00').waitFor()
    await confirm.getByRole('button', { name: 'Delete logs' }).click()
    await page.getByTestId('logs-purge-result').getByText('0 log rows deleted.').waitFor()
    await shot(page, 'logs-purge-light')
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click()
    await eventually(() => rows(page).count()).toBe(1)
    await context.close()
  })

  for (const variant of [
    { name: 'logs-dark', viewport: DESKTOP, theme: 'dark' as const, admin: false },
    { name: 'logs-zh', viewport: DESKTOP, theme: 'light' as const, admin: true, locale: 'zh-CN' },
    { name: 'logs-admin-dark', viewport: DESKTOP, theme: 'dark' as const, admin: true },
    { name: 'logs-phone-light', viewport: PHONE, theme: 'light' as const, admin: false },
    { name: 'logs-phone-dark', viewport: PHONE, theme: 'dark' as const, admin: true },
  ]) {
    it(`renders ${variant.name}`, async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: fx.user.base, viewport: variant.viewport, locale: 'locale' in variant ? variant.locale : undefined })
      await presetTheme(page, variant.theme)
      if (variant.admin) await signInToPanel(page, SHARED_ROOT)
      else await signInToPanel(page, { username: USERNAME, password: PASSWORD })
      await page.goto(variant.admin ? `/panel/log?username=${USERNAME}` : '/panel/log')
      await page.getByTestId('log-type').first().waitFor()
      await page.getByTestId('logs-stat-count').waitFor()
      await expectNoOverflow(page)
      await shot(page, variant.name)
      await rows(page).filter({ hasText: MODEL_A }).first().getByTestId('quota-breakdown-trigger').click()
      await page.getByTestId('quota-breakdown').waitFor()
      await shot(page, `${variant.name}-breakdown`)
      await context.close()
    })
  }
})
