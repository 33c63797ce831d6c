/**
 * The first ten minutes on a fresh gateway, as the README tells them: root is created at /setup
 * (which explains root's starting balance); the empty states guide the newcomer (dashboard without
 * a channel, tokens without a key, playground with an unpriced model — screenshots in Chinese,
 * light, dark and phone); then the README's "Try the relay offline" runs as written: its mock
 * command, its console steps through Chromium, and its curl command answering with content.
 * The tests share one fresh server and run in order.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useFreshGateway } from './support/suite'

const root = path.resolve(import.meta.dirname, '../..')
const account = { username: 'newcomer', password: 'first-ten-minutes-1' }
const UNPRICED = 'mock-unpriced-model'

/** The README's "Try the relay offline" section: its two shell blocks and the console steps between them. */
function readmeTrial() {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8')
  const start = readme.indexOf('### Try the relay offline')
  expect(start).toBeGreaterThan(0)
  const section = readme.slice(start, readme.indexOf('\n## ', start))
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
  expect(blocks).toHaveLength(2)
  const prose = section.slice(section.indexOf('```', section.indexOf('```sh') + 5) + 3, section.lastIndexOf('```sh'))
  const step = (re: RegExp) => {
    const found = prose.replace(/\s+/g, ' ').match(re)
    if (!found) throw new Error(`README step not found: ${re}`)
    return found[1]!
  }
  return {
    mockCommand: blocks[0]!.split('#')[0]!.trim(),
    curl: blocks[1]!,
    channelType: step(/channel of type "([^"]+)"/),
    baseUrl: step(/base URL `([^`]+)`/),
    model: step(/the model `([^`]+)`/),
  }
}

