/**
 * Step-up and sessions in the console (issue 36). Root's sign-in is more than 10 minutes old (the
 * server's test clock), so revealing another user's key is refused with `step_up_required`: the
 * step-up dialog appears, a wrong password is refused in it, the right one lets the reveal run again
 * and the key arrives. The profile's Sessions section lists root's sessions with this browser
 * marked, and "sign out everywhere else" ends the other ones. Screenshots: the dialog and the
 * sessions list in light, dark, phone and zh_CN.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { presetTheme, signInToPanel, rowOf } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36).slice(-6)
const OWNER = `su${suffix}`
const KEY_NAME = `stepup-key-${suffix}`
const ELEVEN_MINUTES = 11 * 60_000

describe('step-up dialog and sessions', () => {
  const suite = useBrowser()
  let root: ApiSession
  let ownerId: number
  let tokenId: number
  let key: string

  beforeAll(async () => {
    root = await rootSession()
    const owner = await userSession(OWNER)
    ownerId = (await owner.ok<{ id: number }>('GET', '/api/user/self')).id
    tokenId = (await owner.ok<{ id: number }>('POST', '/api/token/', { name: KEY_NAME, remain_quota: 0, unlimited_quota: true, expired_time: -1 })).id
    key = (await owner.ok<{ key: string }>('POST', `/api/token/${tokenId}/key`)).key
  })

  afterAll(async () => {
    // The clock is the shared server's: put it back (a fresh root session: the test signed the others out).
    await (await rootSession()).ok('POST', '/api/test/clock', { offset_ms: 0 })
  })

  async function revealAsRoot(page: Page) {
    // The all-users view filtered to the owner, by URL (the filter's placeholder is translated).
    await page.goto(`/panel/token?scope=all&user_id=${ownerId}`)
    await rowOf(page, KEY_NAME).waitFor()
    await page.getByTestId(`token-copy-${tokenId}`).click()
  }

  it('asks for the password on a key reveal, then shows the key', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInToPanel(page, SHARED_ROOT)
    await root.ok('POST', '/api/test/clock', { offset_ms: ELEVEN_MINUTES })
    await revealAsRoot(page)
    const dialog = page.getByTestId('step-up-dialog')
    await dialog.getByText('Enter your password to continue').waitFor()
    await shot(page, 'step-up-dialog-light')
    await dialog.locator('#step-up-secret').fill('not-the-password')
    await dialog.getByTestId('step-up-confirm').click()
    await dialog.getByText('The password is wrong.').waitFor()
    await dialog.locator('#step-up-secret').fill(SHARED_ROOT.password)
    await dialog.getByTestId('step-up-confirm').click()
    await dialog.waitFor({ state: 'hidden' })
    // The retried reveal hands the key to the clipboard (or to the manual-copy dialog when refused).
    await expect
      .poll(async () => {
        const manual = page.getByTestId('manual-copy-text')
        if (await manual.count()) return manual.inputValue()
        return page.evaluate(() => navigator.clipboard.readText())
      })
      .toBe(key)
    // Within the 10 minutes the next reveal does not ask again.
    await page.evaluate(() => navigator.clipboard.writeText(''))
    await page.keyboard.press('Escape')
    await page.getByTestId(`token-copy-${tokenId}`).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key)
    expect(await page.getByTestId('step-up-dialog').count()).toBe(0)
    await context.close()
  }, 180_000)

  it('looks right in dark, on a phone and in Chinese', async () => {
    const looks = [
      { name: 'dark', viewport: DESKTOP, theme: 'dark' as const, locale: 'en-US' },
      { name: 'phone-light', viewport: PHONE, theme: 'light' as const, locale: 'en-US' },
      { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark' as const, locale: 'zh-CN' },
    ]
    for (const look of looks) {
      const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: look.viewport, locale: look.locale })
      await presetTheme(page, look.theme)
      await signInToPanel(page, SHARED_ROOT)
      await root.ok('POST', '/api/test/clock', { offset_ms: ELEVEN_MINUTES * 2 })
      await page.goto('/panel/profile')
      const card = page.getByTestId('sessions-card')
      await card.locator('[data-testid="session-row"][data-current="true"]').waitFor()
      await shot(page, `sessions-${look.name}`)
      await revealAsRoot(page)
      await page.getByTestId('step-up-dialog').waitFor()
      await shot(page, `step-up-dialog-${look.name}`)
      await context.close()
      await root.ok('POST', '/api/test/clock', { offset_ms: 0 })
    }
  }, 300_000)

  it('lists the sessions with this browser marked and signs out the others', async () => {
    const other = await rootSession()
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signInToPanel(page, SHARED_ROOT)
    await page.goto('/panel/profile')
    const card = page.getByTestId('sessions-card')
    await card.locator('[data-testid="session-row"][data-current="true"]').getByText('This browser').waitFor()
    expect(await card.getByTestId('session-row').count()).toBeGreaterThan(1)
    await shot(page, 'sessions-light')
    await card.getByTestId('sessions-revoke-all').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out everywhere else' }).click()
    await page.getByText('Every other session was signed out').waitFor()
    await expect.poll(() => card.getByTestId('session-row').count()).toBe(1)
    expect((await other.call('GET', '/api/user/self')).status).toBe(401)
    expect((await root.call('GET', '/api/user/self')).status).toBe(401)
    await context.close()
  }, 180_000)
})
