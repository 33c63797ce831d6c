/**
 * Tokens page: a user creates a key through the dialog (validation first), takes it from the
 * "new key" dialog and calls the relay with it; disables it with the switch and sees the relay
 * refuse it with 401; opens a chat link, which goes through /jump (key in the fragment only) and
 * lands on a URL holding the key, an app link waits for a confirmation with the key URL-encoded
 * into its template, while a javascript: link is refused on /jump; edits and deletes a key behind a
 * confirmation. Root finds the user's key in the all-users search. Screenshots: light, dark, phone.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SHARED_ROOT, relayFixture, type ApiSession } from '../../worker/e2e/support/api'
import { PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signInToPanel, rowOf } from './support/console'
import { useBrowser } from './support/suite'

const suffix = Date.now().toString(36).slice(-6)
const USERNAME = `tk${suffix}`
const PASSWORD = 'user-password-1'
const KEY_NAME = `ui-key-${suffix}`

async function relay(key: string, model: string) {
  return fetch(`${inject('gatewayUrl')}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }] }),
  })
}

describe('tokens page', () => {
  const suite = useBrowser()
  let root: ApiSession
  let model: string
  let userId: number
  let savedChatLinks: string

  beforeAll(async () => {
    const fx = await relayFixture({ username: USERNAME })
    root = fx.root
    model = fx.model
    userId = fx.userId
    await root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000' } })
    const options = await root.ok<{ key: string; value: string }[]>('GET', '/api/option/')
    savedChatLinks = options.find((o) => o.key === 'ChatLinks')!.value
    const links = [
      { name: 'Local chat', url: '{server}/about?from=chat&key={key}', show: true, sort: 5 },
      { name: 'Hidden client', url: 'https://hidden.example/?key={key}', show: false, sort: 9 },
      { name: 'App client', url: 'chatclient://set?key={key}&host={server}', show: true, sort: 3 },
      { name: 'Bad link', url: 'javascript:alert("{key}")', show: true, sort: 1 },
    ]
    await root.ok('PUT', '/api/option/', { key: 'ChatLinks', value: JSON.stringify(links) })
  })

  afterAll(async () => {
    await root?.ok('PUT', '/api/option/', { key: 'ChatLinks', value: savedChatLinks })
  })

  it('creates a key, calls the relay with it, disables it and sees 401', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signInToPanel(page, { username: USERNAME, password: PASSWORD })
    // Ordinary users have no channel administration in their menu.
    await page.getByRole('link', { name: 'Tokens' }).waitFor()
    expect(await page.getByRole('link', { name: 'Channels' }).count()).toBe(0)
    await page.getByRole('link', { name: 'Tokens' }).click()
    await page.getByRole('heading', { name: 'Tokens' }).waitFor()
    await rowOf(page, 'e2e key').waitFor()

    await page.getByTestId('token-create').click()
    const dialog = page.getByTestId('token-dialog')
    await dialog.getByRole('heading', { name: 'New token' }).waitFor()
    await dialog.getByTestId('token-submit').click()
    await dialog.getByText('Name is required').waitFor()
    await dialog.locator('input[name="name"]').fill(KEY_NAME)
    await dialog.locator('input[name="remain_quota"]').fill('5')
    await dialog.getByRole('switch', { name: 'Limit IP addresses' }).click()
    await dialog.locator('textarea[name="ip_whitelist"]').fill('10.0.0.0/8\nnot-an-ip')
    await dialog.getByTestId('token-submit').click()
    await dialog.getByText('Every line must be an IPv4/IPv6 address or CIDR range').waitFor()
    await dialog.getByRole('switch', { name: 'Limit IP addresses' }).click()
    await dialog.getByRole('switch', { name: 'Limit models' }).click()
    await dialog.getByTestId('token-models-input').click()
    await dialog.getByRole('option', { name: model, exact: true }).click()
    await dialog.getByRole('button', { name: `Remove ${model}` }).waitFor()
    // The suggestion list stays open for more picks (other files add models to this shared server):
    // close it as a person would, by clicking elsewhere in the dialog.
    await dialog.getByRole('heading', { name: 'New token' }).click()
    await shot(page, 'tokens-dialog-light')
    await dialog.getByTestId('token-submit').click()

    const created = page.getByTestId('token-created-dialog')
    await created.getByText('Your new token').waitFor()
    const key = await created.getByTestId('token-created-key').inputValue()
    expect(key).toMatch(/^sk-\S{16,}$/)
    await shot(page, 'tokens-created-light')
    await created.getByRole('button', { name: 'Done' }).click()

    const row = rowOf(page, KEY_NAME)
    await row.getByText('Enabled', { exact: true }).waitFor()
    await row.getByText('$5.00').waitFor()
    await row.getByText('Never', { exact: true }).first().waitFor()

    const ok = await relay(key, model)
    expect(ok.status).toBe(200)
    // A model outside the whitelist is refused.
    const other = await relay(key, 'gpt-4o')
    expect(other.status).toBe(403)
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain('may not use the model gpt-4o')

    await row.getByRole('switch', { name: `Disable ${KEY_NAME}` }).click()
    await page.getByText('Token disabled').first().waitFor()
    await row.getByText('Disabled', { exact: true }).waitFor()
    const refused = await relay(key, model)
    expect(refused.status).toBe(401)

    await row.getByRole('switch', { name: `Enable ${KEY_NAME}` }).click()
    await row.getByText('Enabled', { exact: true }).waitFor()
    expect((await relay(key, model)).status).toBe(200)
    await page.reload()
    await rowOf(page, KEY_NAME).waitFor()
    await shot(page, 'tokens-light')
    await context.close()
  })

  it('opens a chat link through /jump and refuses a javascript: link', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signInToPanel(page, { username: USERNAME, password: PASSWORD })
    await page.goto('/panel/token')
    const row = rowOf(page, KEY_NAME)
    await row.waitFor()
    const id = (await row.getByRole('switch').getAttribute('data-testid'))!.replace('token-switch-', '')
    const tokens = await page.evaluate(() => fetch('/api/token/').then((r) => r.json()))
    const key = (tokens.data.data as { id: number; key: string }[]).find((t) => String(t.id) === id)!.key

    await row.getByTestId(`token-chat-${id}`).click()
    const menu = page.getByRole('menu')
    // Only shown links, the larger sort first.
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Local chat', 'App client', 'Bad link'])
    const [popup] = await Promise.all([context.waitForEvent('page'), menu.getByRole('menuitem', { name: 'Local chat' }).click()])
    await popup.waitForURL((url) => url.pathname === '/about')
    const landed = new URL(popup.url())
    expect(landed.searchParams.get('key')).toBe(key)
    const status = await root.ok<{ server_address: string }>('GET', '/api/status')
    expect(landed.origin).toBe(new URL(status.server_address || inject('gatewayUrl')).origin)
    await popup.close()

    // An app link: /jump asks first, the key never shows in the address, and the template gets it URL-encoded.
    await row.getByTestId(`token-chat-${id}`).click()
    const [app] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'App client' }).click()])
    const open = app.getByTestId('jump-open-app')
    await open.waitFor()
    expect(new URL(app.url()).pathname).toBe('/jump')
    expect(app.url()).not.toContain(key)
    const server = (status.server_address || inject('gatewayUrl')).replace(/\/+$/, '')
    expect(await open.getAttribute('href')).toBe(`chatclient://set?key=${key}&host=${encodeURIComponent(server)}`)
    // A key cannot smuggle extra parameters into the app link (a fresh load, as from a new tab).
    await app.goto('about:blank')
    await app.goto(`/jump?url=${encodeURIComponent('chatclient://set?key={key}&host={server}')}#key=${encodeURIComponent('x&host=evil')}`)
    expect(await app.getByTestId('jump-open-app').getAttribute('href')).toBe(`chatclient://set?key=x%26host%3Devil&host=${encodeURIComponent(server)}`)
    await app.close()

    await row.getByTestId(`token-chat-${id}`).click()
    const [bad] = await Promise.all([context.waitForEvent('page'), page.getByRole('menuitem', { name: 'Bad link' }).click()])
    await bad.getByTestId('jump-refused').getByText('Link refused').waitFor()
    expect(new URL(bad.url()).pathname).toBe('/jump')
    await shot(bad, 'jump-refused-light')
    // data: with tabs hidden in the scheme is refused too; a missing url is an invalid link.
    await bad.goto(`/jump?url=${encodeURIComponent('da\tta:text/html,<b>hi</b>')}&key=${key}`)
    await bad.getByText('Link refused').waitFor()
    // Not an open redirect: an address the administrator did not configure is never followed.
    await bad.goto(`/jump?url=${encodeURIComponent('https://evil.example/steal?k={key}')}&key=${key}`)
    await bad.getByText('Only the chat clients configured by the administrator can be opened from here.').waitFor()
    expect(new URL(bad.url()).hostname).not.toBe('evil.example')
    await bad.goto('/jump')
    await bad.getByText('Invalid link').waitFor()
    await bad.close()
    await context.close()
  })

  it('edits and deletes keys; root finds them in the all-users search', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await presetTheme(page, 'dark')
    await signInToPanel(page, { username: USERNAME, password: PASSWORD })
    await page.goto('/panel/token')
    const row = rowOf(page, KEY_NAME)
    await row.getByRole('button', { name: `Edit ${KEY_NAME}` }).click()
    const dialog = page.getByTestId('token-dialog')
    await dialog.getByRole('switch', { name: 'Unlimited quota' }).click()
    await dialog.getByRole('switch', { name: 'Never expires' }).click()
    await dialog.getByRole('button', { name: '30 days' }).click()
    await dialog.locator('input[name="name"]').fill(`${KEY_NAME}-2`)
    await shot(page, 'tokens-dialog-dark')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Token updated').first().waitFor()
    const edited = rowOf(page, `${KEY_NAME}-2`)
    await edited.getByText('Unlimited').waitFor()
    const in30Days = new Date(Date.now() + 30 * 86400_000)
    await edited.getByText(new RegExp(`^${in30Days.getFullYear()}-${String(in30Days.getMonth() + 1).padStart(2, '0')}-`)).waitFor()
    await shot(page, 'tokens-dark')

    await rowOf(page, 'e2e key').getByRole('button', { name: 'Delete e2e key' }).click()
    const confirm = page.getByRole('alertdialog')
    await confirm.getByText('Delete this token?').waitFor()
    await confirm.getByRole('button', { name: 'Delete token' }).click()
    await page.getByText('Token deleted').first().waitFor()
    await rowOf(page, 'e2e key').waitFor({ state: 'detached' })
    await context.close()

    // Root searches every user's keys by user ID and sees the owner.
    const admin = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signInToPanel(admin.page, SHARED_ROOT)
    await admin.page.goto('/panel/token')
    await admin.page.getByTestId('token-scope-all').click()
    await admin.page.getByPlaceholder('User ID').fill(String(userId))
    await admin.page.waitForURL((url) => url.searchParams.get('user_id') === String(userId))
    const owned = rowOf(admin.page, `${KEY_NAME}-2`)
    await owned.getByText(USERNAME).waitFor()
    await expect.poll(() => admin.page.locator('tbody tr').count()).toBe(1)
    await shot(admin.page, 'tokens-admin-light')
    await admin.context.close()
  })

  it('works at phone width', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: PHONE })
    await signInToPanel(page, { username: USERNAME, password: PASSWORD })
    await page.goto('/panel/token')
    await rowOf(page, `${KEY_NAME}-2`).waitFor()
    await expectNoOverflow(page)
    await shot(page, 'tokens-phone')
    await page.getByTestId('token-create').click()
    await page.getByTestId('token-dialog').getByRole('heading', { name: 'New token' }).waitFor()
    await page.getByTestId('token-dialog').getByRole('switch', { name: 'Never expires' }).click()
    await shot(page, 'tokens-dialog-phone')
    await context.close()
  })
})
