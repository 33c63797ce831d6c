/**
 * Settings → Other → Import in Chromium, on a private gateway whose root was set up first: a one-api
 * SQLite file built by the CLI's fixture helper is read in the browser; the dry-run report lists the
 * tables and the skipped rows with their table and id, and refuses to write without merge, then
 * while the source's root would take the id of the gateway's root (until it is adopted into that
 * account); it applies with a progress bar, a second run changes nothing, the old root's key is the
 * gateway root's, and an imported user signs in with the old one-api password. A one-hub mysqldump
 * text is read the same way (dark theme, phone width). Screenshots: import-*.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { PASSWORDS, mysqlDump, oneApiTables, oneHubTables, writeSqlite } from '../../scripts/import/fixtures'
import { DESKTOP, PHONE, openPage } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useFreshGateway } from './support/suite'

const ROOT = { username: 'importroot', password: 'import-root-pass-1' }
const dir = mkdtempSync(path.join(tmpdir(), 'import-page-'))
const sqliteFile = path.join(dir, 'one-api.db')
const dumpFile = path.join(dir, 'one-hub.sql')

type Tables = ReturnType<typeof oneApiTables>
/** The source's root (id 1) would take the id of this gateway's root: leave it out, as an operator merging would. */
const withoutRoot = (tables: Tables): Tables => tables.map((t) => (t.name === 'users' ? { ...t, rows: t.rows.filter((r) => r[0] !== 1) } : t))

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/**
 * The import card alone (the rest of the Other tab is other cards), cut from a full-page shot taken
 * from the top so the sticky top bar stays above the card instead of across it.
 */
async function shotCard(page: Page, card: Locator, name: string) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))))
  await page.evaluate(() => window.scrollTo(0, 0))
  const box = (await card.boundingBox())!
  await page.screenshot({ path: path.resolve(import.meta.dirname, '../../test-artifacts/screenshots', `${name}.png`), fullPage: true, clip: box })
}

async function openImport(page: Page) {
  await page.goto('/panel/setting?tab=other')
  const card = page.getByTestId('settings-import')
  await card.scrollIntoViewIfNeeded()
  return card
}

async function dryRun(page: Page, file: string) {
  await page.getByTestId('import-file').setInputFiles(file)
  await page.getByTestId('import-dry-run').click()
  await page.getByTestId('import-report').waitFor()
}

/** Users as the gateway holds them (root's list), for the "a re-run changes nothing" check. */
async function users(page: Page) {
  const res = await page.request.get('/api/user/?p=1&page_size=100')
  const body = (await res.json()) as { data: { data: { id: number; username: string; quota: number; used_quota: number; request_count: number }[] } }
  return body.data.data
}

describe('import page', () => {
  const suite = useFreshGateway(ROOT)

  it('shows the dry run, needs merge, applies with a progress bar, re-runs idempotently; the imported user signs in', async () => {
    writeSqlite(sqliteFile, oneApiTables(inject('mockUrl')))
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: DESKTOP })
    await presetTheme(page, 'light')
    await signIn(page, ROOT)
    const card = await openImport(page)

    await dryRun(page, sqliteFile)
    const table = page.getByTestId('import-report-table')
    await expect.poll(() => table.locator('tbody tr').count()).toBeGreaterThan(5)
    const usersRow = table.locator('tbody tr', { hasText: /^users/ })
    expect(await usersRow.locator('td').allInnerTexts()).toEqual(['users', '3', '3', '0'])
    // A key that is not a one-api key: reported with its table and id, and skipped.
    expect(await page.getByTestId('import-problems').innerText()).toMatch(/tokens id 3: .*skipped/)
    // This gateway has its own root: without merge nothing can be written…
    expect(await page.getByTestId('import-conflicts').innerText()).toMatch(/already has 1 user/)
    expect(await page.getByTestId('import-apply').isDisabled()).toBe(true)
    // …and with merge the source's root (id 1) would replace this gateway's root, until adopted.
    await page.getByTestId('import-merge').click()
    await expect.poll(() => page.getByTestId('import-conflicts').innerText()).toMatch(/users id 1 \(root\) would replace the gateway's own user importroot/)
    expect(await page.getByTestId('import-apply').isDisabled()).toBe(true)
    await page.getByTestId('import-adopt').click()
    await page.getByTestId('import-ready').waitFor()
    expect(await usersRow.locator('td').allInnerTexts()).toEqual(['users', '3', '2', '1'])
    expect(await page.getByTestId('import-notes').innerText()).toMatch(/users id 1 \(root\): imported into your account importroot/)
    await shotCard(page, card, 'import-dry-run-light')

    await page.getByTestId('import-apply').click()
    await page.getByTestId('import-result').waitFor({ timeout: 30_000 })
    const bar = page.getByTestId('import-progress').getByRole('progressbar')
    const total = await bar.getAttribute('aria-valuemax')
    expect(Number(total)).toBeGreaterThan(0)
    expect(await bar.getAttribute('aria-valuenow')).toBe(total)
    await shotCard(page, card, 'import-applied-light')
    const once = await users(page)
    expect(once.find((u) => u.username === 'alice')).toMatchObject({ id: 2, quota: 2_000_000, used_quota: 123_456, request_count: 7 })
    expect(once.find((u) => u.id === 1)).toMatchObject({ username: ROOT.username })
    // The old root's key is now this root's.
    const keys = (await (await page.request.get('/api/token/?p=1&page_size=100')).json()) as { data: { data: { name: string }[] } }
    expect(keys.data.data.map((k) => k.name)).toContain('root key')

    // The same import again: the dry run still allows it (the rows are its own) and nothing changes.
    await page.getByTestId('import-dry-run').click()
    await page.getByTestId('import-ready').waitFor()
    await page.getByTestId('import-apply').click()
    await page.getByTestId('import-result').waitFor({ timeout: 30_000 })
    expect(await users(page)).toEqual(once)
    await context.close()

    const alice = await openPage(suite.browser, { baseURL: suite.server.url, viewport: DESKTOP })
    await signIn(alice.page, { username: 'alice', password: PASSWORDS.alice })
    expect(new URL(alice.page.url()).pathname).toBe('/panel/dashboard')
    await alice.context.close()
  })

  it('reads a one-hub mysqldump text (dark, phone width)', async () => {
    writeFileSync(dumpFile, mysqlDump(withoutRoot(oneHubTables(inject('mockUrl')))))
    for (const [name, viewport] of [
      ['import-dump-dark', DESKTOP],
      ['import-dump-phone-dark', PHONE],
    ] as const) {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport })
      await presetTheme(page, 'dark')
      await signIn(page, ROOT)
      const card = await openImport(page)
      await dryRun(page, dumpFile)
      expect(await page.getByTestId('import-report').innerText()).toMatch(/one-hub[\s\S]*MySQL dump/)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      await shotCard(page, card, name)
      await context.close()
    }
  })
})
