/**
 * Subscription plans through the real relay (issue 33): 200 parallel chat requests on a plan whose
 * window covers 50 — exactly 50 rows name the subscription and the rest draw from the balance (or,
 * when the plan forbids the fallback, are refused with 429 plan_quota_exceeded and Retry-After),
 * with Σ log quota exact on both sides; and a user holding a subscription gets no credit lease (the
 * isolate asks once, then sends requests the exact way, where the plan covers them).
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createSubscription, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { UserWallet } from '../wallet/user-wallet'
import type { WalletStore } from '../wallet/wallet-store'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
  await createChannel({ key: 'good', models: 'gpt-4o' })
})
afterEach(() => upstream.restore())

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 7 }
const CHAT_COST = 12 * 2 + 7 * 4

async function rowsBySubscription(userId: number) {
  const r = await env.DB.prepare('SELECT subscription_id AS sub, COUNT(*) AS n, SUM(quota) AS q FROM logs WHERE user_id = ? AND type = 2 GROUP BY subscription_id')
    .bind(userId)
    .all<{ sub: number; n: number; q: number }>()
  return Object.fromEntries(r.results.map((x) => [x.sub, { n: x.n, q: x.q }]))
}

describe('200 parallel relay requests on a plan window that covers 50', () => {
  it('with the balance fallback: 50 rows name the subscription, 150 draw from the balance, Σ exact', async () => {
    await setOptions({ MaxUserOpenRequests: '0' })
    const balance = 1_000 * CHAT_COST
    const user = await createUser({ quota: balance })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, {
      windows: [
        { period: 'day', requests: 50 },
        { period: 'month', quota: 100 * CHAT_COST },
      ],
    })
    const results = await Promise.all(Array.from({ length: 200 }, () => send('/v1/chat/completions', { key: token.key, json: chat })))
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([])
    const l = await ledger(user.id)
    expect(await rowsBySubscription(user.id)).toEqual({ [sub]: { n: 50, q: 50 * CHAT_COST }, 0: { n: 150, q: 150 * CHAT_COST } })
    expect(balance - l.quota).toBe(150 * CHAT_COST)
    expect(l.loggedQuota).toBe(200 * CHAT_COST)
    const use = (await wallet(user.id).planUse({ userId: user.id, tz: 'UTC' }))[sub]!
    expect(use.map((w) => w.used)).toEqual([50, 50 * CHAT_COST])
    expect((await wallet(user.id).balance({ userId: user.id }))!).toMatchObject({ quota: l.quota, reserved: 0, pendingLogs: 0 })
  }, 60_000)

  it('without it: 50 served from the plan, 150 refused with 429 plan_quota_exceeded and Retry-After, the balance untouched', async () => {
    await setOptions({ MaxUserOpenRequests: '0' })
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 50 }], allow_balance_fallback: false })
    const results = await Promise.all(Array.from({ length: 200 }, () => send('/v1/chat/completions', { key: token.key, json: chat })))
    const refused = results.filter((r) => r.status !== 200)
    expect(refused).toHaveLength(150)
    for (const r of refused) {
      expect(r.status).toBe(429)
      expect(r.json.error.code).toBe('plan_quota_exceeded')
      const retry = Number(r.headers.get('retry-after'))
      expect(retry).toBeGreaterThan(0)
      expect(retry).toBeLessThanOrEqual(86_400)
    }
    const l = await ledger(user.id)
    expect(l.quota).toBe(1_000 * CHAT_COST)
    expect(await rowsBySubscription(user.id)).toEqual({ [sub]: { n: 50, q: 50 * CHAT_COST } })
    // The Anthropic inbound format renders the same refusal in its own envelope.
    const claude = await send('/v1/messages', { key: token.key, json: { model: 'gpt-4o', max_tokens: 7, messages: [{ role: 'user', content: 'hi' }] } })
    expect(claude.status).toBe(429)
    expect(claude.headers.get('retry-after')).toBeTruthy()
    expect(claude.json.error).toMatchObject({ type: 'rate_limit_error', message: expect.stringContaining('subscription') })
  }, 60_000)
})

describe('credit leases and plans', () => {
  const real = { lease: UserWallet.prototype.lease, reserve: UserWallet.prototype.reserve, settle: UserWallet.prototype.settle, settleLease: UserWallet.prototype.settleLease }
  afterEach(() => Object.assign(UserWallet.prototype, real))

  /** The wallet's lease holds, and counters of its calls (the wallet runs in this isolate): the round trips on a request's path, and the batched reports. */
  function watchLeases(userId: number) {
    const calls = { lease: 0, reserve: 0, settle: 0, settleLease: 0 }
    for (const name of Object.keys(real) as (keyof typeof real)[]) {
      const method = real[name] as (this: UserWallet, input: unknown) => unknown
      ;(UserWallet.prototype as unknown as Record<string, unknown>)[name] = function (this: UserWallet, input: unknown) {
        calls[name]++
        return method.call(this, input)
      }
    }
    const leaseHolds = () =>
      runInDurableObject(wallet(userId), (instance: UserWallet) => [...(instance as unknown as { store: WalletStore }).store.holds().values()].filter((r) => r.lease))
    return { calls, leaseHolds }
  }

  it('a subscriber’s warm requests are served from a plan lease: no reserve or settle round trip, rows name the subscription', async () => {
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 1000 }] })
    const { calls, leaseHolds } = watchLeases(user.id)
    for (let i = 0; i < 10; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    const [held] = await leaseHolds()
    expect(held).toMatchObject({ plan: { sub, tz: 'UTC' } })
    // One grant for ten requests; their costs went to the wallet in background reports (after each answer).
    expect(calls).toMatchObject({ lease: 1, reserve: 0, settle: 0 })
    const l = await ledger(user.id)
    expect(l.quota).toBe(1_000 * CHAT_COST)
    expect(await rowsBySubscription(user.id)).toEqual({ [sub]: { n: 10, q: 10 * CHAT_COST } })
    expect((await wallet(user.id).planUse({ userId: user.id, tz: 'UTC' }))[sub]!.map((w) => w.used)).toEqual([10])
  })

  it('a revoke gives the plan lease back at its next report: the isolate learns then and goes on from the balance', async () => {
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 1000 }] })
    const { leaseHolds } = watchLeases(user.id)
    for (let i = 0; i < 5; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    expect(await leaseHolds()).toHaveLength(1)
    await env.DB.prepare('UPDATE subscriptions SET status = 3 WHERE id = ?').bind(sub).run()
    await wallet(user.id).syncUser({ userId: user.id })
    // Held until the isolate's next call (it may still spend within it), then given back.
    expect((await leaseHolds())[0]).toMatchObject({ plan: { sub }, until: 0 })
    for (let i = 0; i < 10; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    // What the isolate served before its report told it is the plan's (named on its rows); then a balance lease.
    const [held] = await leaseHolds()
    expect(held?.plan).toBeUndefined()
    const l = await ledger(user.id)
    const rows = await rowsBySubscription(user.id)
    expect(rows[sub]!.n).toBeGreaterThanOrEqual(5)
    expect(rows[sub]!.n + rows[0]!.n).toBe(15)
    expect(1_000 * CHAT_COST - l.quota).toBe(rows[0]!.q)
  })

  it('a plan with model items gets no lease: the isolate asks once, then goes the exact way', async () => {
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 1000 }], models: [{ pattern: 'gpt-*', requests: 100 }] })
    const { calls, leaseHolds } = watchLeases(user.id)
    for (let i = 0; i < 10; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    expect(await leaseHolds()).toEqual([])
    expect(calls).toMatchObject({ lease: 1, reserve: 10, settle: 10, settleLease: 0 })
    await ledger(user.id)
    expect(await rowsBySubscription(user.id)).toEqual({ [sub]: { n: 10, q: 10 * CHAT_COST } })
  })

  it('a full plan window sends the rest the exact way, where the balance pays', async () => {
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 5 }] })
    const { calls } = watchLeases(user.id)
    for (let i = 0; i < 8; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    expect(calls).toMatchObject({ reserve: 3, settle: 3 })
    await ledger(user.id)
    expect(await rowsBySubscription(user.id)).toEqual({ [sub]: { n: 5, q: 5 * CHAT_COST }, 0: { n: 3, q: 3 * CHAT_COST } })
  })

  it('without a subscription the same requests are served from a lease (the control)', async () => {
    const user = await createUser({ quota: 1_000 * CHAT_COST })
    const token = await createToken(user.id)
    const { calls, leaseHolds } = watchLeases(user.id)
    for (let i = 0; i < 3; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat })).status).toBe(200)
    expect(await leaseHolds()).toHaveLength(1)
    expect(calls).toMatchObject({ lease: 1, reserve: 0, settle: 0 })
    expect((await ledger(user.id)).quota).toBe(997 * CHAT_COST)
  })
})
