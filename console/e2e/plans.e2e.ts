/**
 * Subscription plans in the console (issue 33): root creates a plan through the editor (two windows,
 * a per-model item, an excluded "other models" line and a channel tag; empty fields refused on the page), sees it
 * in the table, publishes it with the row's switch, and grants it to a user through the grant
 * dialog; the user sees the plan's card on /panel/plans and the subscription under "My
 * subscriptions" with a bar per window; the users page shows the user's subscriptions, extends one
 * and finally revokes it. Screenshots of /panel/plans and the admin editor: light, dark, phone, zh_CN.
 * Buying a plan, on a private gateway with scripts/mock-payments.mjs: Subscribe on the card with
 * auto-renew, Stripe's checkout and back (the banner waits for the plan), the card's auto-renew
 * switch turned off (cancelled at Stripe's period end), then WeChat Pay's QR dialog, until the
 * per-user limit disables the button; the admin order list names the plan. Auto-renew switched on for
 * the WeChat Pay subscription: near its expiry the cron places a renewal order, "Renewal due" shows
 * on its card, and paying it through the QR dialog extends the subscription by a month.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHARED_ROOT, ApiSession, rootSession, userSession } from '../../worker/e2e/support/api'
import { startMockPayments, type MockPayments } from '../../scripts/mock-payments.mjs'
import { DESKTOP, PHONE, expectNoOverflow, openPage, shot } from './support/browser'
import { apiSession } from './support/billing'
import { openSignedIn, rowAction, rowOf, signInToPanel, type Look } from './support/console'
import { useBrowser, useFreshGateway } from './support/suite'

/** Polls with room for a busy machine (vitest's default is one second). */
const eventually = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 100 })

const suffix = Date.now().toString(36).slice(-6)
const PLAN = `Pro ${suffix}`
const SUBSCRIBER = { username: `pl${suffix}`, password: 'user-password-1' }
const LIGHT: Look = { name: 'light', viewport: DESKTOP, theme: 'light' }

interface Sub {
  id: number
  name: string
  status: number
  expires_at: number
}

interface PlanRow {
  id: number
  name: string
  published: boolean
  windows: { period: string; quota?: number; requests?: number }[]
  models: { pattern: string; quota?: number; requests?: number; excluded?: true }[]
  channel_tags: string[]
}

