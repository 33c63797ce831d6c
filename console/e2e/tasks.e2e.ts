/**
 * Asynchronous tasks end to end against the real gateway and the mock midjourney-proxy / Suno-API
 * (scripts/mock-tasks.mjs): imagine → fetch until SUCCESS → upscale through its button; a failing
 * imagine is refunded; Suno music runs to completion and a failing song is refunded; the balance
 * and the log rows match the prices exactly. Then the Midjourney and task pages show the finished,
 * running and failed tasks (light, dark, phone, zh_CN; the admin's view with channel and user).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 })
const suffix = Date.now().toString(36).slice(-6)
const USERNAME = `tk${suffix}`
const PASSWORD = 'user-password-1'
const START = 5_000_000

/** A small picture served in place of the upstream CDN (tests never reach the internet). */
const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f97316"/><stop offset="1" stop-color="#7c3aed"/></linearGradient></defs><rect width="256" height="256" fill="url(#g)"/><circle cx="128" cy="110" r="48" fill="#fde68a"/></svg>`

async function relay(key: string, method: string, path: string, body?: unknown, header: 'mj' | 'bearer' = 'bearer') {
  const headers: Record<string, string> = header === 'mj' ? { 'mj-api-secret': key } : { authorization: `Bearer ${key}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(`${inject('gatewayUrl')}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, json: (await res.json()) as any }
}

/** Signed in through the API (a UI sign-in per screenshot would run into the login rate limit): the session cookie plus the profile the console keeps in localStorage. */
async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

async function offline(context: BrowserContext) {
  await context.route(/^https:\/\/(cdn\.discordapp\.com|cdn1\.suno\.ai)\//, (route) =>
    /\.(png|jpe?g)$/.test(new URL(route.request().url()).pathname) ? route.fulfill({ contentType: 'image/svg+xml', body: PICTURE }) : route.fulfill({ status: 204 })
  )
}

