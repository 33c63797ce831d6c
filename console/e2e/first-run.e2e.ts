/**
 * First run on a fresh gateway: every page sends the visitor to /setup; creating the root account
 * signs it in and lands on the console; sign-out goes home; signing in again returns to /panel.
 */
import { describe, expect, it } from 'vitest'
import { openPage, shot } from './support/browser'
import { signOut } from './support/console'
import { useFreshGateway } from './support/suite'

describe('first run', () => {
  const suite = useFreshGateway()

  it('sets up the root account, signs out and signs back in', async () => {
    const account = { username: 'rootadmin', password: 'correct-horse-1' }
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })

    await page.goto('/about')
    await page.waitForURL('**/setup')
    await page.getByText(/set up your gateway/i).waitFor()
    await page.goto('/panel/profile')
    await page.waitForURL('**/setup')
    await page.getByText(/set up your gateway/i).waitFor()
    await shot(page, 'setup-light')

    // Client-side validation in the user's language before anything is sent.
    await page.locator('input[name="username"]').fill('ab')
    await page.locator('input[name="password"]').fill('short')
    await page.locator('input[name="confirm_password"]').fill('different')
    await page.getByRole('button', { name: /create administrator/i }).click()
    await page.getByText('Username must be at least 3 characters').waitFor()
    await page.getByText('Password must be at least 8 characters').waitFor()
    await page.getByText('The two passwords do not match').waitFor()

    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    await page.locator('input[name="confirm_password"]').fill(account.password)
    await page.getByRole('button', { name: /create administrator/i }).click()

    await page.waitForURL('**/panel/dashboard')
    await page.getByTestId('welcome-username').getByText(account.username).waitFor()
    await page.goto('/panel/profile')
    expect(await page.getByTestId('profile-username').textContent()).toBe(`@${account.username}`)
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'))
    expect(stored).toMatchObject({ username: account.username, role: 100 })

    // Setup is done: /setup is no longer reachable.
    await page.goto('/setup')
    await page.waitForURL((url) => url.pathname === '/')

    await page.goto('/panel/profile')
    await signOut(page)
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor()
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()

    // The console is closed to anonymous visitors.
    await page.goto('/panel/profile')
    await page.waitForURL('**/login')

    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    await page.locator('form button[type="submit"]').click()
    await page.waitForURL('**/panel/dashboard')
    await page.getByTestId('welcome-username').getByText(account.username).waitFor()

    await context.close()
  })

  it('registers a user with the invite code from ?aff= and signs them in', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/register?aff=FRIEND42')
    const form = page.locator('form')
    expect(await form.locator('input[name="aff_code"]').inputValue()).toBe('FRIEND42')

    await form.locator('input[name="username"]').fill('newcomer')
    await form.locator('input[name="email"]').fill('not-an-email')
    await form.locator('input[name="password"]').fill('newcomer-pass-1')
    await form.locator('input[name="confirm_password"]').fill('newcomer-pass-2')
    await page.getByRole('button', { name: 'Create account' }).click()
    await form.getByText('Please enter a valid email address').waitFor()
    await form.getByText('The two passwords do not match').waitFor()

    await form.locator('input[name="email"]').fill('newcomer@example.com')
    await form.locator('input[name="confirm_password"]').fill('newcomer-pass-1')
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.getByText('Registered successfully, please sign in').waitFor()
    await page.waitForURL('**/login')

    await page.locator('input[name="username"]').fill('newcomer@example.com')
    await page.locator('input[name="password"]').fill('newcomer-pass-1')
    await page.locator('form button[type="submit"]').click()
    await page.waitForURL('**/panel/dashboard')
    await page.goto('/panel/profile')
    await page.getByTestId('profile-username').getByText('@newcomer').waitFor()
    await page.getByText('General user').waitFor()
    await context.close()

    // A second registration with the same name is refused by the server.
    const again = await openPage(suite.browser, { baseURL: suite.server.url })
    await again.page.goto('/register')
    const second = again.page.locator('form')
    await second.locator('input[name="username"]').fill('newcomer')
    await second.locator('input[name="password"]').fill('newcomer-pass-1')
    await second.locator('input[name="confirm_password"]').fill('newcomer-pass-1')
    await again.page.getByRole('button', { name: 'Create account' }).click()
    await again.page.getByText('Error: Username already exists').waitFor()
    expect(new URL(again.page.url()).pathname).toBe('/register')
    await again.context.close()
  })

  it('rejects wrong credentials with the server message and stays on /login', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/login')
    await page.locator('input[name="username"]').fill('rootadmin')
    await page.locator('input[name="password"]').fill('not-the-password')
    await page.locator('form button[type="submit"]').click()
    await page.getByText('Error: Invalid username or password').waitFor()
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })
})