describe('subscription plans pages', () => {
  const suite = useBrowser()
  let root: ApiSession
  let userId = 0
  let planId = 0

  beforeAll(async () => {
    root = await rootSession()
    await root.ok('PUT', '/api/option/', { options: { DisplayInCurrencyEnabled: 'true', QuotaPerUnit: '500000' } })
    const user = await userSession(SUBSCRIBER.username, SUBSCRIBER.password)
    userId = (await user.ok<{ id: number }>('GET', '/api/user/self')).id
  })

  it('root creates a plan through the editor and sees it in the table', async () => {
    const { context, page } = await openSignedIn(suite.browser, root.base, LIGHT, SHARED_ROOT)
    await page.goto('/panel/plan-admin')
    await page.getByRole('heading', { name: 'Plan management', level: 1 }).waitFor()
    await page.getByTestId('plan-create').click()
    const dialog = page.getByTestId('plan-dialog')

    // Empty fields are refused on the page.
    await dialog.getByTestId('plan-save').click()
    await dialog.getByText('This field is required').first().waitFor()
    await dialog.getByText('Enter a number above 0').first().waitFor()

    await dialog.locator('input[name="name"]').fill(PLAN)
    await dialog.locator('input[name="price"]').fill('9.9')
    await dialog.locator('textarea[name="description"]').fill('For steady daily use.')
    // Window 1: 100 requests a day (the new form's row counts requests by default).
    await dialog.locator('input[name="windows.0.amount"]').fill('100')
    // Window 2: $20 of quota a month.
    await dialog.getByTestId('plan-add-window').click()
    await dialog.locator('button[name="windows.1.period"]').click()
    await page.getByRole('option', { name: 'Monthly' }).click()
    await dialog.locator('button[name="windows.1.kind"]').click()
    await page.getByRole('option', { name: 'Quota ($)' }).click()
    await dialog.locator('input[name="windows.1.amount"]').fill('20')
    // gpt-4o* at 10 requests per day, every other model not included.
    await dialog.getByTestId('plan-add-model').click()
    await dialog.locator('input[name="models.0.pattern"]').fill('gpt-4o*')
    await dialog.locator('input[name="models.0.amount"]').fill('10')
    await dialog.getByTestId('plan-add-model').click()
    await dialog.locator('input[name="models.1.pattern"]').fill('*')
    await dialog.locator('button[name="models.1.kind"]').click()
    await page.getByRole('option', { name: 'Not included' }).click()
    await expect(dialog.locator('input[name="models.1.amount"]').count()).resolves.toBe(0)
    await dialog.locator('input[name="max_per_user"]').fill('1')
    await dialog.locator('input[name="priority"]').fill('5')
    // The plan's traffic is limited to channels tagged premium.
    await dialog.getByTestId('plan-channel-tags-input').fill('premium')
    await dialog.getByTestId('plan-channel-tags-input').press('Enter')
    await dialog.getByRole('button', { name: 'Remove premium' }).waitFor()
    await dialog.getByTestId('plan-save').click()
    await dialog.waitFor({ state: 'hidden' })

    const row = rowOf(page, PLAN)
    await row.waitFor()
    expect(await row.innerText()).toContain('$9.90')
    expect(await row.innerText()).toContain('100 requests / day')
    expect(await row.innerText()).toContain('$20.00 / month')

    const plans = await root.ok<PlanRow[]>('GET', '/api/plan/')
    const plan = plans.find((p) => p.name === PLAN)!
    expect(plan).toMatchObject({
      published: false,
      windows: [
        { period: 'day', requests: 100 },
        { period: 'month', quota: 10_000_000 },
      ],
      models: [
        { pattern: 'gpt-4o*', requests: 10 },
        { pattern: '*', excluded: true },
      ],
      channel_tags: ['premium'],
    })
    planId = plan.id

    // Publish with the row's switch.
    await page.getByTestId(`plan-published-${planId}`).click()
    await eventually(async () => (await root.ok<PlanRow[]>('GET', '/api/plan/')).find((p) => p.id === planId)?.published).toBe(true)
    await shot(page, 'plans-admin-light')
    await context.close()
  })

  it('root grants the plan to a user through the grant dialog; the users page lists it', async () => {
    const { context, page } = await openSignedIn(suite.browser, root.base, LIGHT, SHARED_ROOT)
    await page.goto('/panel/plan-admin')
    await rowOf(page, PLAN).waitFor()
    await rowAction(page, rowOf(page, PLAN), 'Grant to user')
    const grant = page.getByTestId('plan-grant-dialog')
    await grant.locator('input[name="user_id"]').fill(String(userId))
    await grant.getByTestId('plan-grant-save').click()
    await grant.waitFor({ state: 'hidden' })
    await page.getByText('Plan granted').first().waitFor()

    await page.goto(`/panel/user?keyword=${SUBSCRIBER.username}`)
    const userRow = page.locator('tbody tr', { hasText: SUBSCRIBER.username })
    await rowAction(page, userRow, 'Subscriptions')
    const subs = page.getByTestId('user-subscriptions-dialog')
    await subs.getByTestId('subscription-card').filter({ hasText: PLAN }).waitFor()
    await subs.getByText('Active').first().waitFor()
    await shot(page, 'plans-user-subscriptions-light')

    // Extend by 2 months through the extend dialog: the expiry moves later.
    const before = (await root.ok<Sub[]>('GET', `/api/plan/subscriptions?user_id=${userId}`)).find((x) => x.name === PLAN)!
    await subs.getByRole('button', { name: `Extend ${PLAN}` }).click()
    const extend = page.getByTestId('subscription-extend-dialog')
    await extend.locator('input[name="duration_count"]').fill('2')
    await extend.getByRole('button', { name: 'Extend', exact: true }).click()
    await extend.waitFor({ state: 'hidden' })
    await eventually(async () => (await root.ok<Sub[]>('GET', `/api/plan/subscriptions?user_id=${userId}`)).find((x) => x.id === before.id)!.expires_at).toBeGreaterThan(
      before.expires_at
    )
    await context.close()
  })

  it('the user sees the plan card and the subscription under My subscriptions', async () => {
    const { context, page } = await openSignedIn(suite.browser, root.base, LIGHT, SUBSCRIBER)
    await page.goto('/panel/plans')
    await page.getByRole('heading', { name: 'Plans', level: 1 }).waitFor()
    const card = page.getByTestId('plan-card').filter({ hasText: PLAN })
    await card.waitFor()
    const text = await card.innerText()
    for (const part of [
      '$9.90',
      '1 month',
      '100 requests / day',
      '$20.00 / month',
      'gpt-4o*',
      '10 requests / day',
      'Other models',
      'not included',
      'Once per user',
      'Channels tagged premium only',
    ])
      expect(text).toContain(part)
    // Subscribing through a gateway is not offered.
    expect(await card.getByRole('button').count()).toBe(0)

    const mine = page.getByTestId('my-subscriptions').getByTestId('subscription-card').filter({ hasText: PLAN })
    await mine.waitFor()
    expect(await mine.getByTestId('subscription-window').count()).toBe(2)
    const mineText = await mine.innerText()
    for (const part of ['Active', 'Granted', 'Daily', '0 of 100 requests', 'Monthly', '$0.00 of $20.00', 'Resets at']) expect(mineText).toContain(part)
    await expectNoOverflow(page)
    await shot(page, 'plans-light')
    await context.close()
  })

  for (const look of [
    { name: 'plans-dark', viewport: DESKTOP, theme: 'dark' as const },
    { name: 'plans-zh', viewport: DESKTOP, theme: 'light' as const, locale: 'zh-CN' },
    { name: 'plans-phone-light', viewport: PHONE, theme: 'light' as const },
    { name: 'plans-phone-dark-zh', viewport: PHONE, theme: 'dark' as const, locale: 'zh-CN' },
  ]) {
    it(`renders ${look.name}: the user's plans page and the admin editor`, async () => {
      const user = await openSignedIn(suite.browser, root.base, look, SUBSCRIBER)
      await user.page.goto('/panel/plans')
      await user.page.getByTestId('plan-card').filter({ hasText: PLAN }).waitFor()
      await user.page.getByTestId('my-subscriptions').waitFor()
      await expectNoOverflow(user.page)
      await shot(user.page, look.name)
      await user.context.close()

      const admin = await openSignedIn(suite.browser, root.base, look, SHARED_ROOT)
      await admin.page.goto('/panel/plan-admin')
      await rowOf(admin.page, PLAN).waitFor()
      await expectNoOverflow(admin.page)
      await shot(admin.page, `${look.name}-admin`)
      await admin.page.getByTestId(`plan-actions-${planId}`).click()
      await admin.page.getByRole('menuitem').first().click()
      await admin.page.getByTestId('plan-dialog').waitFor()
      await shot(admin.page, `${look.name}-editor`)
      await admin.context.close()
    })
  }

  it('root revokes the subscription (no refund) from the users page', async () => {
    const { context, page } = await openSignedIn(suite.browser, root.base, LIGHT, SHARED_ROOT)
    await page.goto(`/panel/user?keyword=${SUBSCRIBER.username}`)
    await rowAction(page, page.locator('tbody tr', { hasText: SUBSCRIBER.username }), 'Subscriptions')
    const subs = page.getByTestId('user-subscriptions-dialog')
    await subs.getByRole('button', { name: `Revoke ${PLAN}` }).click()
    const revoke = page.getByTestId('subscription-revoke-dialog')
    await revoke.getByText('Refund to balance').waitFor()
    await revoke.getByRole('button', { name: 'Revoke', exact: true }).click()
    await revoke.waitFor({ state: 'hidden' })
    await subs.getByTestId('subscription-card').filter({ hasText: PLAN }).getByText('Revoked').waitFor()
    await eventually(async () => (await root.ok<Sub[]>('GET', `/api/plan/subscriptions?user_id=${userId}`)).find((x) => x.name === PLAN)?.status).toBe(3)
    await context.close()
  })
})

