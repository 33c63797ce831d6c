/**
 * Model routing editor (/panel/model-routing, root): adds a weighted route for one group (weights
 * shown as percentages, a weight of 0 refused on the form) and a fallback list reordered with the
 * arrows, saves both through the settings API, and finds them again after a reload — in English
 * light, dark, and Chinese dark at phone width. Only this file's own model names are added; the
 * two options are put back afterwards (shared server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { SHARED_ROOT, rootSession, type ApiSession } from '../../worker/e2e/support/api'
import { PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useBrowser } from './support/suite'

interface Option {
  key: string
  value: string
}

const SOURCE = 'zq-mr-e2e-src'
const GROUP = 'zq-mr-e2e-group'
const FB_SOURCE = 'zq-mr-e2e-fb'

async function routingOptions(root: ApiSession) {
  const list = await root.ok<Option[]>('GET', '/api/option/')
  const value = (key: string) => list.find((o) => o.key === key)?.value ?? ''
  return { ModelRoutes: value('ModelRoutes'), ModelFallbacks: value('ModelFallbacks') }
}

async function openEditor(page: Page) {
  await page.goto('/panel/model-routing')
  await page.getByTestId('settings-model-routes').waitFor()
  await page.getByTestId('settings-model-fallbacks').waitFor()
}

const inputValues = (page: Page, testId: string) => page.getByTestId(testId).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))

describe('model routing editor', () => {
  const suite = useBrowser()
  let root: ApiSession
  let original: { ModelRoutes: string; ModelFallbacks: string }

  beforeAll(async () => {
    root = await rootSession()
    original = await routingOptions(root)
  })

  afterAll(async () => {
    if (original) await root.ok('PUT', '/api/option/', { options: original })
  })

  it('adds a weighted route and a reordered fallback list, saves them, and shows them after a reload', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: root.base })
    await presetTheme(page, 'light')
    await signIn(page, SHARED_ROOT)
    await openEditor(page)

    // A route for one group: 3 : 1 between two targets, shown as 75 % / 25 %.
    const routes = page.getByTestId('settings-model-routes')
    await routes.getByTestId('routes-add').click()
    const card = routes.getByTestId('route-card').last()
    await card.getByTestId('route-model').fill(SOURCE)
    await card.getByTestId('route-scope').click()
    await page.getByRole('option', { name: 'One group' }).click()
    await card.getByTestId('route-scope-value').fill(GROUP)
    await card.getByTestId('target-model').last().fill('zq-mr-e2e-a')
    await card.getByTestId('target-weight').last().fill('0')
    await routes.getByTestId('settings-model-routes-save').click()
    await card.getByText('Weights are whole numbers of at least 1.').waitFor()
    await card.getByTestId('target-weight').last().fill('3')
    await card.getByTestId('target-add').click()
    await card.getByTestId('target-model').last().fill('zq-mr-e2e-b')
    await card.getByTestId('target-weight').last().fill('1')
    expect(await card.getByTestId('target-percent').allTextContents()).toEqual(['75%', '25%'])
    const savedRoutes = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
    await routes.getByTestId('settings-model-routes-save').click()
    expect((await savedRoutes).status()).toBe(200)

    // A fallback list, the second model moved up to be tried first.
    const fallbacks = page.getByTestId('settings-model-fallbacks')
    await fallbacks.getByTestId('fallbacks-add').click()
    const fb = fallbacks.getByTestId('fallback-card').last()
    await fb.getByTestId('fallback-model').fill(FB_SOURCE)
    await fb.getByTestId('fallback-target').last().fill('zq-mr-e2e-second')
    await fb.getByTestId('fallback-item-add').click()
    await fb.getByTestId('fallback-target').last().fill('zq-mr-e2e-first')
    await fb.getByTestId('fallback-up').last().click()
    expect(await fb.getByTestId('fallback-target').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['zq-mr-e2e-first', 'zq-mr-e2e-second'])
    await shot(page, 'model-routing-light')
    const savedFallbacks = page.waitForResponse((r) => r.url().endsWith('/api/option/') && r.request().method() === 'PUT')
    await fallbacks.getByTestId('settings-model-fallbacks-save').click()
    expect((await savedFallbacks).status()).toBe(200)

    // What the relay reads.
    const stored = await routingOptions(root)
    expect(JSON.parse(stored.ModelRoutes)).toContainEqual({
      model: SOURCE,
      group: GROUP,
      targets: [
        { model: 'zq-mr-e2e-a', weight: 3 },
        { model: 'zq-mr-e2e-b', weight: 1 },
      ],
    })
    expect(JSON.parse(stored.ModelFallbacks)[FB_SOURCE]).toEqual(['zq-mr-e2e-first', 'zq-mr-e2e-second'])

    await page.reload()
    await openEditor(page)
    expect(await inputValues(page, 'route-model')).toContain(SOURCE)
    expect(await inputValues(page, 'route-scope-value')).toContain(GROUP)
    expect(await inputValues(page, 'fallback-model')).toContain(FB_SOURCE)
    const again = page.getByTestId('fallback-card').nth((await inputValues(page, 'fallback-model')).indexOf(FB_SOURCE))
    expect(await again.getByTestId('fallback-target').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['zq-mr-e2e-first', 'zq-mr-e2e-second'])
    await context.close()
  })

  it('reads in dark, and in Chinese dark at phone width without overflow', async () => {
    for (const look of [
      { name: 'model-routing-dark', viewport: undefined, locale: 'en-US', title: 'Weighted routes' },
      { name: 'model-routing-phone-dark-zh', viewport: PHONE, locale: 'zh-CN', title: '加权路由' },
    ]) {
      const { context, page } = await openPage(suite.browser, { baseURL: root.base, viewport: look.viewport, locale: look.locale })
      await presetTheme(page, 'dark')
      await signIn(page, SHARED_ROOT)
      await openEditor(page)
      await page.getByText(look.title, { exact: true }).waitFor()
      await expectNoOverflow(page)
      await shot(page, look.name)
      await context.close()
    }
  })
})
