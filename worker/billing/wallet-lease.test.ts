/**
 * Credit-lease reports are exactly once: a report the wallet applied but whose answer was lost is
 * sent again with the same number and items, and the wallet answers it without charging again; the
 * next report still charges its own requests. A request the wallet refuses while the lease's costs
 * are still on their way asks again once they landed (a budget period that just rolled over). A
 * subscriber's plan lease serves the window's requests and no more, and after the window rolls
 * the wallet grants one from the next.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { LeaseSettleInput } from '../wallet/wallet-types'
import { createSubscription, createToken, createUser, ledger, wallet } from '../test/factories'
import { env } from 'cloudflare:workers'
import { clockNow, setTestClockOffset } from '../lib/clock'
import { periodBounds, windowBounds } from '../lib/budget-period'
import { holdFromLease, settleToLease } from './wallet-lease'

type Stub = Parameters<typeof holdFromLease>[0]
const log = (reqId: string, tokenId: number) => ({ type: 2, createdAt: Math.floor(Date.now() / 1000), tokenId, modelName: 'm', requestId: reqId })

/** The real wallet, except that the answers of the first `lost` reports never arrive (they are applied). */
function losingAnswers(userId: number, lost: number) {
  const real = wallet(userId)
  const sent: LeaseSettleInput[] = []
  const stub = {
    lease: (input: Parameters<Stub['lease']>[0]) => real.lease(input),
    settleLease: async (input: LeaseSettleInput) => {
      sent.push(input)
      const res = await real.settleLease(input)
      if (lost-- > 0) throw new Error('Network connection lost.')
      return res
    },
  } as unknown as Stub
  return { stub, sent }
}

