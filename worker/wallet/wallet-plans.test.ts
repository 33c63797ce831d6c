/**
 * Subscription plans in the wallet (issue 33): requests are covered by the user's active
 * subscriptions first — windows counted in requests and in quota, several windows at once, model
 * items — then by the balance, or refused with plan_quota_exceeded when a plan forbids the fallback;
 * refunds and expiry charges go back to the window they came from; windows roll in the time zone
 * the worker sends; a plan limited to channel tags covers only what a channel with one of its tags
 * can serve; a lease asked for without the time zone gets none while a subscription is in force
 * (plan leases: wallet-plan-lease.test.ts). After every scenario the ledger
 * invariants hold: Σ quota of rows without a subscription = balance change, and Σ rows of a
 * subscription in a window = the window's use.
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createSubscription, createToken, createUser, ledger, wallet } from '../test/factories'
import type { PlanTerms } from '../../shared/contract/plans'
import { windowBounds } from '../lib/budget-period'
import { clockNow, setTestClockOffset } from '../lib/clock'
import type { UserWallet } from './user-wallet'
import { WalletStore } from './wallet-store'
import { WalletPlans } from './wallet-plans'

afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

const DAY = 86_400_000
const seconds = () => Math.floor(clockNow() / 1000)
const consumeLog = (reqId: string, tokenId: number, modelName = 'gpt-4o') => ({ type: 2, createdAt: seconds(), tokenId, modelName, requestId: reqId })

async function setup(quota = 1_000_000) {
  const user = await createUser({ quota })
  const token = await createToken(user.id, { unlimited: true })
  return { user, token, stub: wallet(user.id) }
}

type Setup = Awaited<ReturnType<typeof setup>>

/** One request through the wallet: reserve `amount` for `model`, then settle `cost` (or refund). */
async function request(s: Setup, id: string, cost: number, opts: { amount?: number; model?: string; tz?: string; refund?: boolean; tags?: string[] } = {}) {
  const { user, token, stub } = s
  const model = opts.model ?? 'gpt-4o'
  const tags = opts.tags ? { tags: opts.tags } : {}
  const held = await stub.reserve({ userId: user.id, tokenId: token.id, reqId: id, amount: opts.amount ?? cost, plan: { model, tz: opts.tz ?? 'UTC', ...tags } })
  if (!held.ok) return held
  if (opts.refund) await stub.refund({ userId: user.id, reqId: id })
  else await stub.settle({ userId: user.id, reqId: id, quota: cost, log: consumeLog(id, token.id, model) })
  return held
}

/** The D1 truth after a flush: the balance, rows per subscription (0 = balance), and the invariants. */
async function truth(s: Setup, startQuota: number) {
  const l = await ledger(s.user.id)
  const rows = await env.DB.prepare('SELECT subscription_id AS sub, COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ? AND type = 2 GROUP BY subscription_id')
    .bind(s.user.id)
    .all<{ sub: number; n: number; q: number }>()
  const by = new Map(rows.results.map((r) => [r.sub, r]))
  // Σ quota of rows drawn from the balance = the balance change.
  expect(startQuota - l.quota).toBe(by.get(0)?.q ?? 0)
  return { quota: l.quota, rows: (sub: number) => ({ n: by.get(sub)?.n ?? 0, q: by.get(sub)?.q ?? 0 }) }
}

/**
 * Σ rows of `sub` inside its current windows = each window's use: their quota (consume rows, and
 * error rows giving an expiry charge back), or their requests (a consume row counts one, unless it
 * is the late settle of a request an expiry already counted; an expiry charge given back, minus one).
 */
async function expectWindowsMatchRows(s: Setup, sub: number, tz = 'UTC') {
  await s.stub.flush()
  const use = (await s.stub.planUse({ userId: s.user.id, tz }))[sub]!
  const terms = await env.DB.prepare('SELECT terms FROM subscriptions WHERE id = ?').bind(sub).first<{ terms: string }>()
  const windows = (JSON.parse(terms!.terms) as PlanTerms).windows
  for (const [i, w] of use.entries()) {
    const r = await env.DB.prepare(
      `SELECT COALESCE(SUM(CASE WHEN type = 2 AND json_extract(metadata, '$.charged_on_expiry') IS NULL THEN 1 WHEN type = 5 AND quota < 0 THEN -1 ELSE 0 END), 0) AS n,
        COALESCE(SUM(quota), 0) AS q FROM logs WHERE subscription_id = ? AND type IN (2, 5) AND created_at >= ? AND created_at < ?`
    )
      .bind(sub, Math.ceil(w.start / 1000), Math.ceil(w.end / 1000))
      .first<{ n: number; q: number }>()
    expect(w.used).toBe('quota' in windows[i]! ? r!.q : r!.n)
  }
  return use
}