/** Runs the README's mock command on a free port (3999 may be taken on a shared machine). */
async function startReadmeMock(command: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn('sh', ['-c', command], { cwd: root, env: { ...process.env, PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const found = out.match(/Mock upstream on (http:\/\/127\.0\.0\.1:\d+)/)
      if (found) resolve(found[1]!)
    })
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out}`)))
  })
  return { url, child }
}

describe('the first ten minutes', () => {
  const suite = useFreshGateway()
  let mock: ChildProcess | undefined
  afterAll(() => {
    if (mock?.pid) process.kill(-mock.pid, 'SIGTERM')
  })

  it('asks a visitor from another machine for the setup code, and refuses without one', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    // What the runtime reports for a client elsewhere (Cloudflare's edge sets this header).
    await context.setExtraHTTPHeaders({ 'CF-Connecting-IP': '203.0.113.9' })
    await page.goto('/setup?code=guess-1')
    const code = page.getByTestId('setup-code')
    await code.waitFor()
    expect(await code.inputValue()).toBe('guess-1')
    await page.locator('input[name="username"]').fill('intruder')
    await page.locator('input[name="password"]').fill('intruder-pass-1')
    await page.locator('input[name="confirm_password"]').fill('intruder-pass-1')
    await page.getByRole('button', { name: /create administrator/i }).click()
    // This server has no SETUP_CODE, so no code can work from elsewhere.
    await page
      .getByText(/wrangler secret put SETUP_CODE/)
      .first()
      .waitFor()
    await shot(page, 'setup-code-refused-light')
    expect(page.url()).toContain('/setup')
    await context.close()
  })

  it('creates root at /setup, which explains the starting balance', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await page.goto('/')
    await page.waitForURL('**/setup')
    // From this machine no setup code is asked for.
    expect(await page.getByTestId('setup-code').count()).toBe(0)
    await page
      .getByTestId('setup-balance-note')
      .getByText(/100,000,000 units \(\$200\.00\).*adjust it in Users/)
      .waitFor()
    await page.locator('input[name="username"]').fill(account.username)
    await page.locator('input[name="password"]').fill(account.password)
    await page.locator('input[name="confirm_password"]').fill(account.password)
    await page.getByRole('button', { name: /create administrator/i }).click()
    await page.waitForURL('**/panel/dashboard')
    await context.close()
  })

  const variants = [
    { name: 'light', theme: 'light', viewport: DESKTOP },
    { name: 'dark', theme: 'dark', viewport: DESKTOP },
    { name: 'phone', theme: 'light', viewport: PHONE },
  ] as const

  async function openAs(variant: (typeof variants)[number]): Promise<Page> {
    const { page } = await openPage(suite.browser, { baseURL: suite.server.url, viewport: variant.viewport, locale: 'zh-CN' })
    await presetTheme(page, variant.theme)
    await signIn(page, account)
    // A fresh load: the sign-in toast does not cover the screenshots.
    await page.reload()
    return page
  }

  it('guides from an empty dashboard and an empty token list (zh_CN screenshots)', async () => {
    for (const variant of variants) {
      const page = await openAs(variant)
      const start = page.getByTestId('getting-started')
      await start.getByText('添加一个渠道，完成第一次调用').waitFor()
      await start.getByText('npm run mock-upstream').waitFor()
      await shot(page, `first-run-dashboard-zh-${variant.name}`)

      if (variant.name === 'light') {
        // The link opens the channel sheet prefilled for the local mock, and leaves the URL clean.
        await page.getByTestId('start-local-mock').click()
        const sheet = page.getByTestId('channel-sheet')
        await sheet.waitFor()
        expect(await sheet.locator('input[name="base_url"]').inputValue()).toBe('http://127.0.0.1:3999')
        expect(await sheet.getByTestId('channel-type').innerText()).toContain('Custom (OpenAI-compatible)')
        await sheet.getByText('gpt-4o-mini', { exact: true }).first().waitFor()
        await page.waitForURL((url) => url.pathname === '/panel/channel' && !url.searchParams.has('create'))
        await page.keyboard.press('Escape')
        await sheet.waitFor({ state: 'detached' })
      }

      await page.goto('/panel/token')
      const empty = page.getByTestId('tokens-empty')
      await empty.getByText('还没有令牌').waitFor()
      await empty.getByText(`${suite.server.url}/v1`).waitFor()
      await shot(page, `first-run-tokens-zh-${variant.name}`)
      if (variant.name === 'light') {
        await page.getByTestId('token-create-first').click()
        await page.getByTestId('token-dialog').waitFor()
      }
      await page.context().close()
    }
  })

  it('explains an unpriced model in the playground, with a link to the pricing editor (zh_CN screenshots)', async () => {
    const api = new ApiSession(suite.server.url)
    await api.login(account.username, account.password)
    const [channel] = await api.ok<{ id: number }[]>('POST', '/api/channel/', {
      type: 8,
      name: 'unpriced',
      key: 'sk-mock',
      base_url: 'http://127.0.0.1:9',
      models: [UNPRICED],
      group: ['default'],
    })
    for (const variant of variants) {
      const page = await openAs(variant)
      await page.goto('/panel/playground')
      const alert = page.getByTestId('playground-unpriced')
      await alert.getByText(`${UNPRICED} 还没有设置价格`).waitFor()
      await shot(page, `first-run-playground-zh-${variant.name}`)
      if (variant.name === 'light') {
        await alert.getByTestId('playground-pricing-link').click()
        await page.waitForURL('**/panel/pricing')
        await page.getByTestId('unpriced-alert').getByText(UNPRICED).waitFor()
      }
      await page.context().close()
    }
    await api.ok('DELETE', `/api/channel/${channel!.id}`)
  })

  it('runs the README\'s "Try the relay offline" as written', async () => {
    const trial = readmeTrial()
    expect(trial.mockCommand).toBe('npm run mock-upstream')
    const started = await startReadmeMock(trial.mockCommand)
    mock = started.child
    // The README names the mock's default address; this run's mock listens on a free port.
    const baseUrl = trial.baseUrl.replace(/:\d+$/, `:${new URL(started.url).port}`)

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signIn(page, account)
    // "add a channel of type … with base URL …, any key and the model …"
    await page.getByRole('link', { name: 'Channels' }).click()
    await page.getByTestId('channel-create').click()
    const sheet = page.getByTestId('channel-sheet')
    await sheet.getByTestId('channel-type').click()
    await page.getByRole('option', { name: trial.channelType }).click()
    await sheet.locator('input[name="name"]').fill('readme mock')
    await sheet.locator('input[name="base_url"]').fill(baseUrl)
    await sheet.locator('textarea[name="key"]').fill('any-key')
    const models = sheet.getByTestId('channel-models-input')
    await models.fill(trial.model)
    await models.press('Enter')
    await sheet.getByTestId('channel-submit').click()
    await page.getByText('Channel created').first().waitFor()

    // "check its price under Pricing": the built-in table prices it.
    await page.getByRole('link', { name: 'Pricing' }).click()
    await page.getByRole('textbox', { name: 'Search models…' }).fill(trial.model)
    await page
      .getByRole('row')
      .filter({ has: page.getByText(trial.model, { exact: true }) })
      .waitFor()

    // "create an API key"
    await page.getByRole('link', { name: 'Tokens' }).click()
    await page.getByTestId('token-create').click()
    const dialog = page.getByTestId('token-dialog')
    await dialog.locator('input[name="name"]').fill('readme key')
    await dialog.getByTestId('token-submit').click()
    const key = await page.getByTestId('token-created-key').inputValue()
    await context.close()

    // "then" the README's curl, with this server's address and the new key.
    expect(trial.curl).toContain('http://localhost:8787')
    expect(trial.curl).toContain('sk-…')
    const command = trial.curl.replace('http://localhost:8787', suite.server.url).replace('sk-…', key)
    const { stdout } = await promisify(execFile)('sh', ['-c', command], { cwd: root, timeout: 30_000 })
    const reply = JSON.parse(stdout) as { choices?: { message: { content: string } }[]; error?: unknown }
    expect(reply.error).toBeUndefined()
    expect(reply.choices?.[0]?.message.content).toMatch(/\S/)
  })
})
