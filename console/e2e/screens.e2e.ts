/**
 * Every console page renders in light and dark, on desktop and at phone width (375 px), without
 * horizontal overflow. Screenshots land in test-artifacts/screenshots/ for review.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { setupRoot } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

const account = { username: 'screenadmin', password: 'screen-pass-1' }

const VARIANTS = [
  { name: 'light', viewport: DESKTOP, theme: 'light' },
  { name: 'dark', viewport: DESKTOP, theme: 'dark' },
  { name: 'phone-light', viewport: PHONE, theme: 'light' },
  { name: 'phone-dark', viewport: PHONE, theme: 'dark' },
] as const

const PUBLIC_PAGES = [
  { name: 'home', path: '/', ready: '[data-testid="landing-title"]' },
  { name: 'about', path: '/about', ready: 'main [data-slot="card-title"]' },
  { name: 'login', path: '/login', ready: 'input[name="username"]' },
  { name: 'register', path: '/register?aff=INVITE42', ready: 'input[name="aff_code"]' },
  { name: 'reset', path: '/reset', ready: 'input[name="email"]' },
  { name: 'reset-confirm', path: '/user/reset?email=user%40example.com&token=abc', ready: '#reset-email' },
  { name: 'reset-invalid', path: '/user/reset', ready: '[data-testid="invalid-link"]' },
  { name: '404', path: '/404', ready: '[data-testid="not-found"]' },
]

const CONSOLE_PAGES = [
  { name: 'console-profile', path: '/panel/profile', ready: '[data-testid="account-binding"]' },
  { name: 'console-404', path: '/panel/missing', ready: '[data-testid="not-found"]' },
]

async function capture(page: Page, name: string, path: string, ready: string) {
  await page.goto(path)
  await page.locator(ready).first().waitFor()
  await expectNoOverflow(page)
  await shot(page, name)
}

describe('screens', () => {
  const suite = useFreshGateway()

  it('setup page', async () => {
    for (const v of VARIANTS) {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: v.viewport })
      await presetTheme(page, v.theme)
      await capture(page, `setup-${v.name}`, '/setup', 'input[name="confirm_password"]')
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(v.theme === 'dark')
      await context.close()
    }
    await setupRoot(suite.server.url, account)
  })

  for (const v of VARIANTS) {
    it(`public pages, ${v.name}`, async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: v.viewport })
      await presetTheme(page, v.theme)
      for (const p of PUBLIC_PAGES) await capture(page, `${p.name}-${v.name}`, p.path, p.ready)
      await context.close()
    })

    it(`console pages, ${v.name}`, async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: v.viewport })
      await presetTheme(page, v.theme)
      await signIn(page, account)
      for (const p of CONSOLE_PAGES) await capture(page, `${p.name}-${v.name}`, p.path, p.ready)
      await context.close()
    })
  }
})
