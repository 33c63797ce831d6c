/**
 * Users page (admin): root creates a user through the form, finds it with the search box, changes
 * its quota with a remark and sees the new balance; promotes and demotes it, disables and enables
 * it behind confirmations, edits and deletes it. An ordinary admin is offered nothing the server
 * would refuse (no actions on root or peers, no promote/demote). Screenshots: light, dark, phone.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { ApiSession, SHARED_ROOT, rootSession, userSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { rowAction, signInToPanel, openSignedIn } from './support/console'
import { useBrowser } from './support/suite'

/** Polls with room for a busy machine (vitest's default is one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 })

const suffix = Date.now().toString(36).slice(-6)
const NEW_USER = `nu${suffix}`
const ADMIN = { username: `ua${suffix}`, password: 'admin-password-1' }
const PEER = `up${suffix}`
const PLAIN = `uc${suffix}`

/** Types into the list's search box and waits for the row of `username`. */
async function searchUser(page: Page, username: string): Promise<Locator> {
  await page.getByPlaceholder('Search ID, username, name, email or group…').fill(username)
  await page.waitForURL((url) => url.searchParams.get('keyword') === username)
  const row = page.locator('tbody tr', { has: page.getByText(username, { exact: true }) })
  await row.waitFor()
  return row
}

