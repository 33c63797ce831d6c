/**
 * Settings → Operation → Other, the Midjourney part: the image-link select (upstream, gateway,
 * Cloudflare Worker) and the fast → relax switch save what the relay reads, in English and
 * Chinese, light and dark, and at phone width. The options are put back afterwards (shared server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, type ApiSession } from '../../worker/e2e/support/api'
import { PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useBrowser } from './support/suite'

interface Option {
  key: string
  value: string
}

const KEYS = ['MjImageProxy', 'MjFastFallbackRelax'] as const

async function values(root: ApiSession): Promise<Record<string, string>> {
  const list = await root.ok<Option[]>('GET', '/api/option/')
  return Object.fromEntries(list.filter((o) => (KEYS as readonly string[]).includes(o.key)).map((o) => [o.key, o.value]))
}

async function openSection(page: Page) {
  await page.goto('/panel/setting?tab=operation')
  const section = page.getByTestId('settings-operation-other')
  await section.waitFor()
  await section.scrollIntoViewIfNeeded()
  return section
}

describe('midjourney settings', () => {
  const suite = useBrowser()
  let root: ApiSession
  let original: Record<string, string>

  beforeAll(async () => {
    root = await rootSession()
    original = await values(root)
  })

  afterAll(async () => {
    if (original) await root.ok('PUT', '/api/option/', { options: original })
  })

  it('picks the image links and the fallback, and saves them', async () => {
    await root.ok('PUT', '/api/option/', { options: { MjImageProxy: 'off', MjFastFallbackRelax: 'false' } })
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await presetTheme(page, 'light')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await section.getByTestId('mj-image-proxy-select').click()
    await page.getByRole('option', { name: 'Through this gateway' }).click()
    await section.getByRole('switch', { name: 'Fast → relax fallback' }).click()
    await shot(page, 'settings-mj-light')
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
    await page.getByTestId('settings-operation-other-save').click()
    expect((await saved).status()).toBe(200)
    await page.getByText('Saved successfully').first().waitFor()
    expect(await values(root)).toEqual({ MjImageProxy: 'gateway', MjFastFallbackRelax: 'true' })
    // After a reload the form shows what was saved.
    const again = await openSection(page)
    await expect.poll(() => again.getByTestId('mj-image-proxy-select').textContent()).toBe('Through this gateway')
    await context.close()
  })

  it('reads in Chinese, dark, and fits a phone', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE, locale: 'zh-CN' })
    await presetTheme(page, 'dark')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await section.getByText('Midjourney 图片链接').waitFor()
    await expect.poll(() => section.getByTestId('mj-image-proxy-select').textContent()).toBe('经本网关代理')
    await section.getByText('Fast 失败转 Relax').waitFor()
    await expectNoOverflow(page)
    await shot(page, 'settings-mj-phone-dark-zh')
    await context.close()
  })
})
