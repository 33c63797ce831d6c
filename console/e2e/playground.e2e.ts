/**
 * Chat playground against the real relay and the mock upstream (its `mock-slow` channel streams
 * the answer word by word): the answer grows in several steps and ends with the mock's sentence,
 * the call lands in the user's logs, a second turn carries the history, stop keeps a partial
 * answer, an upstream failure shows the relay's message as a toast, settings are validated,
 * clearing asks first. The public /playground (top-bar link when signed in, /login when not) with
 * the user's own key; Markdown and code blocks (sanitized, with copy) from a restored session.
 * Screenshots in light, dark and at phone width.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { relayFixture, type ApiSession } from '../../worker/e2e/support/api'
import { DESKTOP, PHONE, openPage, shot, expectNoOverflow } from './support/browser'
import { presetTheme, signIn } from './support/console'
import { useBrowser } from './support/suite'

const REPLY = 'Hello! This is the mock upstream answering your request.'
const suffix = Date.now().toString(36)
const MODEL = `pg-model-${suffix}`
const BROKEN = `pg-broken-${suffix}`
const username = `pg${suffix}`
const password = 'user-password-1'

interface LogRow {
  model_name: string
  token_name: string
  prompt_tokens: number
  completion_tokens: number
  is_stream: boolean
}

async function pickModel(page: Page, model: string) {
  await page.getByTestId('model-select').click()
  await page.getByRole('option', { name: model, exact: true }).click()
  await expect.poll(() => page.getByTestId('model-select').innerText()).toBe(model)
}

const lastAnswer = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]').last()

/** Records every length the last answer's text goes through (a MutationObserver in the page). */
async function recordGrowth(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __lengths: number[] }
    w.__lengths = []
    const observer = new MutationObserver(() => {
      const answers = document.querySelectorAll('[data-testid="chat-message"][data-role="assistant"]')
      const text = (answers[answers.length - 1]?.querySelector('.markdown-body')?.textContent ?? '').trim()
      if (w.__lengths[w.__lengths.length - 1] !== text.length) w.__lengths.push(text.length)
    })
    observer.observe(document.body, { subtree: true, childList: true, characterData: true })
  })
}

