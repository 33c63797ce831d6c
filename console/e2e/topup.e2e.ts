/**
 * Top-up page: the balance, redeeming a code (the balance changes on screen, a used or unknown
 * code is refused), 'Admin setup required!' until a top-up link is configured, and the invite card
 * (link with the user's code, copy, people invited). Screenshots in light, dark and at phone width.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiSession } from '../../worker/e2e/support/api'
import { openPage, shot, expectNoOverflow } from './support/browser'
import { apiSession } from './support/billing'
import { signInToPanel, LOOKS, openSignedIn } from './support/console'
import { useFreshGateway } from './support/suite'

const admin = { username: 'topupadmin', password: 'topup-admin-1' }
const member = { username: 'topupuser', password: 'topup-user-1' }

describe('top-up page', () => {
  const suite = useFreshGateway(admin)
  let root: ApiSession
  let user: ApiSession

  beforeAll(async () => {
    root = await apiSession(suite.server.url, admin)
    user = new ApiSession(suite.server.url)
    await user.call('GET', '/api/status')
    await user.ok('POST', '/api/user/register', member)
    await user.login(member.username, member.password)
  })

  const newCode = async (quota: number) => (await root.ok<string[]>('POST', '/api/redemption/', { name: 'e2e top-up', quota, count: 1 }))[0]!

  it('redeems a code and the balance changes on screen', async () => {
    const code = await newCode(1_000_000) // $2.00 at 500,000 units per dollar
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, member)
    await page.getByRole('link', { name: 'Top up' }).first().click()
    await page.waitForURL('**/panel/topup')
    const balance = page.getByTestId('topup-balance')
    await balance.getByText('$0.00').waitFor()
    await page.getByTestId('buy-codes-missing').getByText('Admin setup required!').waitFor()
    await shot(page, 'topup-light')

    await page.getByTestId('redeem-submit').click()
    await page.getByText('Please enter a redemption code').waitFor()
    const input = page.locator('input[name="key"]')
    await input.fill('not-a-real-code')
    await page.getByTestId('redeem-submit').click()
    await page.getByText('Error: Invalid or already used redemption code').waitFor()

    await input.fill(code)
    await page.getByTestId('redeem-submit').click()
    await page.getByText('Top up successful: $2.00 added').waitFor()
    await balance.getByText('$2.00').waitFor()
    expect(await input.inputValue()).toBe('')
    expect((await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(1_000_000)

    // The same code cannot be redeemed twice.
    await input.fill(code)
    await page.getByTestId('redeem-submit').click()
    await page.getByText('Error: Invalid or already used redemption code').first().waitFor()
    await balance.getByText('$2.00').waitFor()
    await context.close()
  })

  it('shows the buy link once configured and the invite card', async () => {
    await root.ok('PUT', '/api/option/', { options: { TopUpLink: 'https://shop.example.com/codes' } })
    const affCode = await user.ok<string>('GET', '/api/user/aff')
    // Someone registers with the invite code.
    const friend = new ApiSession(suite.server.url)
    await friend.call('GET', '/api/status')
    await friend.ok('POST', '/api/user/register', { username: 'invitedfriend', password: 'friend-pass-1', aff_code: affCode })

    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signInToPanel(page, member)
    await page.goto('/panel/topup')
    const buy = page.getByTestId('buy-codes')
    await buy.waitFor()
    expect(await buy.getAttribute('href')).toBe('https://shop.example.com/codes')
    expect(await buy.getAttribute('target')).toBe('_blank')

    const link = page.getByTestId('invite-link')
    await expect.poll(() => link.inputValue()).toBe(`${suite.server.url}/register?aff=${affCode}`)
    await page.getByTestId('invite-count').getByText('1', { exact: true }).waitFor()
    await page.getByTestId('invite-copy').click()
    await page.getByText('Copied successfully').waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${suite.server.url}/register?aff=${affCode}`)

    // The invite link opens registration with the code filled in.
    await page.goto(`/register?aff=${affCode}`)
    expect(await page.locator('input[name="aff_code"]').inputValue()).toBe(affCode)
    await context.close()
  })

  for (const v of LOOKS) {
    it(`looks right: ${v.name}`, async () => {
      const { context, page } = await openSignedIn(suite.browser, suite.server.url, v, member)
      await page.goto('/panel/topup')
      await page.getByTestId('invite-link').waitFor()
      await expectNoOverflow(page)
      await shot(page, `topup-${v.name}`)
      await context.close()
    })
  }
})