describe('request windows, several at once', () => {
  it('day 100 + month 1,000 requests: the 101st request of the day draws from the balance', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, {
      windows: [
        { period: 'day', requests: 100 },
        { period: 'month', requests: 1000 },
      ],
    })
    for (let i = 0; i < 100; i++) expect(await request(s, `r${i}`, 7)).toEqual({ ok: true, held: 7, plan: { sub, tz: 'UTC', tags: [] } })
    expect(await request(s, 'r100', 7)).toEqual({ ok: true, held: 7 })
    const t = await truth(s, 1_000_000)
    expect(t.quota).toBe(1_000_000 - 7)
    expect(t.rows(sub)).toEqual({ n: 100, q: 700 })
    expect(t.rows(0)).toEqual({ n: 1, q: 7 })
    const use = await expectWindowsMatchRows(s, sub)
    expect(use.map((w) => w.used)).toEqual([100, 100])
  })

  it('without the balance fallback the 101st is refused until the next day starts', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, {
      windows: [
        { period: 'day', requests: 100 },
        { period: 'month', requests: 1000 },
      ],
      allow_balance_fallback: false,
    })
    for (let i = 0; i < 100; i++) expect((await request(s, `r${i}`, 3)).ok).toBe(true)
    const refused = await request(s, 'r100', 3)
    const dayEnd = windowBounds('day', 'UTC', clockNow()).end
    expect(refused).toMatchObject({ ok: false, reason: 'plan_quota_exceeded' })
    const retry = (refused as { retryAfterMs: number }).retryAfterMs
    expect(Math.abs(clockNow() + retry - dayEnd)).toBeLessThan(5_000)
    const t = await truth(s, 1_000_000)
    expect(t.quota).toBe(1_000_000)
    expect(t.rows(sub)).toEqual({ n: 100, q: 300 })
    // The next day has room again (the month still has 900).
    setTestClockOffset({ TEST_CLOCK: '1' }, dayEnd + 1000 - Date.now())
    expect(await request(s, 'next-day', 3)).toEqual({ ok: true, held: 3, plan: { sub, tz: 'UTC', tags: [] } })
    expect((await s.stub.planUse({ userId: s.user.id, tz: 'UTC' }))[sub]!.map((w) => w.used)).toEqual([1, 101])
  })

  it('a refund gives the request back to the window; in-flight holds count against it', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'hour', requests: 1 }] })
    const { user, token, stub } = s
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'a', amount: 50, plan: { model: 'gpt-4o', tz: 'UTC' } })).toEqual({
      ok: true,
      held: 50,
      plan: { sub, tz: 'UTC', tags: [] },
    })
    // The window's one request is held: the next one goes to the balance (which the plan hold did not touch).
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
    expect(await request(s, 'b', 20)).toMatchObject({ ok: true, held: 20 })
    await stub.refund({ userId: user.id, reqId: 'a', log: { ...consumeLog('a', token.id), type: 5 } })
    expect(await request(s, 'c', 30)).toEqual({ ok: true, held: 30, plan: { sub, tz: 'UTC', tags: [] } })
    const t = await truth(s, 1_000_000)
    expect(t.rows(sub)).toEqual({ n: 1, q: 30 })
    expect(t.rows(0)).toEqual({ n: 1, q: 20 })
    const errorRow = await env.DB.prepare('SELECT subscription_id, quota FROM logs WHERE request_id = ? AND type = 5').bind('a').first()
    expect(errorRow).toEqual({ subscription_id: 0, quota: 0 })
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(1)
  })
})

