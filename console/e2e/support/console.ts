/**
 * UI flows shared by the console tests: signing in and out, the looks of the screenshot tests, and
 * table rows and their menus, through the pages themselves.
 */
import type { Browser, Locator, Page } from 'playwright-core'
import { DESKTOP, PHONE, openPage } from './browser'
import type { Account } from './fresh-server'

/** How a screenshot test shows a page: size, theme and (default en-US) language. */
export interface Look {
  name: string
  viewport: { width: number; height: number }
  theme: 'light' | 'dark'
  locale?: string
}

/** The looks a page's screenshot test checks besides light desktop. */
export const LOOKS: readonly Look[] = [
  { name: 'dark', viewport: DESKTOP, theme: 'dark' },
  { name: 'phone-light', viewport: PHONE, theme: 'light' },
  { name: 'phone-dark', viewport: PHONE, theme: 'dark' },
]

/** The looks of a page dense with labels: phone-dark in Chinese, the longest labels in the narrowest cards. */
export const LOOKS_ZH_PHONE: readonly Look[] = [
  { name: 'dark', viewport: DESKTOP, theme: 'dark' },
  { name: 'phone-light', viewport: PHONE, theme: 'light' },
  { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark', locale: 'zh-CN' },
]

/** A new page in `look`, signed in as `account` through the login page. */
export async function openSignedIn(browser: Browser, baseURL: string, look: Look, account: Account) {
  const opened = await openPage(browser, { baseURL, viewport: look.viewport, locale: look.locale })
  await presetTheme(opened.page, look.theme)
  await signInToPanel(opened.page, account)
  return opened
}

export async function signIn(page: Page, account: Account): Promise<void> {
  await signInToPanel(page, account)
  // Signing in lands on /panel, which opens the dashboard.
  await page.waitForURL('**/panel/dashboard')
}

/** Signs in through /login and waits until the console has taken over (whichever /panel page it opens). */
export async function signInToPanel(page: Page, account: Account): Promise<void> {
  await page.goto('/login')
  await page.locator('input[name="username"]').fill(account.username)
  await page.locator('input[name="password"]').fill(account.password)
  await page.locator('form button[type="submit"]').click()
  await page.waitForURL((url) => url.pathname.startsWith('/panel'))
}

/** The table row whose name cell (a `div.font-medium` titled with the name) is exactly `name`. */
export const rowOf = (page: Page, name: string) => page.locator(`tbody tr:has(div.font-medium[title="${name}"])`)

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
