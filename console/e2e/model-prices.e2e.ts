/**
 * User groups and the model price list: the admin creates a group with a ratio in the Groups tab
 * (GroupRatio follows), toggles and edits it, cannot delete it while a user belongs to it; a user of
 * that group sees the models their group can call with the group ratio applied, searches, filters
 * by supplier and copies a model name. Screenshots in light, dark and at phone width.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { ApiSession } from '../../worker/e2e/support/api'
import { openPage, shot, expectNoOverflow } from './support/browser'
import { apiSession } from './support/billing'
import { signInToPanel, LOOKS, openSignedIn } from './support/console'
import { useFreshGateway } from './support/suite'

const admin = { username: 'priceadmin', password: 'price-admin-1' }
const member = { username: 'vipmember', password: 'vip-member-1' }

describe('groups and model prices', () => {
  const suite = useFreshGateway(admin)
  let root: ApiSession

  beforeAll(async () => {
    root = await apiSession(suite.server.url, admin)
  })

  it('the admin manages a group in the Groups tab', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, admin)
    await page.goto('/panel/pricing?tab=groups')
    await page.getByText('How group ratios work').waitFor()
    await page.getByRole('row').filter({ hasText: 'default' }).first().waitFor()

    await page.getByTestId('group-new').click()
    const dialog = page.getByTestId('group-dialog')
    await dialog.locator('input[name="symbol"]').fill('v i p')
    await dialog.locator('input[name="name"]').fill('')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Letters, digits, _ and - only').waitFor()
    await dialog.getByText('Name is required').waitFor()
    // A symbol that exists already (seeded) is refused by the server, on the field.
    await dialog.locator('input[name="symbol"]').fill('vip')
    await dialog.locator('input[name="name"]').fill('Gold customers')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('A group with this symbol already exists').waitFor()
    await dialog.locator('input[name="symbol"]').fill('gold')
    await dialog.locator('input[name="ratio"]').fill('1.5')
    await dialog.getByText('A ratio-1 price ($2 per 1M tokens) becomes $3.00 per 1M tokens.').waitFor()
    await dialog.getByTestId('group-public').click()
    await shot(page, 'pricing-group-dialog-light')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Created successfully').first().waitFor()
    const row = page.getByRole('row').filter({ hasText: 'Gold customers' })
    await row.getByText('×1.5').waitFor()
    await row.getByText('ratio-1 price → $3.00 / 1M').waitFor()
    await row.getByText('Public', { exact: true }).waitFor()
    const groupRatio = async () => JSON.parse((await root.ok<{ key: string; value: string }[]>('GET', '/api/option/')).find((o) => o.key === 'GroupRatio')!.value)
    expect(await groupRatio()).toMatchObject({ gold: 1.5 })
    await shot(page, 'pricing-groups-light')

    // Disabling takes the group out of GroupRatio; enabling brings it back.
    await row.getByRole('switch', { name: 'Enable Gold customers' }).click()
    await page.getByText('Gold customers is disabled').waitFor()
    expect(await groupRatio()).not.toHaveProperty('gold')
    await row.getByRole('switch', { name: 'Enable Gold customers' }).click()
    await page.getByText('Gold customers is enabled').waitFor()
    expect(await groupRatio()).toMatchObject({ gold: 1.5 })

    // The symbol is fixed once created.
    await page.getByRole('button', { name: 'Edit Gold customers' }).click()
    await expect.poll(() => dialog.locator('input[name="symbol"]').isDisabled()).toBe(true)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await context.close()
  })

  it('a member of the group sees the model prices with the group ratio applied', async () => {
    // Two channels of different suppliers serve the gold group; one model has no price.
    const mock = inject('mockUrl')
    await root.ok('POST', '/api/channel/', { type: 8, name: 'mp-custom', key: 'sk-mp-1', base_url: mock, models: ['gpt-4o', 'mp-unpriced-model'], group: ['default', 'gold'] })
    await root.ok('POST', '/api/channel/', { type: 1, name: 'mp-openai', key: 'sk-mp-2', base_url: mock, models: ['dall-e-3'], group: ['gold'] })
    // The user registers, then root moves them into the gold group (PUT /api/user/).
    const user = new ApiSession(suite.server.url)
    await user.call('GET', '/api/status')
    await user.ok('POST', '/api/user/register', member)
    await user.login(member.username, member.password)
    const me = await user.ok<{ id: number }>('GET', '/api/user/self')
    const row = await root.ok<{ id: number; username: string; display_name: string; email: string }>('GET', `/api/user/${me.id}`)
    await root.ok('PUT', '/api/user/', { id: row.id, username: row.username, display_name: row.display_name, email: row.email ?? '', group: 'gold' })

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInToPanel(page, member)
    // Ordinary users see the price list in the menu but not the pricing editor.
    await page.getByRole('link', { name: 'Model prices' }).first().click()
    await page.waitForURL('**/panel/model_price')
    expect(await page.getByRole('link', { name: 'Pricing', exact: true }).count()).toBe(0)
    await page.goto('/panel/pricing')
    await page.waitForURL((url) => url.pathname.startsWith('/panel') && !url.pathname.startsWith('/panel/pricing'))
    await page.goto('/panel/model_price')

    const header = page.getByTestId('model-price-group')
    await header.getByText('gold', { exact: true }).waitFor()
    await header.getByTestId('model-price-ratio').getByText('×1.5').waitFor()
    // gpt-4o: input 1.25 × 1.5 × $2 = $3.75 / 1M, output 5 × 1.5 × $2 = $15.00 / 1M.
    const gpt = page.getByRole('row').filter({ has: page.getByText('gpt-4o', { exact: true }) })
    await gpt.getByText('$3.75').waitFor()
    await gpt.getByText('$15.00').waitFor()
    await gpt.getByText('Custom (OpenAI-compatible)').waitFor()
    // dall-e-3 is per call: 20 × 1.5 × $0.002 = $0.06 per call.
    const dalle = page.getByRole('row').filter({ has: page.getByText('dall-e-3', { exact: true }) })
    await dalle.getByText('$0.06').waitFor()
    await dalle.getByText('/ call').waitFor()
    await dalle.getByText('OpenAI').waitFor()
    await page.getByRole('row').filter({ hasText: 'mp-unpriced-model' }).getByText('Not priced').waitFor()
    await shot(page, 'model-prices-light')

    await page.getByRole('textbox', { name: 'Search models…' }).fill('dall')
    await page.waitForURL(/keyword=dall/)
    await expect.poll(() => page.getByRole('row').count()).toBe(2)
    await page.getByRole('button', { name: 'Reset' }).click()
    await page.getByTestId('filter-owned-by').click()
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click()
    await page.waitForURL(/owned_by=OpenAI/)
    await expect.poll(() => page.getByRole('row').count()).toBe(2)
    await dalle.waitFor()

    await page.getByRole('button', { name: 'Copy dall-e-3' }).click()
    await page.getByText('Copied successfully').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('dall-e-3')

    // The admin raises the ratio in the Groups tab; the member's prices follow.
    const adminView = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(adminView.page, admin)
    await adminView.page.goto('/panel/pricing?tab=groups')
    await adminView.page.getByRole('button', { name: 'Edit Gold customers' }).click()
    const dialog = adminView.page.getByTestId('group-dialog')
    await dialog.locator('input[name="ratio"]').fill('2')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await adminView.page.getByText('Updated successfully').first().waitFor()
    await adminView.page.getByRole('row').filter({ hasText: 'Gold customers' }).getByText('×2').waitFor()
    // A group users still belong to cannot be deleted: the server's message is shown.
    await adminView.page.getByRole('button', { name: 'Delete Gold customers' }).click()
    await adminView.page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await adminView.page.getByText('Error: Users still belong to this group: move them first').waitFor()
    await adminView.page.getByRole('row').filter({ hasText: 'Gold customers' }).waitFor()
    await adminView.context.close()

    await page.goto('/panel/model_price')
    await header.getByTestId('model-price-ratio').getByText('×2').waitFor()
    await gpt.getByText('$5.00').waitFor()
    await gpt.getByText('$20.00').waitFor()
    await context.close()
  })

  for (const v of LOOKS) {
    it(`looks right: ${v.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, suite.server.url, v, member)
      await page.goto('/panel/model_price')
      await page.getByRole('row').filter({ hasText: 'dall-e-3' }).waitFor()
      await expectNoOverflow(page)
      await shot(page, `model-prices-${v.name}`)
      await context.close()

      const adminView = await openSignedIn(suite.browser, suite.server.url, v, admin)
      await adminView.page.goto('/panel/pricing?tab=groups')
      await adminView.page.getByRole('row').filter({ hasText: 'Gold customers' }).waitFor()
      await expectNoOverflow(adminView.page)
      await shot(adminView.page, `pricing-groups-${v.name}`)
      await adminView.page.getByRole('button', { name: 'Edit Gold customers' }).click()
      await adminView.page.getByTestId('group-dialog').waitFor()
      await shot(adminView.page, `pricing-group-dialog-${v.name}`)
      await adminView.context.close()
    })
  }
})
