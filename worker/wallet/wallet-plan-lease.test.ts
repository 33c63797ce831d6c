/**
 * Plan leases in the wallet (wallet-plan-lease.ts): a subscriber's credit lease draws from the
 * first subscription's windows — never beyond a window's remainder, in units and in requests, with
 * exact holds counted alongside; reported requests are charged to the windows with rows naming
 * the subscription (Σ a window's rows = its use); a window rollover or a revoke gives the lease
 * back while the requests served before still charge the subscription; a plan with model items or
 * channel tags gets no lease (`plans_active`: the exact path).
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createSubscription, createToken, createUser, ledger, wallet } from '../test/factories'
import type { PlanTerms } from '../../shared/contract/plans'
import { windowBounds } from '../lib/budget-period'
import { clockNow, setTestClockOffset } from '../lib/clock'
import type { LeaseItem } from './wallet-types'

afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

async function setup(quota = 1_000_000) {
  const user = await createUser({ quota })
  const token = await createToken(user.id, { unlimited: true })
  return { user, token, stub: wallet(user.id) }
}
type Setup = Awaited<ReturnType<typeof setup>>

const lease = (s: Setup, leaseId: string, amount: number, requests = 100) =>
  s.stub.lease({ userId: s.user.id, tokenId: s.token.id, leaseId, amount, floor: 1, plan: { tz: 'UTC', requests } })

/** A request served from the lease under `sub`, costing `quota`, its row written at `at` (ms). */
const served = (s: Setup, id: string, quota: number, sub: number, at = clockNow()): LeaseItem => ({
  reqId: id,
  quota,
  plan: { sub, tz: 'UTC' },
  log: { type: 2, createdAt: Math.floor(at / 1000), tokenId: s.token.id, modelName: 'm', requestId: id },
})

/** Rows per subscription (0: the balance) once flushed, and the balance invariant. */
async function rows(s: Setup, startQuota: number) {
  const l = await ledger(s.user.id)
  const r = await env.DB.prepare('SELECT subscription_id AS sub, COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ? AND type = 2 GROUP BY subscription_id')
    .bind(s.user.id)
    .all<{ sub: number; n: number; q: number }>()
  const by = Object.fromEntries(r.results.map((x) => [x.sub, { n: x.n, q: x.q }]))
  expect(startQuota - l.quota).toBe(by[0]?.q ?? 0)
  return by
}

/** Σ rows of `sub` in each current window = the window's use (quota or requests). */
async function expectWindowsMatchRows(s: Setup, sub: number) {
  await s.stub.flush()
  const use = (await s.stub.planUse({ userId: s.user.id, tz: 'UTC' }))[sub]!
  const terms = await env.DB.prepare('SELECT terms FROM subscriptions WHERE id = ?').bind(sub).first<{ terms: string }>()
  const windows = (JSON.parse(terms!.terms) as PlanTerms).windows
  for (const [i, w] of use.entries()) {
    const r = await env.DB.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE subscription_id = ? AND type = 2 AND created_at >= ? AND created_at < ?')
      .bind(sub, Math.ceil(w.start / 1000), Math.ceil(w.end / 1000))
      .first<{ n: number; q: number }>()
    expect(w.used).toBe('quota' in windows[i]! ? r!.q : r!.n)
  }
  return use.map((w) => w.used)
}

