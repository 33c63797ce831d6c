/**
 * Kling video tasks end to end against the mock Kling API (scripts/mock-tasks.mjs under /kling):
 * text2video runs to completion and a failing video is refunded, the balance and log rows match the
 * price, and /panel/task shows the videos with the Kling platform filter (light; zh_CN, dark, phone).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000, interval: 250 })
const suffix = Date.now().toString(36).slice(-6)
const START = 2_000_000
const MODEL = 'kling-video_kling-v1_std_5'

async function kling(key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${inject('gatewayUrl')}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, json: (await res.json()) as any }
}

async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

describe('kling video tasks', () => {
  const suite = useBrowser()
  let user: ApiSession
  let key: string

  beforeAll(async () => {
    const root = await rootSession()
    await root.ok('POST', '/api/prices/single', { model: MODEL, type: 'times', channel_type: 53, input: 100, output: 0 })
    await root.ok('POST', '/api/channel/', { type: 53, name: `kling-${suffix}`, key: 'AK|SK', base_url: `${inject('mockUrl')}/kling`, models: [MODEL], group: ['default'] })
    user = await userSession(`kl${suffix}`)
    const id = (await user.ok<{ id: number }>('GET', '/api/user/self')).id
    await root.ok('POST', `/api/user/quota/${id}`, { quota: START, remark: 'kling e2e' })
    key = (await user.ok<{ key: string }>('POST', '/api/token/', { name: 'kling key', unlimited_quota: true })).key
  })

  it('a video runs to completion, a failing one is refunded, and the balance matches the price', async () => {
    const ok = await kling(key, 'POST', '/kling/v1/videos/text2video', { prompt: 'a paper boat on a river' })
    expect(ok.json).toMatchObject({ code: 0, data: { task_status: 'submitted' } })
    const failing = await kling(key, 'POST', '/kling/v1/videos/text2video', { prompt: 'this video will fail' })
    await eventually(async () => (await kling(key, 'GET', `/kling/v1/videos/text2video/${ok.json.data.task_id}`)).json.data.task_status).toBe('succeed')
    await eventually(async () => (await kling(key, 'GET', `/kling/v1/videos/text2video/${failing.json.data.task_id}`)).json.data.task_status).toBe('failed')
    await eventually(async () => (await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(START - 100_000)
    expect(await user.ok('GET', '/api/log/self/stat?type=2')).toMatchObject({ quota: 200_000, count: 2 })
    const refunds = await user.ok<{ data: { quota: number }[] }>('GET', '/api/log/self?type=4&page_size=100')
    expect(refunds.data.map((r) => r.quota)).toEqual([100_000])
  })

  for (const variant of [
    { name: 'kling-light', viewport: DESKTOP, theme: 'light' as const },
    { name: 'kling-phone-dark-zh', viewport: PHONE, theme: 'dark' as const, locale: 'zh-CN' },
  ]) {
    it(`renders ${variant.name}`, async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: variant.viewport, locale: variant.locale })
      await context.route(/^https:\/\/cdn\.klingai\.com\//, (route) => route.fulfill({ status: 204 }))
      await presetTheme(page, variant.theme)
      await signIn(page, context, user)
      await page.goto('/panel/task?platform=kling')
      await eventually(() => page.locator('tbody tr').count()).toBe(2)
      await page
        .locator('tbody')
        .getByText(variant.locale ? '可灵' : 'Kling')
        .first()
        .waitFor()
      expect(await page.getByTestId('task-fail-reason').first().textContent()).toContain('Mock video failed')
      await expectNoOverflow(page)
      await shot(page, variant.name)
      await page.getByTestId('task-output-open').first().click()
      await page.getByTestId('task-video').first().waitFor()
      await shot(page, `${variant.name}-open`)
      await context.close()
    })
  }
})
