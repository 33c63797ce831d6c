/**
 * The MCP tools page (admin): root adds a tool server through the dialog (the SDK's calculator,
 * started here, behind its own bearer token), the list shows the header as set but never its value,
 * and Test lists `calcui__add`; a key's MCP allowlist is then picked from the tools its group can
 * reach in the token dialog (a bad pattern refused on the page). Screenshots: light, dark, zh, phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARED_ROOT, rootSession } from '../../worker/e2e/support/api'
import { startCalcServer } from '../../worker/e2e/support/mcp-calc'
import { DESKTOP, PHONE, expectNoOverflow, shot } from './support/browser'
import { openSignedIn } from './support/console'
import { useBrowser } from './support/suite'

const SECRET = 'calc-ui-secret'

describe('MCP tools page', () => {
  const suite = useBrowser()
  let calc: Awaited<ReturnType<typeof startCalcServer>>
  let base: string
  beforeAll(async () => {
    calc = await startCalcServer(SECRET)
    base = (await rootSession()).base
  })
  afterAll(() => calc?.close())

  it('adds a server through the dialog, hides its header value, and Test lists its tools', async () => {
    const { context, page } = await openSignedIn(suite.browser, base, { name: 'light', viewport: DESKTOP, theme: 'light' }, SHARED_ROOT)
    await page.goto('/panel/mcp')
    await page.getByRole('heading', { name: 'MCP tools', level: 1 }).waitFor()
    await page.getByTestId('mcp-create').click()
    const dialog = page.getByTestId('mcp-server-dialog')
    await dialog.locator('input[name="name"]').fill('Bad Name')
    await dialog.getByTestId('mcp-server-save').click()
    await dialog.getByText('1–32 lower-case letters, digits, _ or -').waitFor()
    await dialog.locator('input[name="name"]').fill('calcui')
    await dialog.locator('input[name="url"]').fill(calc.url)
    await dialog.locator('textarea[name="headers"]').fill(`Authorization: Bearer ${SECRET}`)
    await dialog.getByTestId('mcp-server-save').click()
    await dialog.waitFor({ state: 'hidden' })
    const table = page.getByTestId('mcp-servers')
    await table.getByText('Authorization: set', { exact: true }).waitFor()
    expect(await page.content()).not.toContain(SECRET)

    await page.getByTestId('mcp-test-calcui').click()
    const tools = page.getByTestId('mcp-tools-dialog')
    await tools.getByText('calcui__add').waitFor()
    await tools.getByText('Add two numbers').waitFor()
    expect(calc.seenAuth.every((a) => a === `Bearer ${SECRET}`)).toBe(true)
    await shot(page, 'mcp-light-tools')
    await page.keyboard.press('Escape')
    await tools.waitFor({ state: 'hidden' })
    await shot(page, 'mcp-light')
    await context.close()
  })

  it('picks a key’s MCP tool allowlist from its group’s tools in the token dialog', async () => {
    const { context, page } = await openSignedIn(suite.browser, base, { name: 'light', viewport: DESKTOP, theme: 'light' }, SHARED_ROOT)
    await page.goto('/panel/token')
    await page.getByTestId('token-create').click()
    const dialog = page.getByTestId('token-dialog')
    await dialog.locator('input[name="name"]').fill('mcp allowlist')
    const tools = dialog.getByTestId('token-mcp-tools-input')
    await tools.fill('bad pattern!')
    await tools.press('Enter')
    await dialog.getByTestId('token-submit').click()
    await dialog.getByText('Letters, digits, _ . - / and * only (at most 100 characters)').waitFor()
    await dialog.getByRole('button', { name: 'Remove bad pattern!' }).click()
    await tools.fill('calcui')
    await dialog.getByRole('option', { name: 'calcui__add', exact: true }).click()
    await dialog.getByRole('button', { name: 'Remove calcui__add' }).waitFor()
    await dialog.getByRole('heading', { name: 'New token' }).click()
    await tools.scrollIntoViewIfNeeded()
    await shot(page, 'mcp-token-allowlist')
    await dialog.getByTestId('token-submit').click()
    await page.getByTestId('token-created-dialog').getByRole('button', { name: 'Done' }).click()
    const mine = await page.evaluate(async () => (await (await fetch('/api/token/?page_size=100')).json()) as { data: { data: { name: string; mcp_tools: string[] }[] } })
    expect(mine.data.data.find((k) => k.name === 'mcp allowlist')?.mcp_tools).toEqual(['calcui__add'])
    await context.close()
  })

  for (const look of [
    { name: 'mcp-dark', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'mcp-zh', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'mcp-phone-light', viewport: PHONE, theme: 'light' as const },
    { name: 'mcp-phone-dark', viewport: PHONE, theme: 'dark' as const },
  ]) {
    it(`renders ${look.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, base, look, SHARED_ROOT)
      await page.goto('/panel/mcp')
      await page.getByTestId('mcp-servers').waitFor()
      await expectNoOverflow(page)
      await shot(page, look.name)
      await page.getByTestId('mcp-edit-calcui').click()
      await page.getByTestId('mcp-server-dialog').waitFor()
      await shot(page, `${look.name}-dialog`)
      await context.close()
    })
  }
})
