/**
 * Session loss: when the server no longer knows the session (deleted server-side), the next call
 * answers 401 and the console clears the stored user and lands on /login.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { launchBrowser, openPage } from './support/browser'
import { signIn } from './support/console'
import { setupRoot, startFreshServer, type FreshServer } from './support/fresh-server'

const account = { username: 'sessionadmin', password: 'session-pass-1' }

describe('session', () => {
  let server: FreshServer
  let browser: Browser

  beforeAll(async () => {
    server = await startFreshServer()
    await setupRoot(server.url, account)
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('goes to /login when a console call answers 401', async () => {
    const { context, page } = await openPage(browser, { baseURL: server.url })
    await signIn(page, account)
    await page.goto('/panel/not-a-page')
    await page.getByTestId('not-found').waitFor()

    // Delete the session server-side with the page's own cookies.
    const logout = await page.request.get('/api/user/logout')
    expect(logout.status()).toBe(200)
    expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull()

    await page.getByTestId('console-drawer').getByRole('link', { name: 'Profile' }).last().click()
    await page.waitForURL('**/login')
    await page.getByText('Error: Not logged in or session expired').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
    await context.close()
  })
})
