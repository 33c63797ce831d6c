/**
 * Phone width (375×740): the public top bar collapses its links into a dropdown; in the console
 * the drawer is hidden until the menu button opens it as a temporary sheet, which closes again
 * when an item is chosen.
 */
import { describe, expect, it } from 'vitest'
import { PHONE, openPage, shot } from './support/browser'
import { signIn } from './support/console'
import { useFreshGateway } from './support/suite'

const account = { username: 'phoneadmin', password: 'phone-pass-123' }

describe('phone layout', () => {
  const suite = useFreshGateway(account)

  it('collapses the public links into a dropdown', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: PHONE })
    await page.goto('/')
    await page.getByTestId('landing-title').waitFor()
    expect(await page.getByTestId('public-links').isVisible()).toBe(false)
    expect(await page.getByTestId('public-links-menu').isVisible()).toBe(true)

    await page.getByTestId('public-links-menu').click()
    const menu = page.getByRole('menu')
    await menu.getByRole('menuitem', { name: 'About' }).waitFor()
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Home', 'About', 'Sign in'])
    await shot(page, 'phone-public-menu')
    await menu.getByRole('menuitem', { name: 'About' }).click()
    await page.waitForURL('**/about')
    await context.close()
  })

  it('opens the console drawer as a temporary sheet and closes it on navigation', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: PHONE })
    await signIn(page, account)
    await page.goto('/panel/profile')
    await page.getByTestId('profile-username').waitFor()
    expect(await page.getByTestId('console-drawer').isVisible()).toBe(false)
    expect(await page.getByTestId('console-drawer-sheet').count()).toBe(0)

    await page.goto('/panel/somewhere-else')
    await page.getByTestId('not-found').waitFor()
    await page.getByTestId('menu-toggle').click()
    const sheet = page.getByTestId('console-drawer-sheet')
    await sheet.waitFor()
    await sheet.getByTestId('welcome-username').getByText(account.username).waitFor()
    await shot(page, 'phone-console-drawer')

    await sheet.getByRole('link', { name: 'Profile' }).last().click()
    await page.waitForURL('**/panel/profile')
    await sheet.waitFor({ state: 'detached' })
    await page.getByTestId('profile-username').waitFor()
    await shot(page, 'phone-console-profile')
    await context.close()
  })
})
