/**
 * Settings → Operation → Content safety: the word check switch, the word list, the refuse/mask
 * select and the per-group PII JSON save what the relay reads, in English light and in Chinese dark
 * at phone width. Only a word and a group of this file's own are saved (PII masking stays off for
 * everyone), and the options are put back afterwards (shared server).
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

const KEYS = ['CheckSensitiveEnabled', 'SensitiveWords', 'SensitiveWordsAction', 'PiiMaskingGroups'] as const

async function values(root: ApiSession): Promise<Record<string, string>> {
  const list = await root.ok<Option[]>('GET', '/api/option/')
  return Object.fromEntries(list.filter((o) => (KEYS as readonly string[]).includes(o.key)).map((o) => [o.key, o.value]))
}

async function openSection(page: Page) {
  await page.goto('/panel/setting?tab=operation')
  const section = page.getByTestId('settings-content-safety')
  await section.waitFor()
  await section.scrollIntoViewIfNeeded()
  return section
}

describe('content safety settings', () => {
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

  it('turns the word check on, saves the list, the mask action and a group override', async () => {
    await root.ok('PUT', '/api/option/', { options: { CheckSensitiveEnabled: 'false', SensitiveWords: '', SensitiveWordsAction: 'refuse', PiiMaskingGroups: '{}' } })
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await presetTheme(page, 'light')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await section.getByRole('switch', { name: 'Sensitive-word check' }).click()
    await section.getByLabel('Sensitive words').fill('zq-console-safety-word\n\n  zq-console-safety-word  \n敏感词测试zq')
    await section.getByTestId('sensitive-words-action-select').click()
    await page.getByRole('option', { name: 'Mask the word with ***' }).click()
    await section.getByLabel('Personal-data masking per group').fill('{"zq-safety-e2e-group": true}')
    await shot(page, 'settings-content-safety-light')
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
    await page.getByTestId('settings-content-safety-save').click()
    expect((await saved).status()).toBe(200)
    await page.getByText('Saved successfully').first().waitFor()
    expect(await values(root)).toEqual({
      CheckSensitiveEnabled: 'true',
      SensitiveWords: 'zq-console-safety-word\n敏感词测试zq',
      SensitiveWordsAction: 'mask',
      PiiMaskingGroups: '{"zq-safety-e2e-group":true}',
    })
    // A map of something else than true/false is refused on the form.
    await section.getByLabel('Personal-data masking per group').fill('{"vip": 1}')
    await page.getByTestId('settings-content-safety-save').click()
    await section.getByText('Every value must be true or false').waitFor()
    await context.close()
  })

  it('reads in Chinese, dark, and fits a phone', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: PHONE, locale: 'zh-CN' })
    await presetTheme(page, 'dark')
    await signIn(page, SHARED_ROOT)
    const section = await openSection(page)
    await section.getByText('敏感词检查').waitFor()
    await section.getByText('个人信息脱敏', { exact: true }).waitFor()
    await expectNoOverflow(page)
    await shot(page, 'settings-content-safety-phone-dark-zh')
    await context.close()
  })
})