describe('lease reports', () => {
  it('a report whose answer was lost is sent again and charged once', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    const { stub, sent } = losingAnswers(user.id, 1)
    const who = { userId: user.id, tokenId: token.id, rpm: 0 }

    const ctx1 = createExecutionContext()
    const first = await holdFromLease(stub, ctx1, who, 100)
    expect(first).toBeDefined()
    await settleToLease(stub, ctx1, first!, { reqId: 'r1', quota: 40, log: log('r1', token.id) })
    await waitOnExecutionContext(ctx1)

    const ctx2 = createExecutionContext()
    const second = await holdFromLease(stub, ctx2, who, 100)
    expect(second).toBeDefined()
    await settleToLease(stub, ctx2, second!, { reqId: 'r2', quota: 60, log: log('r2', token.id) })
    await waitOnExecutionContext(ctx2)

    // The lost report went again, alone and under its number, before the newer one.
    expect(sent.map((r) => [r.seq, r.items.map((i) => i.reqId)])).toEqual([
      [1, ['r1']],
      [1, ['r1']],
      [2, ['r2']],
    ])
    expect(await ledger(user.id)).toMatchObject({ quota: 99_900, used_quota: 100, request_count: 2, consumeLogs: 2, loggedQuota: 100 })
  })

  it('a request the lease cannot cover asks the wallet itself while a report is still gathering', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    const { stub } = losingAnswers(user.id, 0)
    const who = { userId: user.id, tokenId: token.id, rpm: 0 }
    const ctx = createExecutionContext()
    const small = await holdFromLease(stub, ctx, who, 100)
    expect(small).toBeDefined()
    // Its report now waits a moment for more requests to settle …
    void settleToLease(stub, ctx, small!, { reqId: 's1', quota: 100, log: log('s1', token.id) })
    // … and a request bigger than the lease still gets its grant from the lease, not the exact path.
    const big = await holdFromLease(stub, ctx, who, 5_000)
    expect(big).toBeDefined()
    await settleToLease(stub, ctx, big!, { reqId: 'b1', quota: 4_000, log: log('b1', token.id) })
    await waitOnExecutionContext(ctx)
    expect(await ledger(user.id)).toMatchObject({ quota: 95_900, used_quota: 4_100, request_count: 2, consumeLogs: 2, loggedQuota: 4_100 })
  })

  it('a new budget period is not refused for the old period’s hold while its report is on its way', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    const { stub } = losingAnswers(user.id, 0)
    const who = { userId: user.id, tokenId: token.id, rpm: 0, budget: { period: 'day' as const, quota: 300, tz: 'UTC' } }
    const moveClockTo = (ms: number) => setTestClockOffset({ TEST_CLOCK: '1' }, ms - Date.now())
    const midnight = periodBounds('day', 'UTC', Date.now()).end
    const ctx = createExecutionContext()
    try {
      moveClockTo(midnight - 60_000)
      // Three requests spend the day's budget from the lease; their report is still gathering …
      for (const id of ['a', 'b', 'c']) {
        const hold = await holdFromLease(stub, ctx, who, 100)
        expect(hold).toBeDefined()
        void settleToLease(stub, ctx, hold!, { reqId: id, quota: 100, log: { ...log(id, token.id), createdAt: Math.floor(clockNow() / 1000) } })
      }
      // … when the day rolls: the wallet still holds the old day's 300 for the lease, the new day's whole budget.
      moveClockTo(midnight + 1000)
      const next = await holdFromLease(stub, ctx, who, 100)
      expect(next).toBeDefined()
      await settleToLease(stub, ctx, next!, { reqId: 'd', quota: 100, log: { ...log('d', token.id), createdAt: Math.floor(clockNow() / 1000) } })
      await waitOnExecutionContext(ctx)
      const balance = await wallet(user.id).balance({ userId: user.id, tokenId: token.id })
      expect(balance!.token!.budget).toMatchObject({ used: 100, quota: 300 })
      expect(await ledger(user.id)).toMatchObject({ used_quota: 400, request_count: 4, consumeLogs: 4, loggedQuota: 400 })
    } finally {
      setTestClockOffset({ TEST_CLOCK: '1' }, 0)
    }
  })

  it('a plan lease serves the window’s requests and no more; after the window rolls the wallet grants one from the next', async () => {
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id, { unlimited: true })
    const sub = await createSubscription(user.id, { windows: [{ period: 'hour', requests: 3 }] })
    const { stub } = losingAnswers(user.id, 0)
    const who = { userId: user.id, tokenId: token.id, rpm: 0, planTz: 'UTC' }
    const moveClockTo = (ms: number) => setTestClockOffset({ TEST_CLOCK: '1' }, ms - Date.now())
    const end = windowBounds('hour', 'UTC', Date.now()).end
    const ctx = createExecutionContext()
    const serve = async (id: string) => {
      const hold = await holdFromLease(stub, ctx, who, 100)
      if (hold) void settleToLease(stub, ctx, hold, { reqId: id, quota: 10, log: { ...log(id, token.id), createdAt: Math.floor(clockNow() / 1000) } })
      return hold?.plan
    }
    try {
      moveClockTo(end - 60_000)
      for (const id of ['a', 'b', 'c']) expect(await serve(id)).toEqual({ sub, tz: 'UTC' })
      // The window's three requests are the lease's: the fourth is not served from it (it takes the exact path).
      expect(await serve('d')).toBeUndefined()
      moveClockTo(end + 1000)
      // The old window's requests, still on their way, take nothing from the new window's grant.
      for (const id of ['e', 'f', 'g']) expect(await serve(id)).toEqual({ sub, tz: 'UTC' })
      expect(await serve('h')).toBeUndefined()
      await waitOnExecutionContext(ctx)
      expect(await ledger(user.id)).toMatchObject({ quota: 100_000, consumeLogs: 6, loggedQuota: 60 })
      const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE subscription_id = ? AND type = 2').bind(sub).first<{ n: number }>()
      expect(rows!.n).toBe(6)
      expect((await wallet(user.id).planUse({ userId: user.id, tz: 'UTC' }))[sub]![0]!.used).toBe(3)
    } finally {
      setTestClockOffset({ TEST_CLOCK: '1' }, 0)
    }
  })
})
