/**
 * Profile page: edit the display name, change the password (the new one signs in), and generate an
 * access token that then authenticates GET /api/user/self without a session; a My notices switch saves.
 */
import { describe, expect, it } from 'vitest'
import { openPage, shot } from './support/browser'
import { signIn, signOut } from './support/console'
import { useFreshGateway } from './support/suite'

const account = { username: 'profileadmin', password: 'first-pass-123' }

describe('profile', () => {
  const suite = useFreshGateway(account)

  it('changes the display name and the password', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    await page.goto('/panel/profile')
    await page.getByTestId('profile-display-name').getByText('Root User').waitFor()

    const info = page.locator('#profile-info-form')
    await info.locator('input[name="display_name"]').fill('Ada Lovelace')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Updated successfully').first().waitFor()
    await page.getByTestId('profile-display-name').getByText('Ada Lovelace').waitFor()

    // A too-short username is refused in the form, before any request.
    await info.locator('input[name="username"]').fill('ab')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await info.getByText('Username must be at least 3 characters').waitFor()
    await info.locator('input[name="username"]').fill(account.username)

    const password = page.locator('#password-form')
    await password.locator('input[name="original_password"]').fill('wrong-password')
    await password.locator('input[name="password"]').fill('second-pass-456')
    await password.locator('input[name="confirm_password"]').fill('second-pass-456')
    await page.getByRole('button', { name: 'Update password' }).click()
    // The server's field message lands on the field.
    await password.getByText('the current password is wrong').waitFor()

    await password.locator('input[name="original_password"]').fill(account.password)
    await page.getByRole('button', { name: 'Update password' }).click()
    await page.getByText('Updated successfully').first().waitFor()
    await expect.poll(() => password.locator('input[name="password"]').inputValue()).toBe('')
    await shot(page, 'profile-light')

    // This browser keeps its (renewed) session; the new password signs in, the old one does not.
    await page.reload()
    await page.getByTestId('profile-display-name').getByText('Ada Lovelace').waitFor()
    await signOut(page)
    await page.goto('/login')
    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    await page.locator('form button[type="submit"]').click()
    await page.getByText('Error: Invalid username or password').waitFor()
    account.password = 'second-pass-456'
    await signIn(page, account)
    await context.close()
  })

  it('generates an access token that authenticates the management API', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    await page.goto('/panel/profile')
    await page.getByTestId('access-token-status').getByText('Not generated').waitFor()

    await page.getByTestId('access-token-generate').click()
    const value = page.getByTestId('access-token-value')
    await value.waitFor()
    const token = await value.inputValue()
    expect(token).toMatch(/^\S{16,}$/)
    await page.getByText('it is shown only once').waitFor()
    await page.getByTestId('access-token-status').getByText('Active').waitFor()
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.getByTestId('theme-toggle').click()
    await shot(page, 'profile-token-dark')

    const res = await fetch(`${suite.server.url}/api/user/self`, { headers: { Authorization: token } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { success: boolean; data: { username: string; has_access_token: boolean } }
    expect(body.data).toMatchObject({ username: account.username, has_access_token: true })

    // Resetting replaces it: the old token stops working.
    await page.getByTestId('access-token-generate').click()
    await page.waitForFunction((old) => (document.querySelector('[data-testid="access-token-value"]') as HTMLInputElement | null)?.value !== old, token)
    const stale = await fetch(`${suite.server.url}/api/user/self`, { headers: { Authorization: token } })
    expect(stale.status).toBe(401)
    await context.close()
  })

  it('saves a My notices switch, which stays after a reload; Telegram waits for a bound chat', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    await page.goto('/panel/profile')
    const balance = page.getByTestId('notice-balance_email')
    await expect.poll(() => balance.getAttribute('aria-checked')).toBe('true')
    await balance.click()
    await page.getByText('Notice settings saved').first().waitFor()
    expect(await page.getByTestId('notice-budget_telegram').isDisabled()).toBe(true)
    await page.reload()
    await expect.poll(() => page.getByTestId('notice-balance_email').getAttribute('aria-checked')).toBe('false')
    await context.close()
  })
})