describe('asynchronous tasks', () => {
  const suite = useBrowser()
  let root: ApiSession
  let user: ApiSession
  let key: string
  let userId: number
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    root = await rootSession()
    for (const [model, input] of [
      ['mj_imagine', 50],
      ['mj_upscale', 25],
      ['chirp-v3-0', 50],
      ['suno_lyrics', 5],
    ] as const) {
      // Fresh installs seed these very prices (default-prices.ts); set them when they are missing.
      await root.call('POST', '/api/prices/single', { model, type: 'times', channel_type: model.startsWith('mj') ? 34 : 41, input, output: 0 })
    }
    const mock = inject('mockUrl')
    await root.ok('POST', '/api/channel/', { type: 34, name: `mj-${suffix}`, key: 'mj-secret', base_url: mock, models: ['mj_imagine', 'mj_upscale'], group: ['default'] })
    await root.ok('POST', '/api/channel/', { type: 41, name: `suno-${suffix}`, key: 'suno-key', base_url: mock, models: ['chirp-v3-0', 'suno_lyrics'], group: ['default'] })
    user = await userSession(USERNAME, PASSWORD)
    userId = (await user.ok<{ id: number }>('GET', '/api/user/self')).id
    await root.ok('POST', `/api/user/quota/${userId}`, { quota: START, remark: 'tasks e2e' })
    key = (await user.ok<{ key: string }>('POST', '/api/token/', { name: 'tasks key', unlimited_quota: true })).key
  })

  it('imagine → SUCCESS → upscale; a failing imagine is refunded', async () => {
    const imagine = await relay(key, 'POST', '/mj/submit/imagine', { prompt: 'a lighthouse at dusk, watercolor' }, 'mj')
    expect(imagine.json).toMatchObject({ code: 1, description: 'Submit success' })
    ids.imagine = imagine.json.result
    await eventually(async () => (await relay(key, 'GET', `/mj/task/${ids.imagine}/fetch`, undefined, 'mj')).json.status).toBe('SUCCESS')
    const task = (await relay(key, 'GET', `/mj/task/${ids.imagine}/fetch`, undefined, 'mj')).json
    expect(task).toMatchObject({ id: ids.imagine, action: 'IMAGINE', progress: '100%' })
    expect(task.imageUrl).toMatch(/^https:\/\/cdn\.discordapp\.com\//)
    const upscale = await relay(key, 'POST', '/mj/submit/action', { taskId: ids.imagine, customId: task.buttons[0].customId }, 'mj')
    expect(upscale.json.code).toBe(1)
    ids.upscale = upscale.json.result
    const failing = await relay(key, 'POST', '/mj/submit/imagine', { prompt: 'this one will fail' }, 'mj')
    ids.failing = failing.json.result
    await eventually(async () => (await relay(key, 'POST', '/mj/task/list-by-condition', { ids: [ids.upscale, ids.failing] }, 'mj')).json.map((t: any) => t.status).join()).toBe(
      'SUCCESS,FAILURE'
    )
    // One more task left running for the page.
    ids.running = (await relay(key, 'POST', '/mj/submit/imagine', { prompt: 'a slow mountain panorama' }, 'mj')).json.result
  })

  it('Suno music runs to completion; lyrics too; a failing song is refunded', async () => {
    const music = await relay(key, 'POST', '/suno/submit/music', { prompt: 'waves on a quiet shore', title: 'Shoreline', tags: 'ambient' })
    expect(music.json).toMatchObject({ code: 'success' })
    const lyrics = await relay(key, 'POST', '/suno/submit/lyrics', { prompt: 'city lights' })
    const failing = await relay(key, 'POST', '/suno/submit/music', { prompt: 'a song that will fail' })
    await eventually(async () =>
      (await relay(key, 'POST', '/suno/fetch', { ids: [music.json.data, lyrics.json.data, failing.json.data] })).json.data.map((t: any) => t.status).join()
    ).toBe('SUCCESS,SUCCESS,FAILURE')
    const song = (await relay(key, 'GET', `/suno/fetch/${music.json.data}`)).json.data
    expect(song.data[0].audio_url).toMatch(/\.mp3$/)
    expect(JSON.stringify(song)).not.toContain('user_id')
  })

  it('the balance and the log rows match the prices exactly', async () => {
    // Charged: imagine 50k, upscale 25k, failing imagine 50k (refunded), running imagine 50k, music 50k, lyrics 5k, failing music 50k (refunded).
    const charged = 50_000 + 25_000 + 50_000 + 50_000 + 50_000 + 5_000 + 50_000
    const refunded = 50_000 + 50_000
    await eventually(async () => (await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(START - charged + refunded)
    const stat = await user.ok<{ quota: number; count: number }>('GET', '/api/log/self/stat?type=2')
    expect(stat).toMatchObject({ quota: charged, count: 7 })
    const refunds = await user.ok<{ data: { quota: number; content: string }[] }>('GET', '/api/log/self?type=4&page_size=100')
    expect(refunds.data.map((r) => r.quota).sort()).toEqual([50_000, 50_000])
  })

  for (const variant of [
    { name: 'midjourney-light', path: '/panel/midjourney', viewport: DESKTOP, theme: 'light' as const },
    { name: 'midjourney-dark', path: '/panel/midjourney', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'midjourney-zh', path: '/panel/midjourney', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'midjourney-phone', path: '/panel/midjourney', viewport: PHONE, theme: 'light' as const },
    { name: 'midjourney-admin-dark', path: `/panel/midjourney?username=${USERNAME}`, viewport: DESKTOP, theme: 'dark' as const, admin: true },
    { name: 'task-light', path: '/panel/task', viewport: DESKTOP, theme: 'light' as const },
    { name: 'task-dark', path: '/panel/task', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'task-zh', path: '/panel/task', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'task-phone-dark', path: '/panel/task', viewport: PHONE, theme: 'dark' as const },
    { name: 'task-admin', path: `/panel/task?username=${USERNAME}`, viewport: DESKTOP, theme: 'light' as const, admin: true },
  ]) {
    it(`renders ${variant.name}`, async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: variant.viewport, locale: variant.locale })
      await offline(context)
      await presetTheme(page, variant.theme)
      await signIn(page, context, variant.admin ? root : user)
      await page.goto(variant.path)
      const mj = variant.path.startsWith('/panel/midjourney')
      await eventually(() => page.locator('tbody tr').count()).toBe(mj ? 4 : 3)
      await page.getByTestId('task-status').first().waitFor()
      if (variant.admin) await page.locator('tbody').getByText(USERNAME).first().waitFor()
      await expectNoOverflow(page)
      await shot(page, variant.name)
      if (mj) {
        expect(await page.getByTestId('mj-fail-reason').first().textContent()).toContain('Mock job failed')
        await page.getByTestId('mj-thumb').first().click()
        await page.getByTestId('mj-lightbox').waitFor()
      } else {
        expect(await page.getByTestId('task-fail-reason').first().textContent()).toContain('Mock generation failed')
        await page.getByTestId('task-output-open').last().click()
        await page.getByTestId('task-song').first().waitFor()
      }
      await shot(page, `${variant.name}-open`)
      await context.close()
    })
  }

  it('shows both menu entries to an ordinary user', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, context, user)
    await page.goto('/panel/dashboard')
    await page.getByRole('link', { name: 'Midjourney' }).first().click()
    await page.waitForURL((url) => url.pathname === '/panel/midjourney')
    await page.getByRole('link', { name: 'Tasks' }).first().click()
    await page.waitForURL((url) => url.pathname === '/panel/task')
    await context.close()
  })
})