describe('buying a plan', () => {
  const admin = { username: 'planpayadmin', password: 'plan-pay-admin-1' }
  const buyer = { username: 'planpaybuyer', password: 'plan-pay-buyer-1' }
  const suite = useFreshGateway(admin)
  let mock: MockPayments
  let user: ApiSession
  const name = `Team ${suffix}`

  beforeAll(async () => {
    mock = await startMockPayments({ port: 0 })
    const root = await apiSession(suite.server.url, admin)
    await root.ok('PUT', '/api/option/', { options: { PaymentUSDRate: '7.3' } })
    await root.ok('POST', '/api/payment/', { name: 'Credit card', type: 'stripe', sort: 1, ...mock.configs().stripe })
    await root.ok('POST', '/api/payment/', { name: 'WeChat Pay', type: 'wxpay', sort: 2, ...mock.configs().wxpay })
    await root.ok('POST', '/api/plan/', { name, price: 12.5, duration_unit: 'month', windows: [{ period: 'day', requests: 100 }], max_per_user: 2, published: true })
    user = new ApiSession(suite.server.url)
    await user.call('GET', '/api/status')
    await user.ok('POST', '/api/user/register', buyer)
  })
  afterAll(async () => {
    await mock?.stop()
  })

  it('subscribes with Stripe and with WeChat Pay until the limit; the admin sees plan orders', async () => {
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, buyer)
    await page.goto('/panel/plans')
    const card = page.getByTestId('plan-card').filter({ hasText: name })
    await card.getByTestId('plan-subscribe').click()
    const dialog = page.getByTestId('subscribe-dialog')
    await eventually(() => dialog.getByTestId('gateway-choice').count()).toBe(2)
    await dialog.getByTestId('gateway-choice').filter({ hasText: 'Credit card' }).click()
    await dialog.getByTestId('subscribe-total').getByText('$12.50').waitFor()
    // Auto-renew through Stripe: a recurring charge every month.
    await dialog.getByTestId('subscribe-auto-renew').click()
    await dialog.getByText('Charged again every 1 month').waitFor()
    await shot(page, 'plans-subscribe-light')
    await dialog.getByTestId('subscribe-pay').click()
    await page.waitForURL(`${mock.url}/stripe/checkout/**`)
    await page.getByText('Total 12.50 USD').waitFor()
    await page.locator('#mock-pay').click()
    await page.waitForURL('**/panel/plans?trade_no=*')
    await page.getByTestId('payment-return-title').getByText('Payment received').waitFor({ timeout: 20_000 })
    await page.getByTestId('my-subscriptions').getByText(name).waitFor()
    // The card's switch is on; switching it off cancels the Stripe Subscription at the period's end.
    const [recurring] = [...mock.stripeSubscriptions.values()]
    const renewSwitch = page.getByTestId('my-subscriptions').getByRole('switch', { name: 'Auto-renew' })
    await eventually(() => renewSwitch.getAttribute('aria-checked')).toBe('true')
    await renewSwitch.click()
    await eventually(() => renewSwitch.getAttribute('aria-checked')).toBe('false')
    expect(mock.stripeSubscriptions.get(recurring!.id)!.cancel_at_period_end).toBe(true)

    await card.getByTestId('plan-subscribe').click()
    await dialog.getByTestId('gateway-choice').filter({ hasText: 'WeChat Pay' }).click()
    await dialog.getByTestId('subscribe-total').getByText('¥91.25').waitFor()
    await dialog.getByTestId('subscribe-pay').click()
    const qr = page.getByTestId('pay-qr-dialog')
    const url = (await qr.getByTestId('pay-qr').getAttribute('data-url'))!
    const id = new URL(url.replace('weixin://', 'http://')).searchParams.get('pr')
    expect((await fetch(`${mock.url}/wxpay/scan/${id}`, { method: 'POST' })).status).toBe(200)
    await qr.getByTestId('pay-success').waitFor({ timeout: 20_000 })
    await qr.getByText('Your plan has started.').waitFor()
    await qr.getByTestId('pay-qr-close').click()
    await eventually(() => page.getByTestId('my-subscriptions').getByTestId('subscription-card').count()).toBe(2)
    await eventually(() => card.getByTestId('plan-subscribe').isDisabled()).toBe(true)
    await context.close()

    const orders = await openSignedIn(suite.browser, suite.server.url, LIGHT, admin)
    await orders.page.goto('/panel/payment')
    await eventually(() =>
      orders.page
        .getByTestId('order-plan')
        .filter({ hasText: `Plan: ${name}` })
        .count()
    ).toBe(2)
    await shot(orders.page, 'payment-plan-orders-light')
    await orders.context.close()
  }, 180_000)

  it('auto-renew on the WeChat Pay subscription: the cron places its renewal order, Pay renewal extends it', async () => {
    await user.login(buyer.username, buyer.password)
    const subs = await user.ok<(Sub & { auto_renew: boolean; stripe_recurring: boolean })[]>('GET', '/api/user/subscription')
    const wechat = subs.find((s) => !s.stripe_recurring)!
    const { context, page } = await openPage(suite.browser, { baseURL: suite.server.url })
    await signInToPanel(page, buyer)
    await page.goto('/panel/plans')
    // Bought without auto-renew; switched on from its card.
    expect(wechat.auto_renew).toBe(false)
    const renewSwitch = page.getByTestId(`subscription-auto-renew-${wechat.id}`)
    await eventually(() => renewSwitch.getAttribute('aria-checked')).toBe('false')
    await renewSwitch.click()
    await eventually(() => renewSwitch.getAttribute('aria-checked')).toBe('true')

    // Two days before its expiry, the cron places the renewal order.
    const db = await suite.server.mf.getD1Database('DB')
    await db
      .prepare('UPDATE subscriptions SET expires_at = ? WHERE id = ?')
      .bind(Date.now() + 2 * 86_400_000, wechat.id)
      .run()
    const due = (await db.prepare('SELECT expires_at FROM subscriptions WHERE id = ?').bind(wechat.id).first()) as { expires_at: number }
    await (await suite.server.mf.getWorker()).scheduled({ cron: '*/5 * * * *', scheduledTime: new Date() })
    await page.reload()
    const card = page.getByTestId('subscription-card').filter({ has: page.getByTestId(`subscription-auto-renew-${wechat.id}`) })
    const notice = card.getByTestId('renewal-due')
    await notice.getByText('Renewal due: ¥91.25 through WeChat Pay').waitFor()
    await shot(page, 'plans-renewal-due-light')

    await notice.getByTestId('renewal-pay').click()
    const qr = page.getByTestId('pay-qr-dialog')
    const url = (await qr.getByTestId('pay-qr').getAttribute('data-url'))!
    const id = new URL(url.replace('weixin://', 'http://')).searchParams.get('pr')
    expect((await fetch(`${mock.url}/wxpay/scan/${id}`, { method: 'POST' })).status).toBe(200)
    await qr.getByTestId('pay-success').waitFor({ timeout: 20_000 })
    await qr.getByTestId('pay-qr-close').click()
    await eventually(() => notice.count()).toBe(0)
    const after = (await user.ok<Sub[]>('GET', '/api/user/subscription')).find((s) => s.id === wechat.id)!
    expect(after.expires_at).toBeGreaterThan(due.expires_at + 27 * 86_400_000)
    await context.close()
  }, 120_000)
})
