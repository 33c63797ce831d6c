/**
 * Token limits and budgets in the console: the tokens list shows a key's budget use in the current
 * period as a progress bar; the token dialog edits RPM and the budget and shows the period's use;
 * the user dialog edits the ceilings on a user's tokens' limits. Light, dark and phone width.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { SHARED_ROOT, relayFixture, type ApiSession } from '../../worker/e2e/support/api'
import { PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, rowAction, signInToPanel, rowOf } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36).slice(-6)
const USERNAME = `lim${suffix}`
const KEY_NAME = `budget-key-${suffix}`

describe('token limits in the console', () => {
  const suite = useBrowser()
  let user: ApiSession
  let userId: number
  let tokenId: number

  beforeAll(async () => {
    const fx = await relayFixture({ username: USERNAME })
    user = fx.user
    userId = fx.userId
    await fx.root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'false' } })
    const token = await user.ok<{ id: number; key: string }>('POST', '/api/token/', { name: KEY_NAME, unlimited_quota: true, budget_period: 'month', budget_quota: 1_000_000 })
    tokenId = token.id
    const res = await fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: fx.model, messages: [{ role: 'user', content: 'hello' }], max_tokens: 5 }),
    })
    expect(res.status).toBe(200)
  })

  it('shows the budget use, edits the limits in the token dialog, and the user’s ceilings', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await presetTheme(page, 'dark')
    await signInToPanel(page, { username: USERNAME, password: 'user-password-1' })
    await page.goto('/panel/token')
    const row = rowOf(page, KEY_NAME)
    await expect
      .poll(
        async () =>
          Number(
            await row
              .getByRole('progressbar')
              .getAttribute('aria-valuenow')
              .catch(() => '-1')
          ),
        { timeout: 15_000 }
      )
      .toBeGreaterThanOrEqual(0)
    await row.getByRole('button', { name: `Edit ${KEY_NAME}` }).click()
    const dialog = page.getByTestId('token-dialog')
    const limits = dialog.getByTestId('token-limits')
    await limits.getByRole('progressbar').waitFor()
    await limits.locator('input[name="rpm_limit"]').fill('9')
    await limits.locator('textarea[name="model_limits"]').fill('gpt-4o* 3 1000')
    await shot(page, 'token-limits-dialog-dark')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Token updated').first().waitFor()
    const saved = await user.ok<{ rpm_limit: number; budget_period: string; budget_quota: number; model_limits: unknown }>('GET', `/api/token/${tokenId}`)
    expect(saved).toMatchObject({ rpm_limit: 9, budget_period: 'month', budget_quota: 1_000_000, model_limits: { 'gpt-4o*': { rpm: 3, tpm: 1000 } } })
    await shot(page, 'token-limits-list-dark')
    await context.close()

    const admin = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await presetTheme(admin.page, 'light')
    await signInToPanel(admin.page, SHARED_ROOT)
    await admin.page.goto(`/panel/user?keyword=${USERNAME}`)
    await rowAction(admin.page, admin.page.locator('tbody tr', { has: admin.page.getByText(USERNAME, { exact: true }) }), 'Edit')
    const form = admin.page.getByTestId('user-form-dialog')
    await form.getByTestId('token-limits').locator('input[name="tpm_limit"]').fill('50000')
    await shot(admin.page, 'user-limits-dialog-light')
    await admin.page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(async () => await admin.page.evaluate(async (id) => (await (await fetch(`/api/user/${id}`)).json()).data.tpm_limit, userId)).toBe(50000)
    await admin.context.close()
  })

  it('fits a phone', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: PHONE })
    await signInToPanel(page, { username: USERNAME, password: 'user-password-1' })
    await page.goto('/panel/token')
    await rowOf(page, KEY_NAME).waitFor()
    await rowOf(page, KEY_NAME)
      .getByRole('button', { name: `Edit ${KEY_NAME}` })
      .click()
    await page.getByTestId('token-limits').scrollIntoViewIfNeeded()
    await expectNoOverflow(page)
    await shot(page, 'token-limits-dialog-phone')
    await context.close()
  })
})
