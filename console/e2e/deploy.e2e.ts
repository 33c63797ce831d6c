/**
 * Consoles that survive a deploy, in Chromium: a lazy route chunk that answers 404 (it vanished with
 * a deploy) reloads the page once to the deployed version instead of showing an application error,
 * and a console whose /api/status names another build shows the "new version available" notice.
 */
import { describe, expect, inject, it } from 'vitest'
import { SHARED_ROOT, rootSession } from '../../worker/e2e/support/api'
import { DESKTOP, shot } from './support/browser'
import { openSignedIn } from './support/console'
import { useBrowser } from './support/suite'

describe('deploy-safe console', () => {
  const suite = useBrowser()

  it('reloads once when a route chunk is gone, and lands on the page instead of an error', async () => {
    await rootSession()
    const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), { name: 'light', viewport: DESKTOP, theme: 'light' }, SHARED_ROOT)
    try {
      await page.goto('/panel/dashboard')
      await page.getByTestId('range-picker').waitFor()
      const loaded = new Set<string>()
      for (const r of await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))) loaded.add(new URL(r).pathname)
      // Every script chunk not loaded yet is gone, as after a deploy, until the page reloads.
      let missing = 0
      await page.route('**/assets/*.js', (route) => {
        const path = new URL(route.request().url()).pathname
        if (loaded.has(path)) return route.continue()
        missing++
        return route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' })
      })
      const reloaded = page.waitForEvent('load')
      await page.evaluate(() => {
        history.pushState({}, '', '/panel/user')
        dispatchEvent(new PopStateEvent('popstate'))
      })
      await reloaded
      expect(missing).toBeGreaterThan(0)
      await page.unroute('**/assets/*.js')
      expect(await page.evaluate(() => sessionStorage.getItem('console-chunk-reload'))).toMatch(/^\d+$/)
      // The reloaded console has the page; the application error was never shown.
      if (new URL(page.url()).pathname !== '/panel/user') await page.goto('/panel/user')
      await page.getByRole('table').waitFor({ timeout: 30_000 })
      expect(await page.getByText('Unexpected Application Error!').count()).toBe(0)
    } finally {
      await context.close()
    }
  })

  it('a second chunk failure right after the reload names the chunk instead of looping', async () => {
    const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), { name: 'light', viewport: DESKTOP, theme: 'light' }, SHARED_ROOT)
    try {
      await page.goto('/panel/dashboard')
      await page.getByTestId('range-picker').waitFor()
      await page.evaluate(() => sessionStorage.setItem('console-chunk-reload', String(Date.now())))
      const loaded = new Set((await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))).map((r) => new URL(r).pathname))
      await page.route('**/assets/*.js', (route) =>
        loaded.has(new URL(route.request().url()).pathname) ? route.continue() : route.fulfill({ status: 404, contentType: 'text/html', body: 'gone' })
      )
      await page.evaluate(() => {
        history.pushState({}, '', '/panel/user')
        dispatchEvent(new PopStateEvent('popstate'))
      })
      const error = page.getByTestId('chunk-load-error')
      await error.waitFor({ timeout: 30_000 })
      expect(await error.innerText()).toMatch(/\/assets\/.+\.js/)
      await shot(page, 'deploy-chunk-load-error-light')
    } finally {
      await context.close()
    }
  })

  it('shows the new-version notice when the server serves another console build', async () => {
    const { context, page } = await openSignedIn(suite.browser, inject('gatewayUrl'), { name: 'light', viewport: DESKTOP, theme: 'light' }, SHARED_ROOT)
    try {
      const served = await (await fetch(`${inject('gatewayUrl')}/api/status`)).json()
      expect(served.data.console_build).toMatch(/\S/)
      await page.route('**/api/status', async (route) => {
        const res = await route.fetch()
        const body = await res.json()
        return route.fulfill({ response: res, json: { ...body, data: { ...body.data, console_build: 'a-newer-build', version: 'v9.9.9' } } })
      })
      await page.goto('/panel/dashboard')
      await page.getByText('New version available: v9.9.9, please use Shift F5 to refresh').waitFor({ timeout: 30_000 })
      await shot(page, 'deploy-new-version-light')
    } finally {
      await context.close()
    }
  })
})