describe('quota windows and model items', () => {
  it('a quota window covers holds that fit, is charged the exact cost, and overruns are the window’s', async () => {
    const s = await setup(10_000)
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'week', quota: 1000 }] })
    const { user, token, stub } = s
    const reserve = (reqId: string, amount: number) => stub.reserve({ userId: user.id, tokenId: token.id, reqId, amount, plan: { model: 'm', tz: 'UTC' } })
    expect(await reserve('a', 600)).toEqual({ ok: true, held: 600, plan: { sub, tz: 'UTC', tags: [] } })
    // 600 held + 500 > 1000: the balance holds this one.
    expect(await reserve('b', 500)).toMatchObject({ ok: true, held: 500 })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(500)
    await stub.settle({ userId: user.id, reqId: 'a', quota: 250, log: consumeLog('a', token.id, 'm') })
    await stub.settle({ userId: user.id, reqId: 'b', quota: 500, log: consumeLog('b', token.id, 'm') })
    expect(await reserve('c', 750)).toEqual({ ok: true, held: 750, plan: { sub, tz: 'UTC', tags: [] } })
    // The supplier charged beyond the hold: the window takes it (and the key's quota counts it).
    await stub.settle({ userId: user.id, reqId: 'c', quota: 800, log: consumeLog('c', token.id, 'm') })
    await stub.flush()
    const row = await env.DB.prepare('SELECT subscription_id, quota, metadata FROM logs WHERE request_id = ?')
      .bind('c')
      .first<{ subscription_id: number; quota: number; metadata: string }>()
    expect(row).toMatchObject({ subscription_id: sub, quota: 800 })
    expect(JSON.parse(row!.metadata)).toMatchObject({ reserved: 750, overrun: 50 })
    const t = await truth(s, 10_000)
    expect(t.quota).toBe(9500)
    expect(t.rows(sub)).toEqual({ n: 2, q: 1050 })
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(1050)
    // The key counts every unit it spent, plan or balance.
    expect((await stub.balance({ userId: user.id, tokenId: token.id }))!.token!.used).toBe(1550)
    // A full window: the next request is the balance's.
    expect(await request(s, 'd', 10, { model: 'm' })).toMatchObject({ ok: true, held: 10 })
    expect((await truth(s, 10_000)).quota).toBe(9490)
  })

  it('model items: an excluded model goes to the balance; an item’s own allowance; other models by the `*` line', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, {
      windows: [{ period: 'day', requests: 100 }],
      models: [
        { pattern: 'claude-*', excluded: true },
        { pattern: 'gpt-4*', requests: 2 },
        { pattern: '*', quota: 100 },
      ],
    })
    expect(await request(s, 'claude', 9, { model: 'claude-3-opus' })).toMatchObject({ ok: true })
    for (const id of ['g1', 'g2', 'g3']) expect(await request(s, id, 5, { model: 'gpt-4o-mini' })).toMatchObject({ ok: true })
    for (const id of ['o1', 'o2']) expect(await request(s, id, 60, { model: 'llama-3' })).toMatchObject({ ok: true })
    await s.stub.flush()
    const rows = await env.DB.prepare('SELECT request_id, subscription_id FROM logs WHERE user_id = ? AND type = 2 ORDER BY id')
      .bind(s.user.id)
      .all<{ request_id: string; subscription_id: number }>()
    const from = Object.fromEntries(rows.results.map((r) => [r.request_id, r.subscription_id]))
    expect(from).toEqual({ claude: 0, g1: sub, g2: sub, g3: 0, o1: sub, o2: 0 })
    const t = await truth(s, 1_000_000)
    expect(t.rows(sub)).toEqual({ n: 3, q: 70 })
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(3)
  })

  it('consumption order: plan priority first, then the earliest expiry; a subscription not yet started covers nothing', async () => {
    const s = await setup()
    const now = clockNow()
    const late = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 1 }] }, { expiresAt: now + 10 * DAY })
    const soon = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 1 }] }, { expiresAt: now + DAY })
    const high = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 1 }], priority: 5 }, { expiresAt: now + 20 * DAY })
    await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], priority: 9 }, { startsAt: now + DAY })
    for (const id of ['a', 'b', 'c', 'd']) await request(s, id, 4)
    await s.stub.flush()
    const rows = await env.DB.prepare('SELECT subscription_id FROM logs WHERE user_id = ? AND type = 2 ORDER BY id').bind(s.user.id).all<{ subscription_id: number }>()
    expect(rows.results.map((r) => r.subscription_id)).toEqual([high, soon, late, 0])
  })
})

