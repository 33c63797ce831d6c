/**
 * The audit log (issue 32) on the shared server: an administrator edits a channel, which leaves
 * exactly one `channel.update` row with the field diff (the key only as "secret changed"); the audit
 * page (/panel/audit, Settings → Audit in the menu) shows that row with the diff, filtered by target.
 * A plain user has no menu entry. Screenshots: light and dark (desktop), phone, zh_CN.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { rootSession, userSession, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { presetTheme } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36)
const ADMIN = { username: `audadm${suffix}`, password: 'admin-password-1' }
const CHANNEL = `audit-ch-${suffix}`
const RENAMED = `audit-renamed-${suffix}`
const KEY = `sk-audit-e2e-key-${suffix}`
// A model of its own: on the shared server an OpenAI-type channel for a common model would take
// other files' traffic (the Responses API goes natively to type 1, which the mock does not serve).
const MODEL = `audit-e2e-model-${suffix}`

/** Signed in through the API (many UI sign-ins would meet the login rate limit): the cookie plus the profile the console keeps. */
async function signIn(page: Page, context: BrowserContext, session: ApiSession) {
  const profile = await session.ok('GET', '/api/user/self')
  await context.addCookies(session.browserCookies())
  await page.addInitScript((p) => localStorage.setItem('user', JSON.stringify(p)), profile)
}

interface AuditRow {
  actor_name: string
  action: string
  target_type: string
  target_id: string
  diff: Record<string, unknown>
  ip: string
  request_id: string
}

describe('audit log', () => {
  const suite = useBrowser()
  let admin: ApiSession
  let channelId = 0

  beforeAll(async () => {
    const root = await rootSession()
    await userSession(ADMIN.username, ADMIN.password)
    await root.ok('POST', '/api/user/manage', { username: ADMIN.username, action: 'promote' })
    admin = await userSession(ADMIN.username, ADMIN.password)
    const form = { type: 1, name: CHANNEL, key: KEY, base_url: inject('mockUrl'), models: MODEL, group: 'default' }
    const [created] = await admin.ok<{ id: number }[]>('POST', '/api/channel/', form)
    channelId = created!.id
    await admin.ok('PUT', '/api/channel/', { ...form, id: channelId, name: RENAMED, key: `${KEY}-new`, weight: 5 })
  })

  it('editing a channel as an admin leaves one audit row with the field diff, secrets only as changed', async () => {
    const page = await admin.ok<{ data: AuditRow[]; total_count: number }>('GET', `/api/audit/?action=channel.update&target_id=${channelId}`)
    expect(page.total_count).toBe(1)
    const row = page.data[0]!
    expect(row).toMatchObject({ actor_name: ADMIN.username, action: 'channel.update', target_type: 'channel', target_id: String(channelId) })
    expect(row.diff).toMatchObject({ name: { from: CHANNEL, to: RENAMED }, weight: { to: 5 }, key: 'changed' })
    expect(row.request_id).not.toBe('')
    expect(JSON.stringify(page)).not.toContain(KEY)
  })

  it('shows the row with its diff on the audit page, from the menu (light, dark)', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP })
      await signIn(page, context, admin)
      await presetTheme(page, theme)
      await page.goto('/panel/dashboard')
      await page.getByTestId('console-nav').getByRole('link', { name: 'Audit log' }).click()
      await page.waitForURL('**/panel/audit')
      await page.getByRole('heading', { name: 'Audit log' }).waitFor()
      await page.locator('input[name="target_id"]').fill(String(channelId))
      await page.locator('input[name="action"]').fill('channel.update')
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1)
      const row = page.locator('tbody tr').first()
      await expect.poll(() => row.getByTestId('audit-action').textContent()).toBe('channel.update')
      expect(await row.getByTestId('audit-actor').textContent()).toContain(ADMIN.username)
      const diff = await row.getByTestId('audit-diff').textContent()
      expect(diff).toContain(CHANNEL)
      expect(diff).toContain(RENAMED)
      await row.getByTestId('audit-detail-trigger').click()
      const detail = page.getByTestId('audit-detail')
      await detail.waitFor()
      expect(await detail.textContent()).toContain('secret changed')
      expect(await page.content()).not.toContain(KEY)
      await shot(page, `audit-${theme}`)
      await context.close()
    }
  })

  it('fits a phone and reads in Chinese', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: admin.base, viewport: PHONE })
    await signIn(page, context, admin)
    await page.goto(`/panel/audit?target_id=${channelId}`)
    await page.getByTestId('audit-action').first().waitFor()
    // The id from the URL filters the list (the create and the edit of this channel).
    expect(await page.locator('input[name="target_id"]').inputValue()).toBe(String(channelId))
    await expect.poll(() => page.getByTestId('audit-action').allTextContents()).toEqual(['channel.update', 'channel.create'])
    await expectNoOverflow(page)
    await shot(page, 'audit-phone')
    await context.close()

    const zh = await openPage(suite.browser, { baseURL: admin.base, viewport: DESKTOP, locale: 'zh-CN' })
    await signIn(zh.page, zh.context, admin)
    await zh.page.goto(`/panel/audit?target_id=${channelId}`)
    await zh.page.getByRole('heading', { name: '操作审计' }).waitFor()
    await zh.page.getByTestId('audit-action').first().waitFor()
    await zh.page.getByText('导出 CSV').waitFor()
    await shot(zh.page, 'audit-zh')
    await zh.context.close()
  })

  it('is not offered to a plain user', async () => {
    const user = await userSession(`audusr${suffix}`)
    const { context, page } = await openPage(suite.browser, { baseURL: user.base, viewport: DESKTOP })
    await signIn(page, context, user)
    await page.goto('/panel/dashboard')
    await page.getByTestId('console-nav').waitFor()
    expect(await page.getByTestId('console-nav').getByRole('link', { name: 'Audit log' }).count()).toBe(0)
    await page.goto('/panel/audit')
    await page.waitForURL((url) => !url.pathname.startsWith('/panel/audit'))
    await context.close()
  })
})
