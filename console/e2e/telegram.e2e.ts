/**
 * The Telegram bot end to end, on a private gateway and the mock Bot API server
 * (scripts/mock-telegram.mjs): root adds a custom menu on /panel/telegram and presses Reload (the
 * webhook and the command list reach the mock); a user binds from the profile page with the
 * one-time code sent to the bot, then /balance, /recharge and the custom menu answer through the
 * webhook, and the user switches notices on; switched to polling, the Durable Object alarm picks a
 * queued update up from getUpdates.
 * Screenshots of the page and the profile binding: light, dark, phone, zh_CN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { startMockTelegram } from '../../scripts/mock-telegram.mjs'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { saveOptions, type ApiSession } from './support/fresh-server'
import { useFreshGateway } from './support/suite'

const ROOT = { username: 'tgroot', password: 'tg-root-password-1' }
const USER = { username: 'tguser', password: 'tg-user-password-1' }
const TG_USER = 424242
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 200 })

describe('telegram bot', () => {
  const suite = useFreshGateway(ROOT)
  let mock: Awaited<ReturnType<typeof startMockTelegram>>

  async function api(method: string, path: string, body?: unknown, session: ApiSession = suite.session) {
    const res = await fetch(`${suite.server.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Cookie: session.cookie, 'X-XSRF-TOKEN': session.xsrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { success: boolean; message: string; data: any } }
  }
  const replies = async () => (await (await fetch(`${mock.url}/_mock/calls?method=sendMessage`)).json()) as { params: { chat_id: number; text: string } }[]
  const lastReply = async () => (await replies()).filter((c) => Number(c.params.chat_id) === TG_USER).at(-1)?.params.text ?? ''
  async function send(text: string) {
    const res = await fetch(`${mock.url}/_mock/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ from: TG_USER, text }) })
    return (await res.json()) as { delivered?: number; queued?: boolean }
  }

  beforeAll(async () => {
    mock = await startMockTelegram({ port: 0 })
    await saveOptions(suite.server.url, suite.session, {
      TelegramBotEnabled: 'true',
      TelegramBotToken: mock.token,
      TelegramApiBase: mock.url,
      TelegramMode: 'webhook',
      DisplayInCurrencyEnabled: 'true',
      QuotaPerUnit: '500000',
    })
  })
  afterAll(async () => {
    await mock?.stop()
  })

  it('root adds a menu, sees it refused while invalid, and Reload applies webhook and commands', async () => {
    const { page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, ROOT)
    await page.goto('/panel/telegram')
    await page.getByRole('heading', { name: 'Telegram bot', level: 1 }).waitFor()
    await page.getByTestId('telegram-status').getByText('Not applied yet').waitFor()

    await page.getByTestId('telegram-create').click()
    const dialog = page.getByTestId('telegram-menu-dialog')
    await dialog.locator('input[name="command"]').fill('Bad Cmd')
    await dialog.getByTestId('telegram-menu-save').click()
    await dialog.getByText('Use 1–32 characters of a-z, 0-9 and _').waitFor()
    expect(await dialog.getByText('This field is required').count()).toBe(2)
    await dialog.locator('input[name="command"]').fill('/faq')
    await dialog.locator('input[name="description"]').fill('Frequently asked questions')
    await dialog.locator('textarea[name="reply_message"]').fill('Read the docs at https://example.com/docs')
    await dialog.getByTestId('telegram-menu-save').click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('tbody tr').filter({ hasText: '/faq' }).waitFor()

    await page.getByTestId('telegram-reload').click()
    await page.getByText('Reloaded @gateway_mock_bot with 1 custom menu').waitFor()
    await eventually(() => page.getByTestId('telegram-bot-username').innerText()).toBe('@gateway_mock_bot')
    const state = (await (await fetch(`${mock.url}/_mock/state`)).json()) as { webhook: { url: string; secret_token: string }; commands: { command: string }[] }
    expect(state.webhook.url).toBe(`${suite.server.url}/api/telegram/webhook`)
    expect(state.webhook.secret_token).toMatch(/^[A-Za-z0-9]{48}$/)
    expect(state.commands.map((c) => c.command)).toContain('faq')
    await page.getByTestId('telegram-webhook-url').getByText('/api/telegram/webhook').waitFor()
  })

  it('a user binds from the profile with the one-time code, then /balance, /recharge and /faq answer', async () => {
    const xsrf = (await fetch(`${suite.server.url}/api/status`)).headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('XSRF-TOKEN='))!
    const anon = { cookie: xsrf, xsrf: xsrf.slice('XSRF-TOKEN='.length) }
    expect((await api('POST', '/api/user/register', USER, anon)).status).toBe(200)

    const { page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, USER)
    await page.goto('/panel/profile')
    const row = page.getByTestId('binding-telegram')
    await row.getByTestId('bind-telegram').click()
    const dialog = page.getByTestId('telegram-bind-dialog')
    const command = await dialog.getByTestId('telegram-bind-command').innerText()
    expect(command).toMatch(/^\/bind [A-Za-z0-9]{20}$/)
    expect(await dialog.getByTestId('telegram-deep-link').getAttribute('href')).toBe(`https://t.me/gateway_mock_bot?start=${command.slice(6)}`)

    expect(await send('/balance')).toMatchObject({ delivered: 200 })
    expect(await lastReply()).toContain('not bound')
    expect(await send(command)).toMatchObject({ delivered: 200 })
    expect(await lastReply()).toContain('Bound to <b>tguser</b>')
    // The dialog notices the binding and closes; the row shows the Telegram id.
    await dialog.waitFor({ state: 'detached', timeout: 20_000 })
    await eventually(() => row.getAttribute('data-bound')).toBe('true')
    await row.getByText(String(TG_USER)).waitFor()

    await send('/balance')
    expect(await lastReply()).toContain('Balance: <b>$0.00</b>')
    const [code] = (await api('POST', '/api/redemption/', { name: 'tg-e2e', quota: 1_000_000, count: 1 })).body.data as string[]
    await send(`/recharge ${code}`)
    expect(await lastReply()).toContain('Redeemed $2.00. Balance: <b>$2.00</b>')
    await send(`/recharge ${code}`)
    expect(await lastReply()).toContain('Invalid or already used redemption code')
    await send('/faq')
    expect(await lastReply()).toBe('Read the docs at https://example.com/docs')
    // Notices in the chat are the user's choice, kept across reloads.
    const notify = page.getByTestId('telegram-notify')
    expect(await notify.getAttribute('aria-checked')).toBe('false')
    await notify.click()
    await eventually(() => notify.getAttribute('aria-checked')).toBe('true')
    await page.reload()
    await eventually(() => page.getByTestId('telegram-notify').getAttribute('aria-checked')).toBe('true')
    await shot(page, 'telegram-profile-bound')
  })

  it('polling mode: the alarm long-polls the queued update and answers it', async () => {
    await saveOptions(suite.server.url, suite.session, { TelegramMode: 'polling' })
    const reload = await api('PUT', '/api/option/telegram/reload')
    expect(reload.body.data).toMatchObject({ mode: 'polling', menus: 1 })
    const before = (await replies()).length
    expect(await send('/faq')).toMatchObject({ queued: true })
    await eventually(async () => (await replies()).length).toBe(before + 1)
    expect(await lastReply()).toBe('Read the docs at https://example.com/docs')
    const status = (await api('GET', '/api/option/telegram/status')).body.data
    expect(status).toMatchObject({ mode: 'polling', polling: { running: true, last_error: '' } })
    expect(status.polling.offset).toBeGreaterThan(0)
    await saveOptions(suite.server.url, suite.session, { TelegramMode: 'webhook' })
    await api('PUT', '/api/option/telegram/reload')
  })

  async function screens(page: Page, name: string) {
    await page.goto('/panel/telegram')
    await page.getByTestId('telegram-status').waitFor()
    await page.locator('tbody tr').filter({ hasText: '/faq' }).waitFor()
    await eventually(() => page.getByTestId('telegram-bot-username').innerText()).toBe('@gateway_mock_bot')
    await shot(page, `telegram-${name}`)
  }

  it('screenshots: light, dark, phone and zh_CN, with the menu dialog and the profile bind dialog', async () => {
    const variants = [
      { name: 'light', viewport: DESKTOP, theme: 'light' as const, locale: 'en-US' },
      { name: 'dark', viewport: DESKTOP, theme: 'dark' as const, locale: 'en-US' },
      { name: 'zh-light', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
      { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark' as const, locale: 'zh-CN' },
      { name: 'phone-light', viewport: PHONE, theme: 'light' as const, locale: 'en-US' },
    ]
    for (const v of variants) {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: v.viewport, locale: v.locale })
      await presetTheme(page, v.theme)
      await signIn(page, ROOT)
      await screens(page, v.name)
      if (v.name === 'light') {
        // Root's settings card: the token and the generated webhook secret are write-only.
        await page.goto('/panel/setting?tab=system')
        const card = page.getByTestId('settings-telegram')
        await card.scrollIntoViewIfNeeded()
        await card.getByTestId('secret-TelegramBotToken-status').getByText('Configured').waitFor()
        await card.getByTestId('secret-TelegramWebhookSecret-status').getByText('Configured').waitFor()
        expect(await card.locator('input[name="TelegramBotToken"]').inputValue()).toBe('')
        expect(await card.locator('input[name="TelegramApiBase"]').inputValue()).toBe(mock.url)
        await card.screenshot({ path: 'test-artifacts/screenshots/telegram-settings-card.png' })
      }
      if (v.name === 'zh-light' || v.name === 'phone-dark-zh') {
        await page.getByTestId('telegram-create').click()
        await page.getByTestId('telegram-menu-dialog').waitFor()
        await shot(page, `telegram-${v.name}-dialog`)
        await page.keyboard.press('Escape')
        await page.goto('/panel/profile')
        await page.getByTestId('bind-telegram').click()
        await page.getByTestId('telegram-bind-command').waitFor()
        await shot(page, `telegram-${v.name}-profile-bind`)
      }
      await context.close()
    }
  })
})
