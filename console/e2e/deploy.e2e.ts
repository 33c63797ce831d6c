/**
 * Consoles that survive a deploy, in Chromium: a lazy route chunk that answers 404 (it vanished with
 * a deploy) reloads the page once to the deployed version instead of showing an application error,
 * and a console whose /api/status names another build shows the "new version available" notice.
 * The same build also deploys under a sub-path: a second server with BASE_PATH=/gw serves the
 * console and the API under /gw only.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SHARED_ROOT, rootSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { openSignedIn } from './support/console'
import { type FreshServer, startFreshServer } from './support/fresh-server'
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
      // Every script chunk not loaded yet is gone, as after a deploy, until the page reloads: the
      // reload's document request ends it. The reloaded console of a real deploy asks for new chunk
      // names; here it asks for the same names again, so a chunk answers 404 once at most (the
      // navigation event alone raced the reloaded page's first chunk requests under load).
      const gone = new Set<string>()
      let reloading = false
      const seen: string[] = []
      page.on('request', (req) => {
        if (req.isNavigationRequest() && req.frame() === page.mainFrame()) reloading = true
      })
      page.on('console', (m) => seen.push(`console.${m.type()}: ${m.text().slice(0, 200)}`))
      page.on('framenavigated', (f) => f === page.mainFrame() && seen.push(`navigated: ${f.url()}`))
      await page.route('**/assets/*.js', (route) => {
        const path = new URL(route.request().url()).pathname
        if (reloading || loaded.has(path) || gone.has(path)) return route.continue()
        gone.add(path)
        seen.push(`404: ${path}`)
        return route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' })
      })
      const reloaded = page.waitForEvent('load')
      await page.evaluate(() => {
        history.pushState({}, '', '/panel/user')
        dispatchEvent(new PopStateEvent('popstate'))
      })
      await reloaded
      expect(gone.size).toBeGreaterThan(0)
      expect(await page.evaluate(() => sessionStorage.getItem('console-chunk-reload'))).toMatch(/^\d+$/)
      // The reloaded console has the page; the application error was never shown.
      if (new URL(page.url()).pathname !== '/panel/user') await page.goto('/panel/user')
      await page
        .getByRole('table')
        .waitFor({ timeout: 30_000 })
        .catch(async (err: Error) => {
          const text = await page
            .locator('body')
            .innerText()
            .catch(() => '')
          throw new Error(`${err.message}\nat ${page.url()}\n${seen.join('\n')}\npage text: ${text.slice(0, 600)}`)
        })
      await page.unroute('**/assets/*.js')
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

  describe('under a sub-path', () => {
    // A second server of the same build with BASE_PATH=/gw, started like useFreshGateway's (hook timeout).
    let server: FreshServer
    beforeAll(async () => {
      server = await startFreshServer({ BASE_PATH: '/gw' })
    })
    afterAll(async () => {
      await server?.stop()
    })

    it('serves the console and the API under BASE_PATH=/gw from the same build', async () => {
      const gw = `${server.url}/gw`
      // The bare prefix redirects to its slash form; nothing answers at the root any more.
      expect((await fetch(gw, { redirect: 'manual' })).headers.get('location')).toBe('/gw/')
      expect((await fetch(`${server.url}/api/status`)).status).toBe(404)
      const root = await rootSession(gw)
      const [channel] = await root.ok<{ id: number }[]>('POST', '/api/channel/', {
        type: 8,
        name: 'mock under /gw',
        key: 'sk-mock-e2e',
        base_url: inject('mockUrl'),
        models: ['gpt-4o-mini'],
        group: ['default'],
      })
      expect(channel!.id).toBeGreaterThan(0)
      const token = await root.ok<{ key: string }>('POST', '/api/token/', { name: 'gw key', unlimited_quota: true })
      const chat = await fetch(`${gw}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      })
      expect(chat.status).toBe(200)
      expect(((await chat.json()) as { choices: unknown[] }).choices.length).toBeGreaterThan(0)

      const { context, page } = await openPage(suite.browser, { baseURL: `${gw}/`, viewport: DESKTOP })
      try {
        await page.goto('login')
        await page.locator('input[name="username"]').fill(SHARED_ROOT.username)
        await page.locator('input[name="password"]').fill(SHARED_ROOT.password)
        await page.locator('form button[type="submit"]').click()
        await page.waitForURL((url) => url.pathname.startsWith('/gw/panel'))
        expect((await context.cookies()).find((c) => c.name === 'session')?.path).toBe('/gw/')
        await page.goto('panel/token')
        await page.getByText('gw key').first().waitFor()
        expect(new URL(page.url()).pathname).toBe('/gw/panel/token')
        await shot(page, 'base-path-tokens-light')
        // The saved theme (light by default) applies before first paint on the next load.
        await page.evaluate(() => localStorage.setItem('theme', 'dark'))
        await page.reload()
        await page.getByText('gw key').first().waitFor()
        await shot(page, 'base-path-tokens-dark')
        await page.setViewportSize(PHONE)
        await shot(page, 'base-path-tokens-phone-dark')
      } finally {
        await context.close()
      }
    })
  })
})
