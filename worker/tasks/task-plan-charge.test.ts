/**
 * Tasks covered by subscription plans (issue 33): a submit draws one request (or its price) from the
 * covering subscription's window, its row keeps what it drew from, and a task that fails later gives
 * exactly that back to the window — once, whatever races — never to the balance; a window that has
 * rolled over since gets nothing back. Balance-charged tasks are refunded to the balance as before.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { createSubscription, createToken, createUser, ledger, send, wallet } from '../test/factories'
import { taskFixture, useTaskUpstream } from '../test/task-mock'
import { setTestClockOffset } from '../lib/clock'
import type { PlanTerms } from '../../shared/contract/plans'
import { userSubscriptions } from '../plans/subscription-views'
import type { PlanUse } from '../wallet/wallet-plans'
import type { UserWallet } from '../wallet/user-wallet'
import { pollUnfinishedTasks } from './task-poller'
import { failedTaskOf, readPlanCharge, refundFailedTask } from './task-charge'

const upstream = useTaskUpstream()
afterEach(() => setTestClockOffset({ TEST_CLOCK: '1' }, 0))

const PRICE = 50_000
const DAY = 86_400_000

/** The Suno channel and prices, and a subscriber with no balance whose key has 1,000,000 units. */
async function setup(terms: Partial<PlanTerms>, balance = 0) {
  await taskFixture({ 'chirp-v3-0': 50, suno_lyrics: 5 }, { key: 'suno-key', type: 41 })
  const user = await createUser({ quota: balance })
  const token = await createToken(user.id, { unlimited: false, remain: 1_000_000 })
  const sub = await createSubscription(user.id, terms)
  return { user, token, key: token.key, sub }
}

const music = (key: string, prompt: string) => send('/suno/submit/music', { key, json: { prompt } })

const taskRow = async (id: string) =>
  (await env.DB.prepare('SELECT id, user_id, token_id, channel_id, quota, action, plan_charge FROM tasks WHERE id = ?').bind(Number(id)).first<{
    id: number
    user_id: number
    token_id: number
    channel_id: number
    quota: number
    action: string
    plan_charge: string
  }>())!

/** The subscription's windows now, as the wallet counts them and as the registry's view shows them (Σ of its rows). */
async function windowsUsed(userId: number, sub: number): Promise<{ wallet: number[]; view: number[] }> {
  await wallet(userId).flush()
  const use = (await wallet(userId).planUse({ userId, tz: 'UTC' }))[sub]!
  const view = (await userSubscriptions(env, userId)).find((v) => v.id === sub)!
  return { wallet: use.map((w) => w.used), view: view.windows.map((w) => w.used) }
}

const refundRows = (userId: number) =>
  env.DB.prepare("SELECT type, quota, subscription_id AS sub, content, metadata FROM logs WHERE user_id = ? AND type = 4 AND json_extract(metadata, '$.task_refund') = 1")
    .bind(userId)
    .all<{ type: number; quota: number; sub: number; content: string; metadata: string }>()
    .then((r) => r.results)

const tokenUse = (tokenId: number) =>
  env.DB.prepare('SELECT remain_quota AS remain, used_quota AS used FROM tokens WHERE id = ?').bind(tokenId).first<{ remain: number; used: number }>()

const failedTask = (row: Awaited<ReturnType<typeof taskRow>>) => failedTaskOf('suno', row, 'failed')

