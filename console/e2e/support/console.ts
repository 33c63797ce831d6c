/** UI flows shared by the console tests: signing in and out through the pages themselves. */
import type { Page } from 'playwright-core'
import type { Account } from './fresh-server'

export async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto('/login')
  await page.locator('input[name="username"]').fill(account.username)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  // Signing in lands on /panel, which opens the dashboard.
  await page.waitForURL('**/panel/dashboard')
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click()
  await page.getByTestId('sign-out').click()
  await page.waitForURL((url) => url.pathname === '/')
}

/** Applies a theme before the first paint of the next navigation (what the theme toggle saves). */
export async function presetTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme)
}
