/**
 * Channels page (admin): root creates a channel pointing at the mock upstream through the sheet
 * (validation messages first, the supplier's model list fetched with the unsaved form), finds it
 * with the search box and tests it by clicking its response time (seconds shown); batch-creates
 * two channels from two key lines and finds them in the by-tag view; edits priority inline (and
 * sees a bad weight refused); deletes one behind a confirmation and the other as a selection.
 * Screenshots: light, dark, phone (list and sheet).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signInToPanel } from './support/console'
import { useBrowser } from './support/suite'
import { openNewChannelSheet } from './support/channels'

const suffix = Date.now().toString(36).slice(-6)
const SINGLE = `ui-mock-${suffix}`
const BATCH = `ui-batch-${suffix}`

/** Fills the create sheet for a Custom channel at the mock upstream. */
async function fillCustomChannel(page: Page, sheet: Locator, name: string, keys: string) {
  await sheet.getByTestId('channel-type').click()
  await page.getByRole('option', { name: 'Custom (OpenAI-compatible)' }).click()
  await sheet.locator('input[name="name"]').fill(name)
  await sheet.locator('input[name="base_url"]').fill(`${inject('mockUrl')}/`)
  await sheet.locator('textarea[name="key"]').fill(keys)
  const models = sheet.getByTestId('channel-models-input')
  await models.fill('gpt-4o-mini')
  await models.press('Enter')
  await sheet.getByTestId('channel-test-model').click()
  await page.getByRole('option', { name: 'gpt-4o-mini' }).click()
}

/** The row whose name cell is exactly `name` (the tag badge may repeat the name). */
const rowOf = (page: Page, name: string) => page.locator(`tbody tr:has(.font-medium[title="${name}"])`)