describe('plan leases', () => {
  it('never hold beyond a window’s remainder, in units and requests; exact holds count alongside', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, {
      windows: [
        { period: 'day', requests: 50 },
        { period: 'month', quota: 10_000 },
      ],
    })
    const { user, token, stub } = s
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'a', amount: 100, plan: { model: 'm', tz: 'UTC' } })).toMatchObject({ plan: { sub } })
    await stub.settle({ userId: user.id, reqId: 'a', quota: 100, log: served(s, 'a', 100, sub).log })
    const granted = await lease(s, 'lease:1', 50_000)
    expect(granted).toMatchObject({ ok: true, granted: 9_900, held: 9_900, requests: 49, plan: { sub, tz: 'UTC' } })
    expect(granted).toMatchObject({ until: windowBounds('day', 'UTC', clockNow()).end })
    // The lease holds every request the day has left: an exact hold goes to the balance, the plan's room untouched.
    expect(await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'b', amount: 10, plan: { model: 'm', tz: 'UTC' } })).toEqual({ ok: true, held: 10 })
    await stub.settle({ userId: user.id, reqId: 'b', quota: 10, log: served(s, 'b', 10, sub).log })
    expect((await stub.balance({ userId: user.id }))!.reserved).toBe(0)
    // Three requests served from it: charged to the windows; the lease shrinks by units and requests; a top-up finds no room.
    const until = (granted as { until: number }).until
    const items = ['x', 'y', 'z'].map((id) => ({ ...served(s, id, 30, sub), until }))
    const report = await stub.settleLease({ userId: user.id, leaseId: 'lease:1', items, seq: 1, extend: 5_000, extendRequests: 16 })
    expect(report).toMatchObject({ ok: true, charged: 90, held: 9_810, requests: 46, plan: { sub } })
    // Another lease id finds nothing free: the first lease holds the rest.
    expect(await lease(s, 'lease:2', 100)).toEqual({ ok: false, reason: 'plans_active' })
    const by = await rows(s, 1_000_000)
    expect(by).toEqual({ [sub]: { n: 4, q: 190 }, 0: { n: 1, q: 10 } })
    expect(await expectWindowsMatchRows(s, sub)).toEqual([4, 190])
  })

  it('a window rollover gives the lease back at its next call; what was served before still charges the subscription', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'hour', requests: 10 }] })
    const end = windowBounds('hour', 'UTC', clockNow()).end
    setTestClockOffset({ TEST_CLOCK: '1' }, end - 60_000 - Date.now())
    expect(await lease(s, 'lease:1', 1_000)).toMatchObject({ ok: true, requests: 10, until: end })
    const before = clockNow()
    // The next hour: the report of a request served in the old one goes back with the lease.
    setTestClockOffset({ TEST_CLOCK: '1' }, end + 1_000 - Date.now())
    const report = await s.stub.settleLease({ userId: s.user.id, leaseId: 'lease:1', items: [served(s, 'old', 7, sub, before)], seq: 1, extend: 100 })
    expect(report).toMatchObject({ ok: true, held: 0, charged: 7 })
    expect(report).not.toHaveProperty('plan')
    // Asked again, the lease draws from the new hour's window.
    expect(await lease(s, 'lease:1', 1_000)).toMatchObject({ ok: true, requests: 10, until: end + 3_600_000, plan: { sub } })
    await s.stub.settleLease({ userId: s.user.id, leaseId: 'lease:1', items: [served(s, 'new', 5, sub)], seq: 2 })
    expect(await expectWindowsMatchRows(s, sub)).toEqual([1])
    expect(await rows(s, 1_000_000)).toEqual({ [sub]: { n: 2, q: 12 } })
  })

  it('a revoke gives the lease back; requests served before it still charge the subscription, later ones the balance', async () => {
    const s = await setup(10_000)
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'day', quota: 5_000 }] })
    expect(await lease(s, 'lease:1', 1_000)).toMatchObject({ ok: true, granted: 1_000, plan: { sub } })
    expect(await lease(s, 'lease:1', 1_000)).not.toHaveProperty('requests')
    await env.DB.prepare('UPDATE subscriptions SET status = 3 WHERE id = ?').bind(sub).run()
    await s.stub.syncUser({ userId: s.user.id })
    const report = await s.stub.settleLease({ userId: s.user.id, leaseId: 'lease:1', items: [served(s, 'p', 40, sub)], seq: 1, extend: 500 })
    expect(report).toMatchObject({ ok: true, held: 0, charged: 40, userQuota: 10_000 })
    // No subscription now: a balance lease under the same id.
    expect(await lease(s, 'lease:1', 300)).toEqual({ ok: true, granted: 300, held: 300 })
    const item = { ...served(s, 'b', 20, sub), plan: undefined }
    await s.stub.settleLease({ userId: s.user.id, leaseId: 'lease:1', items: [item], seq: 2 })
    expect(await rows(s, 10_000)).toEqual({ [sub]: { n: 1, q: 40 }, 0: { n: 1, q: 20 } })
  })

  it('a subscription change keeps the lease held until its next report: the window is never promised twice', async () => {
    const s = await setup()
    const sub = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }] })
    const { user, token, stub } = s
    const granted = await lease(s, 'lease:1', 1_000)
    expect(granted).toMatchObject({ ok: true, requests: 10 })
    await stub.syncUser({ userId: user.id })
    const reserve = (reqId: string) => stub.reserve({ userId: user.id, tokenId: token.id, reqId, amount: 10, plan: { model: 'm', tz: 'UTC' } })
    // The isolate may still spend the ten requests it holds: an exact hold finds none.
    expect(await reserve('a')).toEqual({ ok: true, held: 10 })
    const until = (granted as { until: number }).until
    const report = await stub.settleLease({ userId: user.id, leaseId: 'lease:1', items: ['x', 'y'].map((id) => ({ ...served(s, id, 5, sub), until })), seq: 1, extendRequests: 4 })
    expect(report).toMatchObject({ ok: true, held: 0, charged: 10 })
    expect(report).not.toHaveProperty('plan')
    // Given back: the window's eight other requests are free again.
    expect(await reserve('b')).toMatchObject({ ok: true, plan: { sub } })
    expect(await lease(s, 'lease:1', 1_000)).toMatchObject({ ok: true, requests: 7, plan: { sub } })
    for (const id of ['a', 'b']) await stub.settle({ userId: user.id, reqId: id, quota: 10, log: served(s, id, 10, sub).log })
    expect(await expectWindowsMatchRows(s, sub)).toEqual([3])
  })

  it('none from a first subscription with model items or channel tags, nor without the time zone: the exact path', async () => {
    const s = await setup()
    const tagged = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], channel_tags: ['premium'], priority: 5 })
    expect(await lease(s, 'lease:1', 100)).toEqual({ ok: false, reason: 'plans_active' })
    await env.DB.prepare('UPDATE subscriptions SET status = 3 WHERE id = ?').bind(tagged).run()
    await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], models: [{ pattern: 'gpt-*', requests: 5 }] })
    expect(await lease(s, 'lease:1', 100)).toEqual({ ok: false, reason: 'plans_active' })
    const plain = await createSubscription(s.user.id, { windows: [{ period: 'day', requests: 10 }], priority: 9 })
    expect(await s.stub.lease({ userId: s.user.id, tokenId: s.token.id, leaseId: 'lease:1', amount: 100, floor: 1 })).toEqual({ ok: false, reason: 'plans_active' })
    expect(await lease(s, 'lease:1', 100)).toMatchObject({ ok: true, plan: { sub: plain } })
  })
})
