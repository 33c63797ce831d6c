/**
 * Admin-configured content: the home page renders Markdown sanitized by DOMPurify, a link as
 * content becomes an iframe, the footer HTML is sanitized, the notice is shown once after sign-in,
 * and when /api/status cannot be reached the last saved site info is used with a warning.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { openPage, shot } from './support/browser'
import { signIn } from './support/console'
import { saveOptions } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

const account = { username: 'contentadmin', password: 'content-pass-1' }

describe('site content', () => {
  const suite = useFreshGateway(account)
  beforeAll(async () => {
    await saveOptions(suite.server.url, suite.session, {
      SystemName: 'Test Gateway',
      HomePageContent: '# Welcome to the test gateway\n\nSome **bold** words.\n\n<img src="x" onerror="window.__xss = 1">',
      About: 'https://example.com/about-us',
      Footer: 'Run by <a href="https://example.com">the test team</a><script>window.__xss = 2</script>',
      Notice: 'Maintenance **tonight** at 22:00',
    })
  })

  it('renders home Markdown and the footer sanitized, and the about link in an iframe', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/')
    await page.getByRole('heading', { name: 'Welcome to the test gateway' }).waitFor()
    expect(await page.locator('.markdown-body strong').textContent()).toBe('bold')
    expect(await page.locator('.markdown-body img').getAttribute('onerror')).toBeNull()
    await page.locator('footer').getByRole('link', { name: 'the test team' }).waitFor()
    expect(await page.locator('footer script').count()).toBe(0)
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
    expect(await page.title()).toBe('Test Gateway')
    await shot(page, 'home-markdown-light')

    await page.getByTestId('public-links').getByRole('link', { name: 'About' }).click()
    const frame = page.locator('main iframe')
    await frame.waitFor({ state: 'attached' })
    expect(await frame.getAttribute('src')).toBe('https://example.com/about-us')
    await context.close()
  })

  it('shows the notice once after sign-in', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    const dialog = page.getByTestId('notice-dialog')
    await dialog.getByText('tonight').waitFor()
    expect(await dialog.locator('strong').textContent()).toBe('tonight')
    await shot(page, 'notice-dialog-light')
    await dialog.getByRole('button', { name: 'Got it' }).click()
    await dialog.waitFor({ state: 'detached' })

    const noticeAnswered = page.waitForResponse((r) => r.url().endsWith('/api/notice'))
    await page.reload()
    await page.getByTestId('welcome-username').waitFor()
    // Once the notice call has answered and React has committed, no dialog may come back.
    await noticeAnswered
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
    expect(await page.getByTestId('notice-dialog').count()).toBe(0)
    await context.close()
  })

  it('falls back to the saved site info when /api/status fails', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/')
    await page.getByRole('heading', { name: 'Welcome to the test gateway' }).waitFor()
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('siteInfo') ?? '{}').system_name)).toBe('Test Gateway')
    expect(await page.evaluate(() => localStorage.getItem('quota_per_unit'))).toBe('500000')
    expect(await page.evaluate(() => localStorage.getItem('display_in_currency'))).toBe('true')

    await page.route('**/api/status', (route) => route.abort())
    await page.reload()
    await page.getByText('Unable to connect to the server properly!').waitFor()
    await page.locator('header').getByText('Test Gateway').waitFor()
    expect(await page.title()).toBe('Test Gateway')
    await context.close()
  })
})