describe('channels page', () => {
  const suite = useBrowser()
  let root: ApiSession

  beforeAll(async () => {
    root = await rootSession()
  })

  it('creates a channel at the mock upstream, finds it and tests it', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    const sheet = await openNewChannelSheet(page)
    await sheet.getByTestId('channel-type').click()
    await page.getByRole('option', { name: 'Custom (OpenAI-compatible)' }).click()
    // Nothing filled in: the form explains what is missing before any request.
    await sheet.getByTestId('channel-submit').click()
    await sheet.getByText('Name is required', { exact: true }).waitFor()
    await sheet.getByText('Key cannot be empty', { exact: true }).waitFor()
    await sheet.getByText('Base URL is required for this type', { exact: true }).waitFor()
    await sheet.getByText('Add at least one model', { exact: true }).waitFor()
    // A wildcard in the middle and broken JSON are refused too.
    const models = sheet.getByTestId('channel-models-input')
    await models.fill('gpt-*-mini')
    await models.press('Enter')
    await sheet.locator('textarea[name="model_mapping"]').fill('{"a": ')
    await sheet.locator('input[name="proxy"]').fill('ftp://proxy')
    await sheet.getByTestId('channel-submit').click()
    await sheet.getByText('A * is allowed only as the last character, after some text', { exact: true }).waitFor()
    await sheet.getByText('Model mapping must be a valid JSON object', { exact: true }).waitFor()
    await sheet.getByText('Use http://, https:// or socks5:// followed by host:port', { exact: true }).waitFor()
    await sheet.getByRole('button', { name: 'Remove gpt-*-mini' }).click()
    await sheet.locator('textarea[name="model_mapping"]').fill('{"gpt-4o-mini": "gpt-4o-mini"}')
    await sheet.locator('input[name="proxy"]').fill('')

    await fillCustomChannel(page, sheet, SINGLE, 'sk-ui-mock')
    // The supplier's list is read with the unsaved form and offered in the picker.
    await sheet.getByTestId('channel-fetch-models').click()
    await page.getByText('The supplier listed 3 models: pick them from the list.').first().waitFor()
    await sheet.getByRole('button', { name: 'Add all fetched (3)' }).click()
    await sheet.getByRole('button', { name: 'Remove text-embedding-3-small' }).waitFor()
    await shot(page, 'channels-sheet-light')
    await sheet.getByTestId('channel-submit').click()
    await page.getByText('Channel created').first().waitFor()
    await sheet.waitFor({ state: 'detached' })

    await page.getByPlaceholder('Search by name…').fill(SINGLE)
    await page.waitForURL((url) => url.searchParams.get('name') === SINGLE)
    const row = rowOf(page, SINGLE)
    await row.waitFor()
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1)
    await row.getByText('Custom (OpenAI-compatible)').waitFor()
    await row.getByText('Enabled').waitFor()
    const listed = await root.ok<{ data: { id: number; models: string; base_url: string }[] }>('GET', `/api/channel/?name=${SINGLE}`)
    const created = listed.data[0]
    expect(created!.base_url).toBe(inject('mockUrl'))
    expect(created!.models.split(',').sort()).toEqual(['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small'])

    // Clicking the response time runs a speed test with the test model and shows the seconds.
    const response = row.getByTestId(`channel-response-${created!.id}`)
    await response.getByText('Not tested').waitFor()
    await response.click()
    await page
      .getByText(/^Channel test succeeded in \d+\.\d\d s$/)
      .first()
      .waitFor()
    await expect.poll(() => response.textContent()).toMatch(/^\d+\.\d\d s$/)

    // A test with a chosen model from the row menu.
    await row.getByTestId(`channel-actions-${created!.id}`).click()
    await page.getByRole('menuitem', { name: 'Test…' }).click()
    const testDialog = page.getByTestId('channel-test-dialog')
    await testDialog.getByRole('combobox').click()
    await page.getByRole('option', { name: 'gpt-4o', exact: true }).click()
    await testDialog.getByTestId('channel-test-run').click()
    await testDialog.waitFor({ state: 'detached' })
    await page
      .getByText(/^Channel test succeeded in/)
      .first()
      .waitFor()

    // The balance is read from the supplier (the mock's billing endpoints: $100 limit − $25 used).
    await row.getByTestId(`channel-balance-${created!.id}`).click()
    await page.getByText('Balance updated: $75.00').first().waitFor()
    await row.getByTestId(`channel-balance-${created!.id}`).getByText('$75.00').waitFor()
    await page.getByRole('button', { name: 'Refresh balances' }).click()
    // Other test files share this server: some of their channels may refuse a balance query.
    await page
      .getByText(/^Updated the balances? of \d+ enabled channels?$|^Updated \d+ balances?; \d+ could not be read$/)
      .first()
      .waitFor()

    // Disable with the switch: the badge follows.
    await row.getByRole('switch', { name: 'Disable channel' }).click()
    await page.getByText('Channel disabled').first().waitFor()
    await row.getByText('Disabled', { exact: true }).waitFor()
    await row.getByRole('switch', { name: 'Enable channel' }).click()
    await row.getByText('Enabled', { exact: true }).waitFor()
    await page.reload()
    await rowOf(page, SINGLE).waitFor()
    await expectNoOverflow(page)
    await shot(page, 'channels-light')
    await context.close()
  })

  it('batch-creates two channels under a tag, edits priority inline and deletes them', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto('/panel/channel')
    await page.getByTestId('channel-create').click()
    const sheet = page.getByTestId('channel-sheet')
    await fillCustomChannel(page, sheet, BATCH, 'sk-batch-1\nsk-batch-2')
    await sheet.getByText(`2 keys: 2 channels will be created under the tag “${BATCH}”.`).waitFor()
    await sheet.getByRole('button', { name: 'Create 2 channels' }).click()
    await page.getByText('Created 2 channels').first().waitFor()

    await page.getByTestId('channel-view-tag').click()
    await page.getByText('Choose a tag above to see its channels.').waitFor()
    await page.getByTestId('channel-tags').getByRole('button', { name: BATCH }).click()
    await page.waitForURL((url) => url.searchParams.get('tag') === BATCH)
    await rowOf(page, BATCH).waitFor()
    await rowOf(page, `${BATCH}_2`).waitFor()
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2)

    // Priority edited in the row, saved on Enter, still there after a reload.
    const first = rowOf(page, BATCH)
    const priority = first.getByRole('spinbutton', { name: 'Priority' })
    await priority.fill('7')
    await priority.press('Enter')
    await page.getByText('Channel updated').first().waitFor()
    await page.reload()
    await expect.poll(() => rowOf(page, BATCH).getByRole('spinbutton', { name: 'Priority' }).inputValue()).toBe('7')
    // A weight below 1 is refused and the old value comes back.
    const weight = rowOf(page, BATCH).getByRole('spinbutton', { name: 'Weight' })
    await weight.fill('0')
    await weight.press('Enter')
    await page.getByText('Weight must be a whole number of at least 1').first().waitFor()
    await expect.poll(() => weight.inputValue()).toBe('1')

    await presetTheme(page, 'dark')
    await page.reload()
    await rowOf(page, BATCH).waitFor()
    await shot(page, 'channels-tag-dark')

    // Delete one behind a confirmation.
    const second = rowOf(page, `${BATCH}_2`)
    await second.getByRole('button', { name: `More actions for ${BATCH}_2` }).click()
    await page.getByRole('menuitem', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Delete this channel?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Channel deleted').first().waitFor()
    await second.waitFor({ state: 'detached' })

    // The other as a selection: the bulk bar, then a confirmation.
    await rowOf(page, BATCH).getByRole('checkbox', { name: 'Select row' }).click()
    const bulk = page.getByTestId('channel-bulk-actions')
    await bulk.getByText('1 channel selected').waitFor()
    await bulk.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('alertdialog').getByText('1 channel will be deleted. This cannot be undone.').waitFor()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Deleted 1 channel').first().waitFor()
    await expect.poll(async () => (await root.ok<any>('GET', `/api/channel/?tag=${BATCH}`)).total_count).toBe(0)
    await context.close()
  })

  it('works at phone width', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE })
    await presetTheme(page, 'light')
    await signInToPanel(page, SHARED_ROOT)
    await page.goto(`/panel/channel?name=${SINGLE}`)
    await rowOf(page, SINGLE).waitFor()
    await expectNoOverflow(page)
    await shot(page, 'channels-phone')
    await rowOf(page, SINGLE)
      .getByRole('button', { name: `Edit ${SINGLE}` })
      .click()
    const sheet = page.getByTestId('channel-sheet')
    await sheet.locator('textarea[name="key"]').waitFor()
    // Editing loads the key.
    expect(await sheet.locator('textarea[name="key"]').inputValue()).toBe('sk-ui-mock')
    await shot(page, 'channels-sheet-phone')
    await context.close()

    const desktop = await openPage(suite.browser, { baseURL: root.base, viewport: DESKTOP })
    await presetTheme(desktop.page, 'dark')
    await signInToPanel(desktop.page, SHARED_ROOT)
    await desktop.page.goto('/panel/channel')
    await desktop.page.getByTestId('channel-create').click()
    await desktop.page.getByTestId('channel-sheet').getByRole('heading', { name: 'New channel' }).waitFor()
    await shot(desktop.page, 'channels-sheet-dark')
    await desktop.context.close()
  })
})
