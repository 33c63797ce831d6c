/**
 * Redemption codes page (admin): root generates 3 codes through the form, copies them from the
 * one-time dialog (one and all), a user redeems one through POST /api/user/topup and the list
 * shows it redeemed by that user; disable (confirmed) stops a code from being redeemed, enable
 * brings it back, edit renames, delete (confirmed) removes. Screenshots: light, dark, phone.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { rowAction, signInToPanel, openSignedIn } from './support/console'
import { useBrowser } from './support/suite'

/** Polls with room for a busy machine (vitest's default is one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 })

const suffix = Date.now().toString(36).slice(-6)
const BATCH = `rc${suffix}`
const REDEEMER = `rr${suffix}`

const rows = (page: Page) => page.locator('tbody tr')
const statuses = (page: Page) => page.getByTestId('redemption-status').allInnerTexts()

describe('redemption codes page', () => {
  const suite = useBrowser()
  let root: ApiSession
  let codes: string[] = []

  beforeAll(async () => {
    root = await rootSession()
    await root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000' } })
  })

  it('root generates 3 codes and copies them from the one-time dialog', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInToPanel(page, SHARED_ROOT)
    await page.goto('/panel/redemption')
    await page.getByRole('heading', { name: 'Redemption codes' }).waitFor()

    await page.getByTestId('redemption-create').click()
    const form = page.getByTestId('redemption-form-dialog')
    await form.locator('input[name="count"]').fill('101')
    await form.getByRole('button', { name: 'Generate' }).click()
    await form.getByText('This field is required').first().waitFor()
    await form.getByText('Enter a number from 1 to 100').waitFor()
    await form.locator('input[name="name"]').fill('a-name-longer-than-twenty')
    await form.getByText('The name must be at most 20 characters').waitFor()

    await form.locator('input[name="name"]').fill(BATCH)
    await form.locator('input[name="quota"]').fill('2')
    await form.locator('input[name="count"]').fill('3')
    await form.getByRole('button', { name: 'Generate' }).click()

    const keys = page.getByTestId('redemption-keys-dialog')
    await keys.getByRole('heading', { name: '3 redemption codes created' }).waitFor()
    await keys.getByText('They will not be shown again').waitFor()
    codes = await keys.getByTestId('redemption-key').allInnerTexts()
    expect(codes).toHaveLength(3)
    for (const code of codes) expect(code).toMatch(/^\S{32}$/)

    await keys.getByRole('button', { name: 'Copy code 2' }).click()
    await page.getByText('Copied successfully').first().waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(codes[1])
    await keys.getByTestId('redemption-copy-all').click()
    await eventually(() => page.evaluate(() => navigator.clipboard.readText())).toBe(codes.join('\n'))
    await shot(page, 'redemptions-keys-light')

    // Clicking outside does not lose the codes; "Done" closes the dialog.
    await page.mouse.click(10, 10)
    await keys.getByRole('button', { name: 'Done' }).click()
    await keys.waitFor({ state: 'detached' })

    await page.getByPlaceholder('Search ID or name…').fill(BATCH)
    await eventually(() => rows(page).count()).toBe(3)
    await eventually(() => statuses(page)).toEqual(['Unused', 'Unused', 'Unused'])
    await eventually(() => rows(page).first().innerText()).toContain('$2.00')
    await context.close()
  })

  it('a user redeems one code; the admin sees it redeemed and manages the others', async () => {
    const user = await userSession(REDEEMER)
    const me = await user.ok<{ id: number; quota: number }>('GET', '/api/user/self')
    const redeemed = await user.ok<{ quota: number }>('POST', '/api/user/topup', { key: codes[0] })
    expect(redeemed.quota).toBe(1_000_000)
    expect((await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(me.quota + 1_000_000)

    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto(`/panel/redemption?keyword=${BATCH}`)
    await eventually(() => rows(page).count()).toBe(3)
    await eventually(async () => (await statuses(page)).sort()).toEqual(['Redeemed', 'Unused', 'Unused'])
    const redeemedRow = rows(page).filter({ hasText: 'Redeemed' })
    await eventually(() => redeemedRow.getByTestId('redemption-user').innerText()).toBe(`#${me.id}`)
    // A redeemed code is read-only: only delete is offered.
    await redeemedRow.getByRole('button', { name: /^Actions for/ }).click()
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Delete'])
    await page.keyboard.press('Escape')
    await shot(page, 'redemptions-light')

    // Disable one (confirmed): it can no longer be redeemed.
    const unused = rows(page).filter({ hasText: 'Unused' })
    const target = unused.first()
    const targetId = (await target.locator('td').first().innerText()).trim()
    const byId = rows(page).filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${targetId}$`) }) })
    await rowAction(page, byId, 'Disable')
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Disable this code?').waitFor()
    await confirm.getByRole('button', { name: 'Disable' }).click()
    await confirm.waitFor({ state: 'detached' })
    await eventually(() => byId.getByTestId('redemption-status').innerText()).toBe('Disabled')
    // Of the two other codes, the disabled one is refused and the other one is redeemed.
    const attempts = await Promise.all(codes.slice(1).map((key) => user.call('POST', '/api/user/topup', { key })))
    expect(attempts.filter((r) => !r.body.success)).toHaveLength(1)
    await page.reload()
    await eventually(async () => (await statuses(page)).sort()).toEqual(['Disabled', 'Redeemed', 'Redeemed'])

    // Enable brings it back.
    await rowAction(page, byId, 'Enable')
    await eventually(() => byId.getByTestId('redemption-status').innerText()).toBe('Unused')

    // Edit: rename it and change its quota.
    await rowAction(page, byId, 'Edit')
    const form = page.getByTestId('redemption-form-dialog')
    await eventually(() => form.locator('input[name="name"]').inputValue()).toBe(BATCH)
    await eventually(() => form.locator('input[name="quota"]').inputValue()).toBe('2')
    await form.locator('input[name="name"]').fill(`${BATCH}-vip`)
    await form.locator('input[name="quota"]').fill('5')
    await form.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Redemption code updated').first().waitFor()
    await eventually(() => byId.innerText()).toContain(`${BATCH}-vip`)
    await eventually(() => byId.innerText()).toContain('$5.00')

    // Delete (confirmed).
    await rowAction(page, byId, 'Delete')
    await confirm.getByText('Delete this code?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('Redemption code deleted').first().waitFor()
    await eventually(() => rows(page).count()).toBe(2)
    await context.close()
  })

  for (const variant of [
    { name: 'redemptions-dark', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'redemptions-zh', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'redemptions-phone-light', viewport: PHONE, theme: 'light' as const },
    { name: 'redemptions-phone-dark', viewport: PHONE, theme: 'dark' as const },
  ]) {
    it(`renders ${variant.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, root.base, variant, SHARED_ROOT)
      await page.goto('/panel/redemption')
      await page.getByTestId('redemption-status').first().waitFor()
      await expectNoOverflow(page)
      await shot(page, variant.name)
      await page.getByTestId('redemption-create').click()
      const form = page.getByTestId('redemption-form-dialog')
      await form.locator('input[name="name"]').fill(`${BATCH}-shot`)
      await form.locator('input[name="quota"]').fill('1')
      await form.locator('button[form="redemption-form"]').click()
      await page.getByTestId('redemption-keys-dialog').getByTestId('redemption-key').first().waitFor()
      await shot(page, `${variant.name}-keys`)
      await context.close()
    })
  }
})
