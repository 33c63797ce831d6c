/**
 * Plan auto-renew on Stripe end to end (issue 33): the real server (Worker on workerd) and the Stripe
 * mock of scripts/mock-payments.mjs. A user subscribes to a monthly plan with auto-renew, pays at the
 * mock's checkout (a subscription-mode session) and holds the subscription backed by the mock's
 * Stripe Subscription; the mock's cycle invoice, delivered three times, moves the expiry by exactly
 * one month, a cycle invoice of another amount moves nothing; the user's switch sets
 * cancel_at_period_end at the mock; the mock deleting the Subscription turns auto-renew off.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error plain ESM script without types
import { startServer } from '../../scripts/serve.mjs'
import { startMockPayments, type MockPayments } from '../../scripts/mock-payments.mjs'
import { ApiSession } from './support/api'
import { freshMigratedState } from '../../scripts/fresh-state'
import { expiryAfter } from '../plans/plan-duration'

interface Placed {
  trade_no: string
  type: 'redirect' | 'qr'
  data: { url: string }
}
interface Sub {
  id: number
  status: number
  expires_at: number
  auto_renew: boolean
  stripe_recurring: boolean
}

let server: { url: URL; mf: any; stop(): Promise<void> }
let persistDir: string
let mock: MockPayments
let base: string

beforeAll(async () => {
  persistDir = freshMigratedState('plan-renewal-e2e-')
  server = await startServer({ port: 0, persistDir, quiet: true, cron: false, build: false, vars: { CRITICAL_RATE_LIMIT: '100000' } })
  base = server.url.href.replace(/\/$/, '')
  mock = await startMockPayments({ port: 0 })
})

afterAll(async () => {
  await mock?.stop()
  await server?.stop()
  if (persistDir) rmSync(persistDir, { recursive: true, force: true })
})

async function hook(path: '/_stripe/cycle' | '/_stripe/delete', body: Record<string, unknown>) {
  const res = await fetch(`${mock.url}${path}`, { method: 'POST', body: JSON.stringify(body) })
  expect(res.status).toBe(200)
  return (await res.json()) as { invoice?: string; answers: { status: number; body: string }[] }
}

describe('Stripe auto-renew through the mock', () => {
  it('subscribes with auto-renew; a cycle invoice renews by one month once; the switch and the deletion stop it', async () => {
    const admin = new ApiSession(base)
    await admin.call('GET', '/api/status')
    await admin.ok('POST', '/api/setup', { username: 'renewroot', password: 'renew-root-password-1' })
    await admin.ok('PUT', '/api/option/', { options: { BudgetTimezone: 'UTC' } })
    const preset = mock.configs().stripe
    const gateway = await admin.ok<{ uuid: string }>('POST', '/api/payment/', { name: 'Mock Stripe', type: 'stripe', currency: preset.currency, config: preset.config })
    const plan = await admin.ok<{ id: number }>('POST', '/api/plan/', {
      name: 'Monthly',
      price: 12.5,
      duration_unit: 'month',
      windows: [{ period: 'day', requests: 100 }],
      published: true,
    })

    const user = new ApiSession(base)
    await user.call('GET', '/api/status')
    await user.ok('POST', '/api/user/register', { username: 'renewbuyer', password: 'renew-user-password-1' })
    await user.login('renewbuyer', 'renew-user-password-1')
    const placed = await user.ok<Placed>('POST', '/api/plan/subscribe', { plan_id: plan.id, uuid: gateway.uuid, auto_renew: true })
    expect(placed.type).toBe('redirect')

    // Pay like a person: the checkout page, then its Pay button.
    const cashier = await fetch(placed.data.url)
    const html = await cashier.text()
    expect(html).toContain('Total 12.50 USD')
    const action = /action="([^"]+)"/.exec(html)![1]!
    expect((await fetch(new URL(action, mock.url), { method: 'POST', redirect: 'manual' })).status).toBe(302)

    const [sub] = await user.ok<Sub[]>('GET', '/api/user/subscription')
    expect(sub).toMatchObject({ status: 1, auto_renew: true, stripe_recurring: true })
    const [recurring] = [...mock.stripeSubscriptions.values()]
    expect(recurring).toMatchObject({ status: 'active', cancel_at_period_end: false })

    // A cycle invoice of another amount renews nothing.
    const cheap = await hook('/_stripe/cycle', { subscription: recurring!.id, amount: 999 })
    expect(cheap.answers.map((a) => a.status)).toEqual([400])
    expect((await user.ok<Sub[]>('GET', '/api/user/subscription'))[0]!.expires_at).toBe(sub!.expires_at)

    // The cycle invoice, delivered three times: one month more, once.
    const cycle = await hook('/_stripe/cycle', { subscription: recurring!.id, repeat: 3 })
    expect(cycle.answers.map((a) => a.status)).toEqual([200, 200, 200])
    const [renewed] = await user.ok<Sub[]>('GET', '/api/user/subscription')
    expect(renewed!.expires_at).toBe(expiryAfter(sub!.expires_at, 'month', 1, 'UTC'))
    const orders = (await admin.ok<{ data: { plan_id: number; status: string; order_amount: number }[] }>('GET', '/api/payment/order?p=1')).data
    expect(orders.filter((o) => o.plan_id === plan.id && o.status === 'success')).toHaveLength(2)

    // The user's switch cancels at the period's end at Stripe, and back.
    expect((await user.ok<Sub>('PUT', `/api/user/subscription/${sub!.id}`, { auto_renew: false })).auto_renew).toBe(false)
    expect(mock.stripeSubscriptions.get(recurring!.id)!.cancel_at_period_end).toBe(true)
    expect((await user.ok<Sub>('PUT', `/api/user/subscription/${sub!.id}`, { auto_renew: true })).auto_renew).toBe(true)
    expect(mock.stripeSubscriptions.get(recurring!.id)!.cancel_at_period_end).toBe(false)

    // Stripe deletes the Subscription: auto-renew is off, the subscription runs to its expiry.
    expect((await hook('/_stripe/delete', { subscription: recurring!.id })).answers.map((a) => a.status)).toEqual([200])
    expect((await user.ok<Sub[]>('GET', '/api/user/subscription'))[0]).toMatchObject({ status: 1, auto_renew: false, stripe_recurring: false, expires_at: renewed!.expires_at })
    expect((await user.call('PUT', `/api/user/subscription/${sub!.id}`, { auto_renew: true })).status).toBe(409)
  }, 120_000)
})
