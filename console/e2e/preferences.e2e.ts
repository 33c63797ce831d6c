/**
 * Language and theme are the visitor's choice: switched from the top bar, applied at once, saved
 * in localStorage (`appLanguage`, `theme`) and still in force after a reload. Runs on the shared
 * gateway without changing its state (the top bar is the same on /setup and on the home page).
 */
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { openPage } from './support/browser'
import { useBrowser } from './support/suite'

const homeLink = (page: Page) => page.getByTestId('public-links').getByRole('link').first()

describe('preferences', () => {
  const suite = useBrowser()

  it('switches the language from the menu and keeps it after a reload', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), locale: 'zh-CN' })
    await page.goto('/')
    await homeLink(page).getByText('首页').waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN')

    await page.getByTestId('language-menu').click()
    await page.getByRole('menuitemradio', { name: 'English' }).click()
    await homeLink(page).getByText('Home').waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('en-US')
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('en_US')

    await page.getByTestId('language-menu').click()
    await page.getByRole('menuitemradio', { name: '日本語' }).click()
    await homeLink(page).getByText('ホーム').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('ja_JP')

    await page.reload()
    await homeLink(page).getByText('ホーム').waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('ja-JP')
    await context.close()
  })

  it('maps the browser language and honours ?lng=', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), locale: 'ja' })
    await page.goto('/')
    await homeLink(page).getByText('ホーム').waitFor()
    await page.goto('/?lng=en-US')
    await homeLink(page).getByText('Home').waitFor()
    expect(await page.evaluate(() => localStorage.getItem('appLanguage'))).toBe('en_US')
    await context.close()
  })

  it('toggles the dark theme and keeps it after a reload', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await page.goto('/')
    await page.getByTestId('theme-toggle').waitFor()
    const hasDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'))
    expect(await hasDark()).toBe(false)

    await page.getByTestId('theme-toggle').click()
    expect(await hasDark()).toBe(true)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)

    await page.reload()
    // Applied by the inline script before the app renders.
    expect(await hasDark()).toBe(true)
    await page.getByTestId('theme-toggle').waitFor()
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(background)

    await page.getByTestId('theme-toggle').click()
    expect(await hasDark()).toBe(false)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light')
    await context.close()
  })
})
