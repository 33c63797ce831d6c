/**
 * Chromium for the console's browser tests (playwright-core against the system /usr/bin/chromium),
 * a fresh context per test, and `shot()` saving screenshots to test-artifacts/screenshots/.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

const root = path.resolve(import.meta.dirname, '../../..')
const SHOT_DIR = path.join(root, 'test-artifacts/screenshots')

export const PHONE = { width: 375, height: 740 }
export const DESKTOP = { width: 1366, height: 860 }

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  })
}

export interface PageOptions {
  baseURL: string
  viewport?: { width: number; height: number }
  /** Browser language; the console maps it to zh_CN / en_US / ja_JP. */
  locale?: string
}

/** A new isolated context (cookies, storage) and page. Page errors fail loudly in the test output. */
export async function openPage(browser: Browser, options: PageOptions): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.viewport ?? DESKTOP,
    locale: options.locale ?? 'en-US',
  })
  const page = await context.newPage()
  page.on('pageerror', (err) => console.error(`[pageerror] ${err.message}`))
  return { context, page }
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOT_DIR, { recursive: true })
  // Let finite animations (sheet slide-in, dialog zoom) settle; looping ones never finish.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined))
    )
  )
  await page.screenshot({ path: path.join(SHOT_DIR, `${name}.png`), fullPage: true })
}

/** The page has no horizontal scroll bar (phone width included); names the elements sticking out if it has. */
export async function expectNoOverflow(page: Page) {
  const wider = await page.evaluate(() => {
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth <= width) return []
    return Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)} → ${el.getBoundingClientRect().right}`)
  })
  expect(wider, wider.join('\n')).toEqual([])
}