describe('tasks covered by a plan', () => {
  it('a request window: the submit takes one request, a failure gives it back once whatever races, the balance untouched', async () => {
    const { user, token, key, sub } = await setup({ windows: [{ period: 'day', requests: 10 }] })
    const submit = await music(key, 'this will fail')
    expect(submit.status).toBe(200)
    expect(submit.json.code).toBe('success')
    const row = await taskRow(submit.json.data)
    expect(readPlanCharge(row.plan_charge)).toMatchObject({ sub, tz: 'UTC' })
    expect(row.quota).toBe(PRICE)
    await wallet(user.id).flush()
    expect((await env.DB.prepare('SELECT quota, subscription_id AS sub, created_at FROM logs WHERE user_id = ? AND type = 2').bind(user.id).all<any>()).results).toEqual([
      { quota: PRICE, sub, created_at: readPlanCharge(row.plan_charge)!.at },
    ])
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [1], view: [1] })
    expect(await tokenUse(token.id)).toEqual({ remain: 1_000_000 - PRICE, used: PRICE })
    expect((await ledger(user.id)).quota).toBe(0)

    upstream.mock.advance(3)
    // The poller, the client's fetches and two direct refunds race: the window gets one request back.
    await Promise.all([
      pollUnfinishedTasks(env),
      send(`/suno/fetch/${submit.json.data}`, { key }),
      refundFailedTask(env, failedTask(row)),
      refundFailedTask(env, failedTask(row)),
      send('/suno/fetch', { key, json: { ids: [submit.json.data] } }),
    ])
    await pollUnfinishedTasks(env)
    await refundFailedTask(env, failedTask(row))
    expect((await send(`/suno/fetch/${submit.json.data}`, { key })).json.data).toMatchObject({ status: 'FAILURE', progress: '100%' })
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [0], view: [0] })
    const l = await ledger(user.id)
    expect(l.quota).toBe(0)
    expect(l.used_quota).toBe(0)
    const rows = await refundRows(user.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ quota: -PRICE, sub })
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ subscription_id: sub, plan_returned: true, idempotency_key: `task-refund:suno:${row.id}` })
    expect(await tokenUse(token.id)).toEqual({ remain: 1_000_000, used: 0 })
    // The allowance is back: ten more submits fit in the day.
    expect((await music(key, 'again')).json.code).toBe('success')
  })

  it('a quota window and a model item: the price goes to the window, one request to the item, and both come back', async () => {
    const { user, key, sub } = await setup({ windows: [{ period: 'month', quota: 1_000_000 }], models: [{ pattern: 'chirp-*', requests: 3 }] })
    const submit = await music(key, 'please fail')
    const row = await taskRow(submit.json.data)
    expect(readPlanCharge(row.plan_charge)).toMatchObject({ sub, item: 0 })
    const slots = async () =>
      runInDurableObject(wallet(user.id), (_: UserWallet, state) => {
        const use = state.storage.kv.get<PlanUse>(`P:${sub}`)!
        return { windows: use.windows.map((s) => s.used), items: use.items.map((s) => s.used) }
      })
    expect(await slots()).toEqual({ windows: [PRICE], items: [1] })
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [PRICE], view: [PRICE] })
    upstream.mock.advance(3)
    await Promise.all([pollUnfinishedTasks(env), send(`/suno/fetch/${submit.json.data}`, { key })])
    expect(await slots()).toEqual({ windows: [0], items: [0] })
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [0], view: [0] })
    expect((await ledger(user.id)).quota).toBe(0)
    expect(await refundRows(user.id)).toMatchObject([{ quota: -PRICE, sub }])
  })

  it('a window that rolled over before the failure gets nothing back, and the balance neither', async () => {
    const { user, token, key, sub } = await setup({ windows: [{ period: 'day', requests: 10 }] })
    const submit = await music(key, 'this will fail')
    const row = await taskRow(submit.json.data)
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [1], view: [1] })
    setTestClockOffset({ TEST_CLOCK: '1' }, DAY)
    upstream.mock.advance(3)
    await pollUnfinishedTasks(env)
    await refundFailedTask(env, failedTask(row))
    expect((await send(`/suno/fetch/${submit.json.data}`, { key })).json.data).toMatchObject({ status: 'FAILURE' })
    // Today's window is untouched (not −1), and yesterday's keeps its request.
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [0], view: [0] })
    const rows = await refundRows(user.id)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ quota: 0, sub: 0 })
    expect(rows[0]!.content).toContain('Nothing went back')
    expect(JSON.parse(rows[0]!.metadata)).toMatchObject({ subscription_id: sub, plan_returned: false })
    expect((await ledger(user.id)).quota).toBe(0)
    // The key's quota comes back as for any failed task.
    expect(await tokenUse(token.id)).toEqual({ remain: 1_000_000, used: 0 })
  })

  it('a plan without the balance fallback and no room refuses the submit with 429 plan_quota_exceeded, writing nothing', async () => {
    const { user, key, sub } = await setup({ windows: [{ period: 'day', requests: 1 }], allow_balance_fallback: false }, 1_000_000)
    expect((await music(key, 'first')).json.code).toBe('success')
    await wallet(user.id).flush()
    const before = await env.DB.prepare('SELECT (SELECT COUNT(*) FROM tasks WHERE user_id = ?) AS tasks, (SELECT COUNT(*) FROM logs WHERE user_id = ?) AS logs')
      .bind(user.id, user.id)
      .first()
    const refused = await music(key, 'second')
    expect(refused.status).toBe(429)
    expect(refused.json.code).toBe('plan_quota_exceeded')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(upstream.mock.calls.filter((c) => c.url.endsWith('/suno/submit/music'))).toHaveLength(1)
    await wallet(user.id).flush()
    expect(
      await env.DB.prepare('SELECT (SELECT COUNT(*) FROM tasks WHERE user_id = ?) AS tasks, (SELECT COUNT(*) FROM logs WHERE user_id = ?) AS logs').bind(user.id, user.id).first()
    ).toEqual(before)
    expect((await ledger(user.id)).quota).toBe(1_000_000)
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [1], view: [1] })
  })

  it('a task the plan does not cover is charged to the balance and refunded there as before', async () => {
    const { user, key, sub } = await setup({ windows: [{ period: 'day', requests: 10 }], models: [{ pattern: 'chirp-*', excluded: true }] }, 1_000_000)
    const submit = await music(key, 'this will fail')
    expect((await taskRow(submit.json.data)).plan_charge).toBe('')
    expect((await ledger(user.id)).quota).toBe(1_000_000 - PRICE)
    upstream.mock.advance(3)
    await Promise.all([pollUnfinishedTasks(env), send(`/suno/fetch/${submit.json.data}`, { key })])
    expect((await ledger(user.id)).quota).toBe(1_000_000)
    expect(await refundRows(user.id)).toMatchObject([{ quota: PRICE, sub: 0 }])
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [0], view: [0] })
  })

  it('midjourney: the row written before the settle names the subscription, and a failure gives the request back', async () => {
    await taskFixture({ mj_imagine: 50 }, { key: 'mj-secret', type: 34, models: 'mj_imagine' })
    const user = await createUser({ quota: 0 })
    const token = await createToken(user.id)
    const sub = await createSubscription(user.id, { windows: [{ period: 'day', requests: 5 }], allow_balance_fallback: false })
    const submit = await send('/mj/submit/imagine', { method: 'POST', headers: { 'mj-api-secret': token.key }, json: { prompt: 'please fail' } })
    expect(submit.json.code).toBe(1)
    const row = (await env.DB.prepare('SELECT quota, plan_charge FROM midjourneys WHERE id = ?').bind(Number(submit.json.result)).first<{ quota: number; plan_charge: string }>())!
    expect(row.quota).toBe(PRICE)
    expect(readPlanCharge(row.plan_charge)).toMatchObject({ sub, tz: 'UTC' })
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [1], view: [1] })
    upstream.mock.advance(3)
    await Promise.all([pollUnfinishedTasks(env), send(`/mj/task/${submit.json.result}/fetch`, { headers: { 'mj-api-secret': token.key } })])
    expect(await windowsUsed(user.id, sub)).toEqual({ wallet: [0], view: [0] })
    expect((await ledger(user.id)).quota).toBe(0)
    expect(await refundRows(user.id)).toMatchObject([{ quota: -PRICE, sub }])
  })
})
