/**
 * Payments in Chromium against a private gateway and scripts/mock-payments.mjs: an administrator
 * creates a Stripe gateway through the gateway sheet (secrets write-only, the notify URL shown with
 * a copy button); a user tops up with Stripe (the mock's checkout page, back to /panel/topup, the
 * banner waits for the server's credit) and with WeChat Pay (the QR dialog polls until the mock
 * "scans" and pays); the admin order list shows both with filters. Screenshots in light, dark,
 * phone width and zh_CN.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiSession } from '../../worker/e2e/support/api'
import { startMockPayments, type MockPayments } from '../../scripts/mock-payments.mjs'
import { DESKTOP, openPage, shot, expectNoOverflow } from './support/browser'
import { apiSession } from './support/billing'
import { signInToPanel, LOOKS, openSignedIn } from './support/console'
import { useFreshGateway } from './support/suite'

const admin = { username: 'payadmin', password: 'pay-admin-password-1' }
const member = { username: 'paymember', password: 'pay-member-password-1' }
/** Browser steps on a busy two-core machine: each test gets two minutes. */
const SLOW = 120_000

describe('payments console', () => {
  const suite = useFreshGateway(admin)
  let mock: MockPayments
  let root: ApiSession
  let user: ApiSession

  beforeAll(async () => {
    mock = await startMockPayments({ port: 0 })
    root = await apiSession(suite.server.url, admin)
    await root.ok('PUT', '/api/option/', { options: { RechargeDiscount: '{"10":1,"20":0.95,"100":0.9}', PaymentUSDRate: '7.3' } })
    user = new ApiSession(suite.server.url)
    await user.call('GET', '/api/status')
    await user.ok('POST', '/api/user/register', member)
    await user.login(member.username, member.password)
  })
  afterAll(async () => {
    await mock?.stop()
  })

  it(
    'creates a Stripe gateway in the sheet, with write-only secrets and the notify URL',
    async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await signInToPanel(page, admin)
      await page.getByRole('link', { name: 'Payment' }).first().click()
      await page.waitForURL('**/panel/payment')
      await page.getByTestId('tab-gateways').click()
      await page.getByText('No payment gateway yet').waitFor()
      await page.getByTestId('gateway-create').click()
      const sheet = page.getByTestId('gateway-sheet')
      await sheet.locator('input[name="name"]').fill('Credit card')
      await sheet.getByTestId('config-secret_key').fill(mock.configs().stripe.config.secret_key!)
      await sheet.getByTestId('config-api_base').fill(mock.url)
      await sheet.locator('input[name="sort"]').fill('1')
      // The icon is required (console spec 5.8): the top-up page shows it.
      await sheet.getByTestId('gateway-submit').click()
      await sheet.getByText('An icon URL is required').waitFor()
      await sheet.locator('input[name="icon"]').fill(`${mock.url}/card.png`)
      await shot(page, 'payment-gateway-sheet-light')
      await sheet.getByTestId('gateway-submit').click()
      await page.getByText('Gateway created').waitFor()
      // As a person would, wait for the create sheet to slide away before opening the row's edit
      // sheet: a click during its exit animation races its focus return against the new sheet.
      await sheet.waitFor({ state: 'hidden' })
      const row = page.getByTestId('gateway-row').filter({ hasText: 'Credit card' })
      await row.waitFor()
      // Stripe's webhook endpoint was registered at the mock for this gateway's notify URL.
      const detail = (await root.ok<{ data: { id: number; notify_url: string }[] }>('GET', '/api/payment/')).data[0]!
      expect(detail.notify_url).toMatch(new RegExp(`^${suite.server.url}/api/payment/notify/[0-9a-f]{32}$`))

      await row.getByTestId('gateway-edit').click()
      await expect.poll(() => sheet.getByTestId('gateway-notify-url').inputValue(), { timeout: 15_000 }).toBe(detail.notify_url)
      expect(await sheet.getByTestId('config-secret_key').inputValue()).toBe('')
      expect(await sheet.getByTestId('config-secret_key').getAttribute('placeholder')).toBe('Stored — leave empty to keep')
      expect(await sheet.getByTestId('config-webhook_secret').getAttribute('placeholder')).toBe('Stored — leave empty to keep')
      await sheet.getByTestId('gateway-submit').click()
      await page.getByText('Gateway saved').waitFor()
      // Saving with empty secrets kept them: the gateway still creates checkout sessions.
      const gateway = await root.ok<{ config_set: Record<string, boolean> }>('GET', `/api/payment/${detail.id}`)
      expect(gateway.config_set).toEqual({ secret_key: true, webhook_secret: true })
      await shot(page, 'payment-gateways-light')
      await context.close()
    },
    SLOW
  )

  it(
    'tops up with Stripe: checkout at the gateway, back to the console, credited once',
    async () => {
      // The WeChat Pay gateway for the next test, through the API.
      const wx = mock.configs().wxpay
      await root.ok('POST', '/api/payment/', { name: 'WeChat Pay', type: 'wxpay', currency: 'CNY', sort: 2, percent_fee: 0.01, config: wx.config })
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
      await signInToPanel(page, member)
      await page.goto('/panel/topup')
      const card = page.getByTestId('online-topup')
      await card.waitFor()
      await expect.poll(() => page.getByTestId('gateway-choice').count(), { timeout: 15_000 }).toBe(2)
      await card.getByTestId('quick-20').click()
      await card.getByTestId('gateway-choice').filter({ hasText: 'Credit card' }).click()
      // $20 at 0.95 → $19.00.
      await card.getByTestId('topup-total').getByText('$19.00').waitFor()
      await card.getByTestId('topup-amount').fill('0')
      await card.getByTestId('topup-amount-error').waitFor()
      await card.getByTestId('topup-amount').fill('20')
      await card.getByTestId('topup-total').getByText('$19.00').waitFor()
      await shot(page, 'topup-online-light')
      await card.getByTestId('topup-pay').click()
      await page.waitForURL(`${mock.url}/stripe/checkout/**`)
      await page.getByText('Total 19.00 USD').waitFor()
      await page.locator('#mock-pay').click()
      await page.waitForURL('**/panel/topup?trade_no=*')
      await page.getByTestId('payment-return-title').getByText('Payment received').waitFor()
      await page.getByTestId('topup-balance').getByText('$20.00').waitFor()
      await page.getByTestId('order-history').getByText('Paid').first().waitFor()
      await shot(page, 'topup-stripe-returned-light')
      expect((await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(10_000_000)
      await context.close()
    },
    SLOW
  )

  it(
    'tops up with WeChat Pay: the QR dialog waits for the payment and shows the new balance',
    async () => {
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
      await signInToPanel(page, member)
      await page.goto('/panel/topup')
      const card = page.getByTestId('online-topup')
      await card.getByTestId('gateway-choice').filter({ hasText: 'WeChat Pay' }).click()
      await card.getByTestId('quick-100').click()
      // $100 at 0.9 → $90 + 1 % fee $0.90 = $90.90 → ¥663.57.
      await card.getByTestId('topup-total').getByText('¥663.57').waitFor()
      await card.getByTestId('topup-pay').click()
      const dialog = page.getByTestId('pay-qr-dialog')
      await dialog.getByText('Waiting for the payment').waitFor()
      const url = (await dialog.getByTestId('pay-qr').getAttribute('data-url'))!
      expect(url).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/)
      await shot(page, 'topup-wechat-qr-light')
      // The phone scans and pays.
      const id = new URL(url.replace('weixin://', 'http://')).searchParams.get('pr')
      expect((await fetch(`${mock.url}/wxpay/scan/${id}`, { method: 'POST' })).status).toBe(200)
      await dialog.getByTestId('pay-success').waitFor({ timeout: 15_000 })
      await dialog.getByTestId('pay-new-balance').getByText('$120.00').waitFor()
      await shot(page, 'topup-wechat-paid-light')
      await dialog.getByTestId('pay-qr-close').click()
      await page.getByTestId('topup-balance').getByText('$120.00').waitFor()
      expect((await user.ok<{ quota: number }>('GET', '/api/user/self')).quota).toBe(60_000_000)
      await context.close()
    },
    SLOW
  )

  it(
    'lists the orders for the administrator, filtered by status',
    async () => {
      // One unpaid order too.
      const gateways = await user.ok<{ uuid: string; type: string }[]>('GET', '/api/user/payment')
      await user.ok('POST', '/api/user/order', { uuid: gateways.find((g) => g.type === 'stripe')!.uuid, amount: 5 })
      const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
      await signInToPanel(page, admin)
      await page.goto('/panel/payment')
      await expect.poll(() => page.getByTestId('order-status').count(), { timeout: 15_000 }).toBe(3)
      await page.getByTestId('order-money').getByText('¥663.57').waitFor()
      await page.getByTestId('order-money').getByText('$19.00').waitFor()
      await page.getByTestId('order-status-filter').click()
      await page.getByRole('option', { name: 'Pending' }).click()
      await page.waitForURL('**/panel/payment?status=pending')
      await expect.poll(() => page.getByTestId('order-status').count(), { timeout: 15_000 }).toBe(1)
      await page.goto('/panel/payment')
      await expect.poll(() => page.getByTestId('order-status').count(), { timeout: 15_000 }).toBe(3)
      await shot(page, 'payment-orders-light')
      await context.close()
    },
    SLOW
  )

  for (const v of [...LOOKS, { name: 'zh_CN', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' }]) {
    it(
      `looks right: ${v.name}`,
      async () => {
        for (const [who, path, ready, name] of [
          [admin, '/panel/payment', 'order-status', 'payment-orders'],
          [admin, '/panel/payment?tab=gateways', 'gateway-row', 'payment-gateways'],
          [member, '/panel/topup', 'topup-total', 'topup-online'],
        ] as const) {
          const { context, page } = await openSignedIn(suite.browser, suite.server.url, v, who)
          await page.goto(path)
          await page.getByTestId(ready).first().waitFor()
          await expectNoOverflow(page)
          await shot(page, `${name}-${v.name}`)
          if (name === 'payment-gateways') {
            await page.getByTestId('gateway-edit').first().click()
            await page.getByTestId('gateway-notify-url').waitFor()
            await shot(page, `payment-gateway-sheet-${v.name}`)
          }
          await context.close()
        }
      },
      SLOW
    )
  }
})