describe('plans limited to channel tags', () => {
  it('cover a request only when a channel with one of their tags can serve it, and the answer names the subscription and its tags', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], channel_tags: ['premium', 'fast'] })
    expect(await request(s, 'tagged', 4, { tags: ['basic', 'fast'] })).toEqual({ ok: true, held: 4, plan: { sub, tz: 'UTC', tags: ['premium', 'fast'] } })
    // No such channel (or no tags sent at all, as MCP calls and cache hits do): the balance pays.
    expect(await request(s, 'other', 5, { tags: ['basic'] })).toEqual({ ok: true, held: 5 })
    expect(await request(s, 'none', 6)).toEqual({ ok: true, held: 6 })
    const t = await truth(s, 1_000_000)
    expect(t.rows(sub)).toEqual({ n: 1, q: 4 })
    expect(t.rows(0)).toEqual({ n: 2, q: 11 })
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(1)
  })

  it('a tagged plan that cannot cover passes to the next subscription; without the fallback and nothing else, 429 plan_quota_exceeded', async () => {
    const s = await setup()
    const tagged = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], channel_tags: ['premium'], allow_balance_fallback: false, priority: 9 })
    expect(await request(s, 'a', 3, { tags: ['basic'] })).toMatchObject({ ok: false, reason: 'plan_quota_exceeded', retryAfterMs: 3_600_000 })
    const plain = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }] })
    // Priority puts the tagged plan first: it covers what its channels serve, the untagged plan the rest.
    expect(await request(s, 'b', 3, { tags: ['premium'] })).toEqual({ ok: true, held: 3, plan: { sub: tagged, tz: 'UTC', tags: ['premium'] } })
    expect(await request(s, 'c', 3, { tags: ['basic'] })).toEqual({ ok: true, held: 3, plan: { sub: plain, tz: 'UTC', tags: [] } })
    const t = await truth(s, 1_000_000)
    expect(t.quota).toBe(1_000_000)
    expect([t.rows(tagged), t.rows(plain)]).toEqual([
      { n: 1, q: 3 },
      { n: 1, q: 3 },
    ])
  })
})

describe('windows roll in the BudgetTimezone', () => {
  for (const [tz, period] of [
    ['UTC', 'hour'],
    ['Asia/Shanghai', 'day'],
    ['America/New_York', 'week'],
    ['America/New_York', 'month'],
  ] as const) {
    it(`a ${period} window in ${tz} rolls at its local start`, async () => {
      const s = await setup()
      const sub = await createSubscription(s.user.id, { windows: [{ period, quota: 100 }], allow_balance_fallback: false })
      expect(await request(s, 'a', 100, { tz })).toEqual({ ok: true, held: 100, plan: { sub, tz, tags: [] } })
      const { start, end } = windowBounds(period, tz, clockNow())
      const refused = await request(s, 'b', 1, { tz })
      expect(refused).toMatchObject({ ok: false, reason: 'plan_quota_exceeded' })
      expect(Math.abs(clockNow() + (refused as { retryAfterMs: number }).retryAfterMs - end)).toBeLessThan(5_000)
      const [w] = await expectWindowsMatchRows(s, sub, tz)
      expect(w).toMatchObject({ used: 100, start, end })
      // One second before the local start of the next window it is still full; one second after, empty.
      setTestClockOffset({ TEST_CLOCK: '1' }, end - 1000 - Date.now())
      expect(await request(s, 'c', 1, { tz })).toMatchObject({ ok: false, reason: 'plan_quota_exceeded' })
      setTestClockOffset({ TEST_CLOCK: '1' }, end + 1000 - Date.now())
      expect(await request(s, 'd', 60, { tz })).toEqual({ ok: true, held: 60, plan: { sub, tz, tags: [] } })
      const [next] = await expectWindowsMatchRows(s, sub, tz)
      expect(next).toMatchObject({ used: 60, start: end })
      expect((await truth(s, 1_000_000)).quota).toBe(1_000_000)
    })
  }
})

