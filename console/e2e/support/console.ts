/** UI flows shared by the console tests: signing in and out and row menus, through the pages themselves. */
import type { Locator, Page } from 'playwright-core'
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

/**
 * Opens a table row's action menu and picks `item`, as a person would: after the previous menu
 * has closed, and once more when the menu closed under the pointer (a list refresh landing
 * right at the click).
 */
export async function rowAction(page: Page, row: Locator, item: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.getByRole('menu').waitFor({ state: 'detached' })
    await row.getByRole('button', { name: /^Actions for/ }).click()
    const entry = page.getByRole('menuitem', { name: item })
    try {
      await entry.waitFor({ timeout: 5000 })
      await entry.click()
      return
    } catch (err) {
      if (attempt === 3) throw err
      await page.keyboard.press('Escape')
    }
  }
}