describe('users page', () => {
  const suite = useBrowser()
  let root: ApiSession

  beforeAll(async () => {
    root = await rootSession()
    await root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000' } })
  })

  it('root creates a user, finds it and changes its quota with a remark', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto('/panel/user')
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await page.locator('tbody tr').first().waitFor()

    await page.getByTestId('user-create').click()
    const dialog = page.getByTestId('user-form-dialog')
    await dialog.getByRole('heading', { name: 'Add user' }).waitFor()
    // The form's rules apply before anything is sent.
    await dialog.locator('input[name="username"]').fill('ab')
    await dialog.locator('input[name="password"]').fill('short')
    await dialog.locator('input[name="quota"]').fill('-1')
    await dialog.getByRole('button', { name: 'Create user' }).click()
    await dialog.getByText('Username must be at least 3 characters').waitFor()
    await dialog.getByText('Password must be at least 8 characters').waitFor()
    await dialog.getByText('Quota must be at least 0').waitFor()

    await dialog.locator('input[name="username"]').fill(NEW_USER)
    await dialog.locator('input[name="display_name"]').fill('Grace Hopper')
    await dialog.locator('input[name="password"]').fill('new-user-pass-1')
    await dialog.locator('input[name="email"]').fill(`${NEW_USER}@example.com`)
    await dialog.locator('input[name="quota"]').fill('10')
    await eventually(() => dialog.locator('button[name="group"]').innerText()).toBe('default')
    await dialog.getByRole('button', { name: 'Create user' }).click()
    await page.getByText('User created').first().waitFor()
    await dialog.waitFor({ state: 'detached' })

    const row = await searchUser(page, NEW_USER)
    await eventually(() => page.locator('tbody tr').count()).toBe(1)
    await row.getByText('Grace Hopper').waitFor()
    await eventually(() => row.getByTestId('user-quota').innerText()).toBe('$10.00')
    await eventually(() => row.getByTestId('role-badge').innerText()).toBe('User')

    await rowAction(page, row, 'Change quota')
    const quota = page.getByTestId('quota-dialog')
    await quota.locator('input[name="amount"]').fill('2.5')
    await quota.locator('input[name="remark"]').fill(`e2e bonus ${suffix}`)
    await eventually(() => quota.getByTestId('quota-preview').innerText()).toMatch(/\$10\.00\s*\$12\.50/)
    await quota.getByRole('button', { name: 'Apply' }).click()
    await page.getByText('Quota updated').first().waitFor()
    await quota.waitFor({ state: 'detached' })
    await eventually(() => row.getByTestId('user-quota').innerText()).toBe('$12.50')

    // Subtracting more than the balance is refused in the dialog.
    await rowAction(page, row, 'Change quota')
    await quota.getByRole('tab', { name: 'Subtract' }).click()
    await quota.locator('input[name="amount"]').fill('100')
    await quota.getByRole('button', { name: 'Apply' }).click()
    await quota.getByText('The balance cannot go below zero').waitFor()
    await shot(page, 'users-quota-light')
    await quota.getByRole('button', { name: 'Cancel' }).click()
    await quota.waitFor({ state: 'detached' })

    // The change was written as a manage log with the remark.
    const logs = await root.ok<{ data: { type: number; content: string }[] }>('GET', `/api/log/?type=3&username=${NEW_USER}`)
    expect(logs.data.some((l) => l.content.includes(`e2e bonus ${suffix}`))).toBe(true)
    await context.close()
  })

  it('root promotes and demotes, disables and enables behind confirmations, edits and deletes', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto(`/panel/user?keyword=${NEW_USER}`)
    const row = page.locator('tbody tr', { has: page.getByText(NEW_USER, { exact: true }) })
    await row.waitFor()

    await rowAction(page, row, 'Make admin')
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Make this user an administrator?').waitFor()
    await confirm.getByRole('button', { name: 'Make admin' }).click()
    await confirm.waitFor({ state: 'detached' })
    await eventually(() => row.getByTestId('role-badge').innerText()).toBe('Admin')

    await rowAction(page, row, 'Remove admin')
    await confirm.getByRole('button', { name: 'Remove admin' }).click()
    await confirm.waitFor({ state: 'detached' })
    await eventually(() => row.getByTestId('role-badge').innerText()).toBe('User')

    // Cancelling a confirmation changes nothing.
    await rowAction(page, row, 'Disable')
    await confirm.getByText('Disable this user?').waitFor()
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(await row.getByTestId('status-badge').innerText()).toBe('Enabled')

    await rowAction(page, row, 'Disable')
    await confirm.getByRole('button', { name: 'Disable' }).click()
    await confirm.waitFor({ state: 'detached' })
    await eventually(() => row.getByTestId('status-badge').innerText()).toBe('Disabled')
    const blocked = await userSessionStatus(root.base, NEW_USER, 'new-user-pass-1')
    expect(blocked).not.toBe(200)

    await rowAction(page, row, 'Enable')
    await eventually(() => row.getByTestId('status-badge').innerText()).toBe('Enabled')
    expect(await userSessionStatus(root.base, NEW_USER, 'new-user-pass-1')).toBe(200)

    // Edit: a new display name; an empty password keeps the old one.
    await rowAction(page, row, 'Edit')
    const dialog = page.getByTestId('user-form-dialog')
    await eventually(() => dialog.locator('input[name="username"]').inputValue()).toBe(NEW_USER)
    await dialog.locator('input[name="display_name"]').fill('Rear Admiral Hopper')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('User updated').first().waitFor()
    await row.getByText('Rear Admiral Hopper').waitFor()
    expect(await userSessionStatus(root.base, NEW_USER, 'new-user-pass-1')).toBe(200)
    await eventually(() => row.getByTestId('user-quota').innerText()).toBe('$12.50')
    await shot(page, 'users-light')

    await rowAction(page, row, 'Delete')
    await confirm.getByText('Delete this user?').waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByText('No user matches this search.').waitFor()
    await context.close()
  })

  it('an ordinary admin is offered nothing the server would refuse', async () => {
    const admin = await userSession(ADMIN.username, ADMIN.password)
    const adminId = (await admin.ok<{ id: number }>('GET', '/api/user/self')).id
    await root.ok('POST', '/api/user/manage', { id: adminId, action: 'promote' })
    const peer = await userSession(PEER)
    await root.ok('POST', '/api/user/manage', { id: (await peer.ok<{ id: number }>('GET', '/api/user/self')).id, action: 'promote' })
    await userSession(PLAIN)

    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(page, { username: ADMIN.username, password: ADMIN.password })
    await page.goto('/panel/user')
    await page.getByRole('heading', { name: 'Users' }).waitFor()

    // Root and a peer admin: no menu at all.
    const rootRow = await searchUser(page, SHARED_ROOT.username)
    await eventually(() => rootRow.getByTestId('role-badge').innerText()).toBe('Super admin')
    expect(await rootRow.getByRole('button', { name: /^Actions for/ }).count()).toBe(0)
    const peerRow = await searchUser(page, PEER)
    expect(await peerRow.getByRole('button', { name: /^Actions for/ }).count()).toBe(0)

    // An ordinary user: everything but promote/demote.
    const plainRow = await searchUser(page, PLAIN)
    await plainRow.getByRole('button', { name: /^Actions for/ }).click()
    const menu = page.getByRole('menu')
    await menu.getByRole('menuitem', { name: 'Disable' }).waitFor()
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Edit', 'Change quota', 'Subscriptions', 'Disable', 'Delete'])
    await page.keyboard.press('Escape')

    // Their own row: edit and quota, nothing that locks them out.
    const ownRow = await searchUser(page, ADMIN.username)
    await ownRow.getByRole('button', { name: /^Actions for/ }).click()
    await menu.getByRole('menuitem', { name: 'Edit' }).waitFor()
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Edit', 'Change quota'])
    await page.keyboard.press('Escape')
    await context.close()

    // An ordinary user has no Users entry and is sent away from the page.
    const user = await openPage(suite.browser, { baseURL: root.base })
    await signInToPanel(user.page, { username: PLAIN, password: 'user-password-1' })
    await user.page.getByTestId('console-drawer').getByText('Logs').waitFor()
    expect(await user.page.getByTestId('console-drawer').getByText('Users', { exact: true }).count()).toBe(0)
    await user.page.goto('/panel/user')
    await user.page.waitForURL((url) => url.pathname !== '/panel/user')
    await user.context.close()
  })

  for (const variant of [
    { name: 'users-dark', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'users-zh', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'users-phone-light', viewport: PHONE, theme: 'light' as const },
    { name: 'users-phone-dark', viewport: PHONE, theme: 'dark' as const },
  ]) {
    it(`renders ${variant.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, root.base, variant, SHARED_ROOT)
      await page.goto('/panel/user')
      await page.locator('tbody tr').first().waitFor()
      await page.getByTestId('role-badge').first().waitFor()
      await expectNoOverflow(page)
      await shot(page, variant.name)
      await page.getByTestId('user-create').click()
      await page.getByTestId('user-form-dialog').locator('input[name="username"]').waitFor()
      await shot(page, `${variant.name}-form`)
      await context.close()
    })
  }
})

/** Status of a password login (200 when the account may sign in). */
async function userSessionStatus(base: string, username: string, password: string): Promise<number> {
  const s = new ApiSession(base)
  await s.call('GET', '/api/status')
  const res = await s.call('POST', '/api/user/login', { username, password })
  return res.body.success ? res.status : res.status === 200 ? 403 : res.status
}
