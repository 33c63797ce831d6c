/**
 * Session loss: when the server no longer knows the session (deleted server-side), the next call
 * answers 401 and the console clears the stored user and lands on /login.
 */
import { describe, expect, it } from 'vitest'
import { openPage, shot } from './support/browser'
import { signIn } from './support/console'
import { useFreshGateway } from './support/suite'

const account = { username: 'sessionadmin', password: 'session-pass-1' }

describe('session', () => {
  const suite = useFreshGateway(account)

  it('goes to /login when a console call answers 401', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    await page.goto('/panel/not-a-page')
    await page.getByTestId('not-found').waitFor()

    // Delete the session server-side with the page's own cookies (logout needs the XSRF header, like the console sends).
    const logout = await page.evaluate(async () => {
      const xsrf = decodeURIComponent(document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/)?.[1] ?? '')
      return (await fetch('/api/user/logout', { headers: { 'X-XSRF-TOKEN': xsrf } })).status
    })
    expect(logout).toBe(200)
    expect(await page.evaluate(() => localStorage.getItem('user'))).not.toBeNull()

    await page.getByTestId('console-drawer').getByRole('link', { name: 'Profile' }).last().click()
    await page.waitForURL('**/login')
    await page.getByText('Error: Not logged in or session expired').first().waitFor()
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull()
    await context.close()
  })
})

describe('error handling', () => {
  const suite = useFreshGateway(account)

  it('turns failed calls into the messages of the error catalogue', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    const answers = [
      { status: 429, body: { success: false, message: 'slow down' }, expect: 'Error: too many requests, please try again later!' },
      { status: 500, body: { success: false, message: 'boom' }, expect: 'Error: internal server error, please contact the administrator!' },
      { status: 405, body: { success: false, message: 'no' }, expect: 'This site is a demo only: there is no server side.' },
      { status: 403, body: { success: false, message: 'This account has been disabled' }, expect: 'Error: This account has been disabled' },
    ]
    let next = 0
    await page.route('**/api/user/login', (route) => route.fulfill({ status: answers[next].status, contentType: 'application/json', body: JSON.stringify(answers[next].body) }))
    await page.goto('/login')
    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    for (const answer of answers) {
      await page.locator('form button[type="submit"]').click()
      await page.getByText(answer.expect).waitFor()
      next++
    }

    // A 400 puts the server's field messages on the fields.
    await page.unroute('**/api/user/login')
    await page.route('**/api/user/login', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: 'username: is unknown here', data: { fields: { username: 'is unknown here' } } }),
      })
    )
    await page.locator('form button[type="submit"]').click()
    await page.locator('form').getByText('is unknown here', { exact: true }).waitFor()
    expect(new URL(page.url()).pathname).toBe('/login')
    await context.close()
  })

  it('reloads once, then shows the load error with the chunk address when a page fails to load', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    // Signing in lands on the dashboard: its chunk fails to load.
    await page.route(/\/assets\/dashboard-[^/]*\.js$/, (route) => route.abort())
    await page.goto('/login')
    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    await page.locator('form button[type="submit"]').click()
    // The deploy guard reloads once (a deploy may have replaced the chunk); the chunk still fails.
    const error = page.getByTestId('chunk-load-error')
    await error.waitFor({ timeout: 30_000 })
    expect(await error.innerText()).toMatch(/\/assets\/dashboard-[^/]*\.js/)
    await shot(page, 'error-page-light')
    await context.close()
  })
})
