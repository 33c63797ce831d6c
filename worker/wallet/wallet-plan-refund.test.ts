/**
 * refundToPlan (a failed task's plan charge given back): the cost goes back to the quota windows and
 * one request to the request windows only while every window the charge counted in is current; a
 * partly rolled plan, an ended subscription or a second call with the same key gives nothing back.
 * Each call that applies leaves one row, and Σ of a window's rows stays its use.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createSubscription, createToken, createUser, ledger, wallet } from '../test/factories'
import { windowBounds } from '../lib/budget-period'
import { clockNow, setTestClockOffset } from '../lib/clock'
import { userSubscriptions } from '../plans/subscription-views'
import type { PlanRefundInput } from './wallet-types'

afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** The clock at 10:20 UTC on the 15th of this month, so an hour later is still the same day and month. */
function midMonth() {
  const at = windowBounds('month', 'UTC', Date.now()).start + 14 * DAY + 10 * HOUR + 20 * 60_000
  setTestClockOffset({ TEST_CLOCK: '1' }, at - Date.now())
}

/** A subscriber (no balance) with an hour request window and a month quota window, and one charge of `cost`. */
async function charged(cost: number) {
  midMonth()
  const user = await createUser({ quota: 0 })
  const token = await createToken(user.id, { unlimited: false, remain: 10_000 })
  const sub = await createSubscription(user.id, {
    windows: [
      { period: 'hour', requests: 10 },
      { period: 'month', quota: 5_000 },
    ],
  })
  const stub = wallet(user.id)
  const held = await stub.reserve({ userId: user.id, tokenId: token.id, reqId: 'task', amount: cost, plan: { model: 'suno', tz: 'UTC' } })
  expect(held).toEqual({ ok: true, held: cost, plan: { sub, tz: 'UTC', tags: [] } })
  const createdAt = Math.floor(clockNow() / 1000)
  await stub.settle({ userId: user.id, reqId: 'task', quota: cost, log: { type: 2, createdAt, tokenId: token.id, requestId: 'task' } })
  const refund = (key = 'task-refund:suno:1'): PlanRefundInput => ({
    userId: user.id,
    amount: cost,
    key,
    plan: { sub, tz: 'UTC' },
    at: createdAt * 1000,
    restoreToken: token.id,
    log: { type: 4, createdAt, tokenId: token.id, content: 'task failed', metadata: { task_refund: true } },
  })
  return { user, token, sub, stub, refund }
}

/** Each window's use as the wallet counts it and as the registry's view adds up its rows. */
async function used(userId: number, sub: number) {
  await wallet(userId).flush()
  const own = (await wallet(userId).planUse({ userId, tz: 'UTC' }))[sub]!.map((w) => w.used)
  const view = (await userSubscriptions(env, userId)).find((v) => v.id === sub)!.windows.map((w) => w.used)
  expect(view).toEqual(own)
  return own
}

const refundRows = (userId: number) =>
  env.DB.prepare('SELECT quota, subscription_id AS sub FROM logs WHERE user_id = ? AND type = 4').bind(userId).all<{ quota: number; sub: number }>()

describe('refundToPlan', () => {
  it('gives the cost and the request back while both windows are current, once per key however many race', async () => {
    const { user, token, sub, stub, refund } = await charged(700)
    expect(await used(user.id, sub)).toEqual([1, 700])
    const results = await Promise.all([stub.refundToPlan(refund()), stub.refundToPlan(refund()), stub.refundToPlan(refund())])
    expect(results.filter((r) => r.ok && !r.duplicate)).toEqual([{ ok: true, returned: true }])
    expect(await used(user.id, sub)).toEqual([0, 0])
    expect((await refundRows(user.id)).results).toEqual([{ quota: -700, sub }])
    const l = await ledger(user.id)
    expect([l.quota, l.used_quota]).toEqual([0, 0])
    const t = await env.DB.prepare('SELECT remain_quota AS remain, used_quota AS used FROM tokens WHERE id = ?').bind(token.id).first()
    expect(t).toEqual({ remain: 10_000, used: 0 })
  })

  it('an hour later the hour window has rolled: nothing goes back, not even to the month window', async () => {
    const { user, sub, stub, refund } = await charged(700)
    setTestClockOffset({ TEST_CLOCK: '1' }, clockNow() - Date.now() + HOUR)
    expect(await stub.refundToPlan(refund())).toEqual({ ok: true, returned: false })
    expect(await used(user.id, sub)).toEqual([0, 700])
    expect((await refundRows(user.id)).results).toEqual([{ quota: 0, sub: 0 }])
    expect((await ledger(user.id)).quota).toBe(0)
    expect(await stub.refundToPlan(refund())).toEqual({ ok: true, returned: false, duplicate: true })
  })

  it('an ended subscription gets nothing back; a bad amount is refused with nothing written', async () => {
    const { user, sub, stub, refund } = await charged(300)
    expect(await stub.refundToPlan({ ...refund('bad'), amount: -1 })).toEqual({ ok: false, reason: 'invalid_amount' })
    await env.DB.prepare('UPDATE subscriptions SET status = 3 WHERE id = ?').bind(sub).run()
    await stub.syncUser({ userId: user.id })
    expect(await stub.refundToPlan(refund())).toEqual({ ok: true, returned: false })
    expect((await refundRows(user.id)).results).toEqual([{ quota: 0, sub: 0 }])
    expect((await ledger(user.id)).quota).toBe(0)
  })
})