describe('playground', () => {
  const suite = useBrowser()
  let user: ApiSession

  beforeAll(async () => {
    const fx = await relayFixture({ model: MODEL, channelKey: 'mock-slow', username })
    user = fx.user
    // A model whose only channel always fails upstream.
    await fx.root.ok('POST', '/api/prices/single', { model: BROKEN, type: 'tokens', channel_type: 1, input: 0.1, output: 0.1 })
    await fx.root.ok('POST', '/api/channel/', {
      type: 8,
      name: `mock-broken-${suffix}`,
      key: 'mock-400',
      base_url: inject('mockUrl'),
      models: [BROKEN],
      group: ['default'],
    })
  })

  async function logsOf(model: string): Promise<LogRow[]> {
    return (await user.ok<{ data: LogRow[] }>('GET', `/api/log/self?model_name=${encodeURIComponent(model)}&page_size=50`)).data
  }

  it('streams answers through the relay, keeps the history, stops and reports errors', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, { username, password })
    await page.getByTestId('console-drawer').getByRole('link', { name: 'Playground' }).click()
    await page.waitForURL('**/panel/playground')
    await page.getByTestId('chat-empty').waitFor()

    // The hidden playground key is chosen by default; the model list comes from /v1/models with it.
    expect(await page.getByTestId('key-select').innerText()).toBe('Playground key (automatic)')
    await pickModel(page, MODEL)
    await shot(page, 'playground-empty-light')

    // Settings are validated before anything is sent.
    const settings = page.getByTestId('playground-settings')
    await settings.locator('input[name="max_tokens"]').fill('lots')
    await settings.getByText('Enter a whole number from 1 to 1,000,000, or leave it empty').waitFor()
    await page.getByTestId('chat-input').fill('Hi there')
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(true)
    await settings.locator('input[name="max_tokens"]').fill('256')
    await settings.locator('textarea[name="system"]').fill('You are a terse assistant.')

    await recordGrowth(page)
    await page.getByTestId('chat-input').press('Enter')
    await page.locator('[data-testid="chat-message"][data-role="user"]').getByText('Hi there').waitFor()
    await page.getByTestId('chat-stop').waitFor()
    await lastAnswer(page).and(page.locator('[data-status="done"]')).waitFor()
    expect((await lastAnswer(page).locator('.markdown-body').innerText()).trim()).toBe(REPLY)
    const lengths = await page.evaluate(() => (window as unknown as { __lengths: number[] }).__lengths.filter((n) => n > 0))
    expect(lengths.length, `answer lengths seen: ${lengths.join(', ')}`).toBeGreaterThan(2)
    expect(lengths[lengths.length - 1]).toBe(REPLY.length)
    expect(await page.getByTestId('chat-input').inputValue()).toBe('')

    // The call went through the relay: it is in the user's logs, streamed, on the playground key.
    await expect.poll(async () => (await logsOf(MODEL)).length, { timeout: 15_000 }).toBe(1)
    const [first] = await logsOf(MODEL)
    expect(first).toMatchObject({ model_name: MODEL, token_name: 'sys_playground', is_stream: true })

    // A second turn sends the conversation so far (more prompt tokens).
    await page.getByTestId('chat-input').fill('And a second question, please')
    await page.getByTestId('chat-send').click()
    await expect.poll(() => page.locator('[data-testid="chat-message"][data-status="done"]').count()).toBe(2)
    await expect.poll(async () => (await logsOf(MODEL)).length, { timeout: 15_000 }).toBe(2)
    const [second] = await logsOf(MODEL)
    expect(second!.prompt_tokens).toBeGreaterThan(first!.prompt_tokens + 4)
    await shot(page, 'playground-light')

    // Stop: the partial answer stays, marked as stopped. The stop button is pressed the moment the
    // first words show (from inside the page: the whole answer takes only a few hundred ms).
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        const answers = document.querySelectorAll('[data-testid="chat-message"][data-role="assistant"]')
        const last = answers[answers.length - 1]
        if (last?.getAttribute('data-status') !== 'streaming' || !last.querySelector('.markdown-body')?.textContent?.trim()) return
        observer.disconnect()
        document.querySelector<HTMLButtonElement>('[data-testid="chat-stop"]')?.click()
      })
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    })
    await page.getByTestId('chat-input').fill('Tell me a long story')
    await page.getByTestId('chat-send').click()
    await lastAnswer(page).and(page.locator('[data-status="stopped"]')).waitFor()
    await lastAnswer(page).getByText('Stopped').waitFor()
    const partial = (await lastAnswer(page).locator('.markdown-body').innerText()).trim()
    expect(partial.length).toBeGreaterThan(0)
    expect(partial.length).toBeLessThan(REPLY.length)
    expect(REPLY.startsWith(partial)).toBe(true)

    // An upstream failure: the relay's message as a toast, and noted under the turn.
    await pickModel(page, BROKEN)
    await page.getByTestId('chat-input').fill('This will fail')
    await page.getByTestId('chat-send').click()
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: /^Error: / })
    await toast.first().waitFor()
    const toastText = await toast.first().innerText()
    await lastAnswer(page).and(page.locator('[data-status="error"]')).waitFor()
    const inline = await lastAnswer(page).getByTestId('chat-error').innerText()
    expect(toastText.replace(/^Error: /, '').trim().length).toBeGreaterThan(0)
    expect(inline).toContain(toastText.replace(/^Error: /, '').trim())

    // Clearing asks first (once the toast over the page header has gone).
    await toast.first().waitFor({ state: 'detached' })
    await page.getByTestId('chat-clear').click()
    await page.getByRole('alertdialog').getByRole('button', { name: 'Clear conversation' }).click()
    await page.getByTestId('chat-empty').waitFor()
    await context.close()
  })

  it('public /playground: a top-bar link when signed in, /login when not, with the user’s own key', async () => {
    const anon = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await anon.page.goto('/playground')
    await anon.page.waitForURL('**/login')
    expect(await anon.page.getByTestId('public-links').getByRole('link', { name: 'Playground' }).count()).toBe(0)
    await anon.context.close()

    const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl') })
    await signIn(page, { username, password })
    await page.goto('/')
    await page.getByTestId('public-links').getByRole('link', { name: 'Playground' }).click()
    await page.waitForURL((url) => url.pathname === '/playground')
    await page.getByTestId('playground').waitFor()

    await page.getByTestId('key-select').click()
    await page.getByRole('option', { name: /e2e key/ }).click()
    await pickModel(page, MODEL)
    await page.getByTestId('chat-input').fill('Hello from the public page')
    await page.getByTestId('chat-input').press('Enter')
    await lastAnswer(page).and(page.locator('[data-status="done"]')).waitFor()
    expect((await lastAnswer(page).locator('.markdown-body').innerText()).trim()).toBe(REPLY)
    await expect.poll(async () => (await logsOf(MODEL)).map((l) => l.token_name), { timeout: 30_000 }).toContain('e2e key')
    await shot(page, 'playground-public-light')
    await context.close()
  })

  it('renders Markdown and code safely, in light, dark and at phone width', async () => {
    const markdown = [
      '## Palindromes',
      'A **palindrome** reads the same both ways:',
      '- racecar',
      '- level',
      '',
      '```python',
      'def is_palindrome(s: str) -> bool:',
      '    return s == s[::-1]',
      '```',
      '',
      '| word | palindrome |',
      '| --- | --- |',
      '| noon | yes |',
      '',
      '<img src="x" onerror="window.__xss = 1"> <script>window.__xss = 2</script>',
    ].join('\n')
    const saved = {
      messages: [
        { id: 'u1', role: 'user', content: 'How do I check for a palindrome in Python?' },
        { id: 'a1', role: 'assistant', content: markdown, status: 'done', model: MODEL, usage: { prompt_tokens: 12, completion_tokens: 48, total_tokens: 60 }, duration: 1800 },
      ],
    }
    for (const v of [
      { name: 'light', viewport: DESKTOP, theme: 'light' as const },
      { name: 'dark', viewport: DESKTOP, theme: 'dark' as const },
      { name: 'phone-light', viewport: PHONE, theme: 'light' as const },
      { name: 'phone-dark-zh', viewport: PHONE, theme: 'dark' as const, locale: 'zh-CN' },
    ]) {
      const { context, page } = await openPage(suite.browser, { baseURL: inject('gatewayUrl'), viewport: v.viewport, locale: 'locale' in v ? v.locale : undefined })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await presetTheme(page, v.theme)
      await signIn(page, { username, password })
      await page.evaluate((s) => sessionStorage.setItem('playground', JSON.stringify(s)), saved)
      await page.goto('/panel/playground')
      const answer = lastAnswer(page)
      await answer.getByRole('heading', { name: 'Palindromes' }).waitFor()
      await answer.locator('strong').getByText('palindrome').waitFor()
      const code = answer.getByTestId('code-block')
      expect(await code.locator('pre').innerText()).toContain('return s == s[::-1]')
      expect(await code.getByText('python').count()).toBe(1)
      expect(await answer.locator('table td').first().innerText()).toBe('noon')
      // Model output is sanitized: no handlers, no scripts.
      expect(await answer.locator('img[onerror], script').count()).toBe(0)
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()
      if (v.name === 'light') {
        await code.getByTestId('code-copy').click()
        await page.getByText('Copied successfully').first().waitFor()
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('def is_palindrome(s: str) -> bool:\n    return s == s[::-1]')
      }
      if (v.viewport === PHONE) {
        await page.getByTestId('open-settings').click()
        await page.getByTestId('settings-sheet').getByTestId('model-select').waitFor()
        await shot(page, `playground-settings-${v.name}`)
        await page.keyboard.press('Escape')
        await page.getByTestId('settings-sheet').waitFor({ state: 'detached' })
      }
      await expectNoOverflow(page)
      await shot(page, `playground-markdown-${v.name}`)
      await context.close()
    }
  })
})