describe('expiry and leases', () => {
  it('plan holds and window use survive a restart', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'day', quota: 500 }] })
    const { user, token, stub } = s
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'a', amount: 300, plan: { model: 'm', tz: 'UTC' } })).toEqual({
      ok: true,
      held: 300,
      plan: { sub, tz: 'UTC', tags: [] },
    })
    await runInDurableObject(stub, (instance: UserWallet, state) => {
      const w = instance as unknown as { store: WalletStore; plans: WalletPlans; env: Env }
      w.store = new WalletStore(state.storage.kv, () => w.env.DB)
      w.plans = new WalletPlans(() => ({ store: w.store, db: w.env.DB }))
    })
    // The restored hold still takes 300 of the window: 300 more do not fit, 200 do.
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'b', amount: 300, plan: { model: 'm', tz: 'UTC' } })).toMatchObject({ ok: true, held: 300 })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(300)
    await stub.settle({ userId: user.id, reqId: 'a', quota: 280, log: consumeLog('a', token.id, 'm') })
    await stub.settle({ userId: user.id, reqId: 'b', quota: 300, log: consumeLog('b', token.id, 'm') })
    const t = await truth(s, 1_000_000)
    expect(t.quota).toBe(1_000_000 - 300)
    expect(t.rows(sub)).toEqual({ n: 1, q: 280 })
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(280)
  })

  it('an expired plan hold charges the window, a late settle the difference, a refund gives it back to the window', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'month', quota: 10_000 }] })
    const { user, token, stub } = s
    for (const id of ['late', 'failed'])
      expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: id, amount: 100, plan: { model: 'm', tz: 'UTC' } })).toEqual({
        ok: true,
        held: 100,
        plan: { sub, tz: 'UTC', tags: [] },
      })
    await runInDurableObject(stub, (instance: UserWallet) => {
      for (const r of (instance as unknown as { store: WalletStore }).store.holds().values()) r.at = 0
    })
    await runDurableObjectAlarm(stub)
    expect((await stub.planUse({ userId: user.id, tz: 'UTC' }))[sub]![0]!.used).toBe(200)
    await stub.settle({ userId: user.id, reqId: 'late', quota: 130, log: consumeLog('late', token.id, 'm') })
    await stub.refund({ userId: user.id, reqId: 'failed', log: { ...consumeLog('failed', token.id, 'm'), type: 5 } })
    const t = await truth(s, 1_000_000)
    expect(t.quota).toBe(1_000_000)
    expect((await expectWindowsMatchRows(s, sub))[0]!.used).toBe(130)
    const byType = await env.DB.prepare('SELECT type, SUM(quota) AS q FROM logs WHERE subscription_id = ? GROUP BY type ORDER BY type').bind(sub).all()
    expect(byType.results).toEqual([
      { type: 2, q: 230 },
      { type: 5, q: -100 },
    ])
  })

  it('no balance lease while a subscription is in force; a new subscription revokes the leases held', async () => {
    const s = await setup(1000)
    const { user, token, stub } = s
    expect(await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:a', amount: 500, floor: 1 })).toMatchObject({ ok: true, granted: 500 })
    await createSubscription(user.id, { windows: [{ period: 'day', requests: 10 }] })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
    expect(await stub.lease({ userId: user.id, tokenId: token.id, leaseId: 'lease:b', amount: 500, floor: 1 })).toEqual({ ok: false, reason: 'plans_active' })
    const report = await stub.settleLease({ userId: user.id, leaseId: 'lease:a', items: [{ reqId: 'x', quota: 5, log: consumeLog('x', token.id) }], extend: 100 })
    expect(report).toMatchObject({ ok: true, held: 0, charged: 5 })
    expect((await truth(s, 1000)).quota).toBe(995)
  })

  it('an ended subscription stops covering after syncUser, and leases come back', async () => {
    const s = await setup(1000)
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }] })
    expect(await request(s, 'a', 5)).toEqual({ ok: true, held: 5, plan: { sub, tz: 'UTC', tags: [] } })
    await env.DB.prepare('UPDATE subscriptions SET status = 3 WHERE id = ?').bind(sub).run()
    await s.stub.syncUser({ userId: s.user.id })
    expect(await request(s, 'b', 5)).toMatchObject({ ok: true, held: 5 })
    expect(await s.stub.lease({ userId: s.user.id, tokenId: s.token.id, leaseId: 'lease:c', amount: 100, floor: 1 })).toMatchObject({ ok: true })
    await s.stub.settleLease({ userId: s.user.id, leaseId: 'lease:c', items: [], release: true })
    const t = await truth(s, 1000)
    expect(t.quota).toBe(995)
    expect(t.rows(sub)).toEqual({ n: 1, q: 5 })
  })
})
