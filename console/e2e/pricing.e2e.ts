/**
 * Pricing editor (admin): create, edit, lock and delete a price; delete several; edit a merged
 * group of models at once; the unpriced-models warning; and "check updates" from price lists on a
 * local HTTP server (fetched by the gateway): errors, the diff, add-new-only and overwrite,
 * verified through GET /api/prices. Screenshots in light, dark and at phone width.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inject } from 'vitest'
import type { Page } from 'playwright-core'
import type { ApiSession } from '../../worker/e2e/support/api'
import { openPage, shot, expectNoOverflow } from './support/browser'
import { apiSession, serveFiles, type FileServer } from './support/billing'
import { signInToPanel, LOOKS, openSignedIn } from './support/console'
import { useFreshGateway } from './support/suite'

const account = { username: 'pricingadmin', password: 'pricing-pass-1' }

interface PriceRow {
  model: string
  type: string
  channel_type: number
  input: number
  output: number
  locked: boolean
  extra_ratios: Record<string, number> | null
}

describe('pricing editor', () => {
  const suite = useFreshGateway(account)
  let root: ApiSession
  let lists: FileServer
  const prices = async () => new Map((await root.ok<PriceRow[]>('GET', '/api/prices')).map((p) => [p.model, p]))

  const remote = [
    { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1.25, output: 5, extra_ratios: { cached_tokens: 0.5 } },
    { model: 'gpt-4o-mini', type: 'tokens', channel_type: 1, input: 0.075, output: 0.3 },
    { model: 'remote-new-chat', type: 'tokens', channel_type: 8, input: 0.5, output: 1.5 },
    { model: 'remote-new-image', type: 'times', channel_type: 8, input: 25, output: 0 },
  ]

  beforeAll(async () => {
    root = await apiSession(suite.server.url, account)
    lists = await serveFiles({
      '/prices.json': remote,
      '/wrapped.json': { data: remote.slice(0, 2) },
      '/bad.json': { prices: 'nope' },
    })
  })
  afterAll(async () => {
    await lists?.stop()
  })

  async function openPricing(page: Page, query = '') {
    await page.goto(`/panel/pricing${query}`)
    await page.getByRole('heading', { name: 'Pricing' }).waitFor()
  }

  it('creates, edits, locks and deletes a price', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, account)
    await openPricing(page, '?keyword=gpt-4o')
    // The built-in table seeded at setup is listed, with dollar equivalents beside the multipliers.
    const gpt4o = page.getByRole('row').filter({ has: page.getByText('gpt-4o', { exact: true }) })
    await gpt4o.getByText('$2.50 / 1M tokens').waitFor()
    await gpt4o.getByText('Cached ×0.5').waitFor()
    await shot(page, 'pricing-single-light')

    await page.getByTestId('pricing-new').click()
    const dialog = page.getByTestId('price-dialog')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Model name is required').waitFor()
    await dialog.getByText('Supplier is required').waitFor()
    const model = dialog.locator('input[name="model"]')
    await model.fill('gpt-4o')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('This model already has a price').waitFor()
    await model.fill('acme*chat')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('A wildcard * is allowed only as the last character, after some text').waitFor()

    await model.fill('acme-chat-1')
    await dialog.getByTestId('price-supplier').click()
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click()
    await dialog.locator('input[name="input"]').fill('1.5')
    await dialog.getByTestId('usd-input').getByText('= $3.00 / 1M tokens').waitFor()
    await dialog.locator('input[name="output"]').fill('-1')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Must be at least 0').waitFor()
    await dialog.locator('input[name="output"]').fill('3')
    await dialog.getByRole('button', { name: 'Add', exact: true }).click()
    await dialog.getByRole('textbox', { name: 'Ratio' }).fill('0.5')
    await shot(page, 'pricing-new-dialog-light')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Created successfully').first().waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect((await prices()).get('acme-chat-1')).toMatchObject({
      type: 'tokens',
      channel_type: 1,
      input: 1.5,
      output: 3,
      locked: false,
      extra_ratios: { cached_tokens: 0.5 },
    })

    await page.getByRole('textbox', { name: 'Search models…' }).fill('acme')
    await page.waitForURL(/keyword=acme/)
    const row = page.getByRole('row').filter({ has: page.getByText('acme-chat-1', { exact: true }) })
    await row.getByText('$3.00 / 1M tokens').waitFor()
    await row.getByText('$6.00 / 1M tokens').waitFor()
    await row.getByText('Cached ×0.5').waitFor()

    // Edit: a per-call price shows dollars per call and no output price.
    await page.getByRole('button', { name: 'Edit acme-chat-1' }).click()
    await dialog.getByTestId('price-type').click()
    await page.getByRole('option', { name: 'Per call' }).click()
    await dialog.locator('input[name="input"]').fill('25')
    await dialog.getByTestId('usd-input').getByText('= $0.05 / call').waitFor()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Updated successfully').first().waitFor()
    await row.getByText('$0.05 / call').waitFor()
    expect((await prices()).get('acme-chat-1')).toMatchObject({ type: 'times', input: 25 })

    await page.getByRole('button', { name: 'Lock acme-chat-1 against updates' }).click()
    await page.getByText('acme-chat-1 is locked').waitFor()
    await page.getByRole('button', { name: 'Unlock acme-chat-1' }).waitFor()
    expect((await prices()).get('acme-chat-1')?.locked).toBe(true)

    await page.getByRole('button', { name: 'Delete acme-chat-1' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('The price of acme-chat-1 is removed').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Deleted successfully').first().waitFor()
    await page.getByText('No prices match these filters.').waitFor()
    expect((await prices()).has('acme-chat-1')).toBe(false)
    await context.close()
  })

  it('deletes the selected rows together', async () => {
    for (const m of ['bulk-one', 'bulk-two']) {
      await root.ok('POST', '/api/prices/single', { model: m, type: 'tokens', channel_type: 1, input: 1, output: 1 })
    }
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, account)
    await openPricing(page, '?keyword=bulk-')
    await page.getByRole('row').filter({ hasText: 'bulk-two' }).waitFor()
    await page.getByRole('checkbox', { name: 'Select all' }).click()
    await page.getByRole('button', { name: 'Delete 2 prices' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Deleted 2 prices').waitFor()
    const left = await prices()
    expect(left.has('bulk-one') || left.has('bulk-two')).toBe(false)
    await context.close()
  })

  it('edits two models at once in the merged view', async () => {
    for (const m of ['merge-alpha', 'merge-beta']) {
      await root.ok('POST', '/api/prices/single', { model: m, type: 'tokens', channel_type: 14, input: 0.7, output: 2.1 })
    }
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, account)
    await openPricing(page, '?tab=merged&keyword=merge-')
    const group = page.getByRole('row').filter({ has: page.getByText('merge-alpha', { exact: true }) })
    await group.getByText('merge-beta', { exact: true }).waitFor()
    await group.getByText('$1.40 / 1M tokens').waitFor()
    await shot(page, 'pricing-merged-light')

    await group.getByTestId('merged-edit').click()
    const dialog = page.getByTestId('merged-dialog')
    await dialog.getByText('2 models share this price').waitFor()
    await dialog.locator('input[name="input"]').fill('0.9')
    await dialog.getByRole('textbox', { name: 'Add a model' }).fill('merge-gamma')
    await dialog.getByRole('textbox', { name: 'Add a model' }).press('Enter')
    await dialog.getByTestId('merged-models').getByText('merge-gamma').waitFor()
    // A model that has its own price elsewhere cannot join the group.
    await dialog.getByRole('textbox', { name: 'Add a model' }).fill('gpt-4o')
    await dialog.getByRole('textbox', { name: 'Add a model' }).press('Enter')
    await dialog.getByText('This model already has a price').waitFor()
    await dialog.getByRole('button', { name: 'Remove gpt-4o' }).click()
    await shot(page, 'pricing-merged-dialog-light')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved successfully').first().waitFor()
    await dialog.waitFor({ state: 'detached' })
    await group.getByText('merge-gamma', { exact: true }).waitFor()
    await group.getByText('$1.80 / 1M tokens').waitFor()
    let all = await prices()
    for (const m of ['merge-alpha', 'merge-beta', 'merge-gamma']) expect(all.get(m)).toMatchObject({ input: 0.9, output: 2.1, channel_type: 14 })
    expect(all.get('gpt-4o')?.input).toBe(1.25)

    // Removing a model from the group deletes its price.
    await group.getByTestId('merged-edit').click()
    await dialog.getByRole('button', { name: 'Remove merge-gamma' }).click()
    await dialog.getByText('Saving deletes the price of: merge-gamma').waitFor()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Saved successfully').first().waitFor()
    await dialog.waitFor({ state: 'detached' })
    all = await prices()
    expect(all.has('merge-gamma')).toBe(false)
    expect(all.get('merge-alpha')?.input).toBe(0.9)
    await context.close()
  })

  it('warns about models that channels serve without a price, and prices one from the warning', async () => {
    await root.ok('POST', '/api/channel/', {
      type: 8,
      name: 'pricing-e2e-channel',
      key: 'sk-mock-pricing',
      base_url: inject('mockUrl'),
      models: ['gpt-4o', 'pricing-unpriced-model'],
      group: ['default'],
    })
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, account)
    await openPricing(page)
    const alert = page.getByTestId('unpriced-alert')
    await alert.getByText('1 model served by channels has no price').waitFor()
    await alert.getByRole('button', { name: 'pricing-unpriced-model' }).waitFor()
    expect(await alert.getByRole('button', { name: 'gpt-4o' }).count()).toBe(0)

    await alert.getByRole('button', { name: 'pricing-unpriced-model' }).click()
    const dialog = page.getByTestId('price-dialog')
    expect(await dialog.locator('input[name="model"]').inputValue()).toBe('pricing-unpriced-model')
    await dialog.getByTestId('price-supplier').click()
    await page.getByRole('option', { name: 'Custom (OpenAI-compatible)' }).click()
    await dialog.locator('input[name="input"]').fill('1')
    await dialog.locator('input[name="output"]').fill('2')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await page.getByText('Created successfully').first().waitFor()
    await alert.waitFor({ state: 'detached' })
    await context.close()
  })

  it('check updates: the gateway fetches the list; diff, add new only keeps edited prices, overwrite keeps locked ones', async () => {
    // The admin's own state: an edited price, a locked price, an own unlocked and an own locked model.
    await root.ok('PUT', '/api/prices/single/gpt-4o', { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 9, output: 9 })
    await root.ok('PUT', '/api/prices/single/gpt-4o-mini', { model: 'gpt-4o-mini', type: 'tokens', channel_type: 1, input: 7, output: 7, locked: true })
    await root.ok('POST', '/api/prices/single', { model: 'my-own-model', type: 'tokens', channel_type: 8, input: 3, output: 3 })
    await root.ok('POST', '/api/prices/single', { model: 'my-locked-model', type: 'tokens', channel_type: 8, input: 4, output: 4, locked: true })

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, account)
    await openPricing(page)
    await page.getByTestId('pricing-updates').click()
    const dialog = page.getByTestId('updates-dialog')
    const url = dialog.getByLabel('Price list URL')
    // The default URL is the one the server names; applying before fetching is refused.
    // (the field fills in once that request answers, hence the poll).
    const defaultUrl = await root.ok<string>('GET', '/api/prices/updateService')
    await expect.poll(() => url.inputValue()).toBe(defaultUrl)
    await dialog.getByTestId('updates-add').click()
    await page.getByText('Please fetch data first').waitFor()

    await url.fill('ftp://example.com/prices.json')
    await dialog.getByTestId('updates-fetch').click()
    await dialog.getByTestId('updates-error').getByText('Enter a valid http(s) address.').waitFor()
    await url.fill(`${lists.url}/bad.json`)
    await dialog.getByTestId('updates-fetch').click()
    await dialog.getByTestId('updates-error').getByText('The address answered, but not with a price list (data format is incorrect).').waitFor()
    await url.fill(`${lists.url}/missing.json`)
    await dialog.getByTestId('updates-fetch').click()
    await dialog.getByTestId('updates-error').getByText('Failed to fetch the price list: the server answered 404').waitFor()
    await shot(page, 'pricing-updates-error-light')

    // {data: [...]} is accepted as well.
    await url.fill(`${lists.url}/wrapped.json`)
    await dialog.getByTestId('updates-fetch').click()
    await dialog.getByTestId('updates-diff').getByText('2 changed prices').waitFor()

    await url.fill(`${lists.url}/prices.json`)
    await dialog.getByTestId('updates-fetch').click()
    const diff = dialog.getByTestId('updates-diff')
    await diff.getByText('2 new models').waitFor()
    expect(lists.requests.filter((r) => r === '/prices.json').length).toBe(1)
    await diff.getByText('2 changed prices').waitFor()
    const added = diff.getByTestId('updates-added')
    await added.getByText('remote-new-chat').waitFor()
    await added.getByText('$0.05 / call').waitFor()
    await diff.getByRole('tab', { name: 'Changed (2)' }).click()
    const changed = diff.getByTestId('updates-changed')
    await changed.getByText('9 ($18.00 / 1M tokens)').first().waitFor()
    await changed.getByText('1.25 ($2.50 / 1M tokens)').waitFor()
    await changed.getByRole('row').filter({ hasText: 'gpt-4o-mini' }).getByText('Locked: kept').waitFor()
    await shot(page, 'pricing-updates-diff-light')
    await diff.getByRole('tab', { name: /^Only here/ }).click()
    const local = diff.getByTestId('updates-local')
    await local.getByRole('row').filter({ hasText: 'my-own-model' }).getByText('Removed').waitFor()
    await local.getByRole('row').filter({ hasText: 'my-locked-model' }).getByText('Locked: kept').waitFor()

    // Add new only: the two new models arrive, the admin's edited price stays.
    await dialog.getByTestId('updates-add').click()
    await dialog.getByTestId('updates-result').getByText('Added 2, updated 0, removed 0, kept 0 locked.').waitFor()
    let all = await prices()
    expect(all.get('remote-new-chat')).toMatchObject({ input: 0.5, output: 1.5, channel_type: 8, type: 'tokens', locked: false })
    expect(all.get('remote-new-image')).toMatchObject({ type: 'times', input: 25 })
    expect(all.get('gpt-4o')).toMatchObject({ input: 9, output: 9 })
    expect(all.has('my-own-model')).toBe(true)
    await dialog.getByTestId('updates-add').click()
    await page.getByText('No new models').waitFor()

    // Overwrite asks first, then replaces unlocked prices and removes unlocked local-only ones.
    const unlockedLocalOnly = [...all.values()].filter((p) => !p.locked && !remote.some((r) => r.model === p.model)).length
    await dialog.getByTestId('updates-overwrite').click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Overwrite your prices?').waitFor()
    await confirm.getByText(`unlocked prices that only exist here are removed (${unlockedLocalOnly}), including ones you added yourself`).waitFor()
    await shot(page, 'pricing-updates-confirm-light')
    await confirm.getByRole('button', { name: 'Overwrite' }).click()
    await dialog.getByTestId('updates-result').getByText(`Added 0, updated 3, removed ${unlockedLocalOnly}, kept 1 locked.`).waitFor()
    all = await prices()
    expect(all.get('gpt-4o')).toMatchObject({ input: 1.25, output: 5, extra_ratios: { cached_tokens: 0.5 } })
    expect(all.get('gpt-4o-mini')).toMatchObject({ input: 7, output: 7, locked: true })
    expect(all.has('my-own-model')).toBe(false)
    expect(all.get('my-locked-model')).toMatchObject({ input: 4, locked: true })
    expect([...all.keys()].sort()).toEqual(['gpt-4o', 'gpt-4o-mini', 'my-locked-model', 'remote-new-chat', 'remote-new-image'])

    // The last URL used is remembered for next time.
    await dialog.getByRole('button', { name: 'Close' }).first().click()
    await page.reload()
    await page.getByTestId('pricing-updates').click()
    expect(await page.getByTestId('updates-dialog').getByLabel('Price list URL').inputValue()).toBe(`${lists.url}/prices.json`)
    await context.close()
  })

  for (const v of LOOKS) {
    it(`looks right: ${v.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, suite.server.url, v, account)
      await openPricing(page)
      await page.getByText('/ 1M tokens').first().waitFor()
      await expectNoOverflow(page)
      await shot(page, `pricing-single-${v.name}`)
      await page.getByRole('tab', { name: 'Merged' }).click()
      await page.getByTestId('merged-edit').first().waitFor()
      await expectNoOverflow(page)
      await shot(page, `pricing-merged-${v.name}`)
      await page.getByTestId('merged-edit').first().click()
      await page.getByTestId('merged-dialog').waitFor()
      await shot(page, `pricing-merged-dialog-${v.name}`)
      await page.keyboard.press('Escape')
      await page.getByTestId('pricing-updates').click()
      await page.getByTestId('updates-dialog').waitFor()
      await shot(page, `pricing-updates-${v.name}`)
      await context.close()
    })
  }
})
