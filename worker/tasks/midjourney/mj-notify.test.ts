/** Midjourney notify callbacks (secret check, same update path as the poller, forwarding), the image proxy and fast → relax. */
import { env } from 'cloudflare:workers'
import { runInDurableObject } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, ledger, send } from '../../test/factories'
import { MOCK_PNG, TASK_START, taskFixture, useTaskUpstream } from '../../test/task-mock'
import { saveOptions } from '../../settings/store'
import { taskQueueOf } from '../task-queue'
import { applyMjUpdate, wroteUpdate, type MjRow, type MjUpstreamTask } from './mj-store'
import type { TaskQueue } from '../task-queue.do'

const upstream = useTaskUpstream()
const START = TASK_START

const setup = () => taskFixture({ mj_imagine: 50, mj_relax_imagine: 30 }, { key: 'mj-secret', type: 34 })

const mj = (path: string, key: string, json?: unknown) => send(path, { method: json === undefined ? 'GET' : 'POST', headers: { 'mj-api-secret': key }, json })
const row = (id: string) => env.DB.prepare('SELECT status, progress, image_url, fail_reason FROM midjourneys WHERE id = ?').bind(Number(id)).first<any>()
const listCalls = () => upstream.mock.calls.filter((c) => c.url.endsWith('/list-by-condition')).length
const refundRows = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 4 AND content LIKE '%refunded%'").bind(userId).first<number>('n'))!

/** Deliver what the mock would have POSTed to the gateway's hook (its path and query, in this test's worker). */
async function deliver(notify: { hook: string; body: unknown }, override?: (url: URL) => void) {
  const url = new URL(notify.hook)
  override?.(url)
  return send(`${url.pathname}${url.search}`, { method: 'POST', json: notify.body })
}

describe('midjourney notify callback', () => {
  it('a wrong or missing secret is refused (403) and changes nothing; the right one updates the task at once, without polling', async () => {
    const { user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'a lighthouse' })
    const id = submit.json.result as string
    upstream.mock.advance(3)
    const due = upstream.mock.dueNotifies()
    expect(due).toHaveLength(2)
    const final = due.at(-1)!
    expect(final.hook).toContain(`/mj/notify/${id}?secret=`)

    const wrong = await deliver(final, (u) => u.searchParams.set('secret', 'x'.repeat(32)))
    expect(wrong.status).toBe(403)
    const missing = await deliver(final, (u) => u.searchParams.delete('secret'))
    expect(missing.status).toBe(403)
    const otherTask = await deliver(final, (u) => (u.pathname = `/mj/notify/${Number(id) + 1}`))
    expect(otherTask.status).toBe(403)
    expect(await row(id)).toMatchObject({ status: 'SUBMITTED', progress: '0%' })

    const calls = listCalls()
    const ok = await deliver(final)
    expect(ok.status).toBe(200)
    expect(await row(id)).toMatchObject({ status: 'SUCCESS', progress: '100%' })
    expect(listCalls()).toBe(calls)
    // A client fetch now reads the finished row without asking the upstream.
    expect((await mj(`/mj/task/${id}/fetch`, key)).json).toMatchObject({ status: 'SUCCESS' })
    expect(listCalls()).toBe(calls)
    expect((await ledger(user.id)).quota).toBe(START - 50_000)
  })

  it('a failure reported by notify while the queue polls and the client fetches is refunded exactly once', async () => {
    const { channel, user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'please fail' })
    const id = submit.json.result as string
    upstream.mock.advance(3)
    const final = upstream.mock.dueNotifies().at(-1)!
    const queue = taskQueueOf(env, channel)
    expect((await queue.list()).map((e) => e.id)).toEqual([Number(id)])
    const results = await Promise.all([deliver(final), queue.pollDue(Date.now() + 20_000), mj(`/mj/task/${id}/fetch`, key), deliver(final), queue.pollDue(Date.now() + 20_000)])
    expect((results[0] as any).status).toBe(200)
    expect(await row(id)).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Mock job failed as requested' })
    await deliver(final)
    await queue.pollDue(Date.now() + 120_000)
    expect((await ledger(user.id)).quota).toBe(START)
    expect(await refundRows(user.id)).toBe(1)
    expect(await queue.list()).toEqual([])
  })

  it("forwards the update to the client's own hook when MjNotifyEnabled is on, and refuses a hook on a link-local address", async () => {
    const { key } = await setup()
    await saveOptions(env, { MjNotifyEnabled: 'true', MjImageProxy: 'gateway' })
    const bad = await mj('/mj/submit/imagine', key, { prompt: 'x', notifyHook: 'http://169.254.169.254/latest' })
    expect(bad.status).toBe(400)
    expect(bad.json.code).toBe(4)
    const loopback = await mj('/mj/submit/imagine', key, { prompt: 'x', notifyHook: 'https://2130706433:2019/stop' })
    expect(loopback.status).toBe(400)
    expect(loopback.json.description).toMatch(/^notifyHook: must not point at a loopback address/)
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'a harbour', notifyHook: 'https://upstream.test/client-hook?job=7' })
    const id = submit.json.result as string
    const sent = upstream.mock.calls.find((c) => c.url.endsWith('/mj/submit/imagine'))!
    expect(sent.body.notifyHook).not.toContain('client-hook')
    for (const steps of [1, 2]) {
      upstream.mock.advance(steps)
      for (const n of upstream.mock.dueNotifies()) expect((await deliver(n)).status).toBe(200)
    }
    const forwarded = upstream.mock.calls.filter((c) => c.url === 'https://upstream.test/client-hook?job=7')
    expect(forwarded.map((f) => f.body.status)).toEqual(['IN_PROGRESS', 'SUCCESS'])
    expect(forwarded[1]!.body).toMatchObject({ id, progress: '100%' })
    expect(forwarded[1]!.body.imageUrl).toMatch(new RegExp(`^http://gateway\\.test/mj/image/${id}\\?exp=\\d+&sig=`))
    expect(JSON.stringify(forwarded)).not.toContain('discordapp')
  })
})

describe('client hook without the upstream callback', () => {
  it('the queue forwards the changes it finds to the client hook (MjNotifyEnabled on), and nothing when it is off', async () => {
    const { channel, key } = await setup()
    await saveOptions(env, { MjNotifyEnabled: 'true', MjImageProxy: 'gateway' })
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'lost callbacks', notifyHook: 'https://upstream.test/client-hook' })
    const queue = taskQueueOf(env, channel)
    const forwarded = () => upstream.mock.calls.filter((c) => c.url === 'https://upstream.test/client-hook').map((c) => c.body)
    upstream.mock.advance(1)
    await queue.pollDue(Date.now() + 15_000)
    upstream.mock.advance(2)
    await queue.pollDue(Date.now() + 60_000)
    expect(forwarded().map((b) => b.status)).toEqual(['IN_PROGRESS', 'SUCCESS'])
    expect(forwarded()[1]).toMatchObject({ id: submit.json.result })
    expect(forwarded()[1].imageUrl).toMatch(/^http:\/\/gateway\.test\/mj\/image\//)

    // Switched off after the submit: the queue forwards nothing.
    await mj('/mj/submit/imagine', key, { prompt: 'quiet one', notifyHook: 'https://upstream.test/client-hook' })
    await saveOptions(env, { MjNotifyEnabled: 'false' })
    upstream.mock.advance(3)
    await queue.pollDue(Date.now() + 60_000)
    expect(forwarded()).toHaveLength(2)
  })
})

describe('one writer per change', () => {
  it('of two updates racing with the same change one writes it (and would forward it); the other reads it back', async () => {
    const { key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'two writers' })
    const read = () => env.DB.prepare('SELECT * FROM midjourneys WHERE id = ?').bind(Number(submit.json.result)).first<MjRow>()
    const changes: MjUpstreamTask[] = [
      { status: 'IN_PROGRESS', progress: '50%' },
      { status: 'SUCCESS', progress: '100%', imageUrl: 'https://upstream.test/img/x.png' },
    ]
    for (const change of changes) {
      const row = (await read())!
      const results = await Promise.all([applyMjUpdate(env, row, change), applyMjUpdate(env, row, change)])
      expect(results.filter(wroteUpdate)).toHaveLength(1)
      expect(results.map((r) => r.status)).toEqual([change.status, change.status])
    }
  })
})

describe('midjourney image proxy', () => {
  it('off by default; gateway mode serves signed links and the owner key; worker mode signs links to the Worker', async () => {
    const { user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'a bridge' })
    const id = submit.json.result as string
    upstream.mock.advance(3)
    const plain = await mj(`/mj/task/${id}/fetch`, key)
    expect(plain.json.imageUrl).toContain('cdn.discordapp.com')
    await env.DB.prepare('UPDATE midjourneys SET image_url = ? WHERE id = ?').bind('https://upstream.test/img/bridge.png?ex=1&is=2', Number(id)).run()

    await saveOptions(env, { MjImageProxy: 'gateway' })
    const fetched = await mj(`/mj/task/${id}/fetch`, key)
    const link = new URL(fetched.json.imageUrl)
    expect(link.pathname).toBe(`/mj/image/${id}`)
    const listed = await mj('/mj/task/list-by-condition', key, { ids: [id] })
    expect(listed.json[0].imageUrl).toMatch(/\/mj\/image\//)
    const image = await send(`${link.pathname}${link.search}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect(new TextEncoder().encode(image.text).length).toBeGreaterThan(0)
    const byKey = await mj(`/mj/image/${id}`, key)
    expect(byKey.status).toBe(200)
    // An image link (or a redirect from it) to a link-local address is never fetched.
    await env.DB.prepare('UPDATE midjourneys SET image_url = ? WHERE id = ?').bind('https://upstream.test/redirect-to-metadata', Number(id)).run()
    expect((await mj(`/mj/image/${id}`, key)).status).toBe(502)
    expect(upstream.mock.calls.some((c) => c.url.includes('169.254'))).toBe(false)
    await env.DB.prepare('UPDATE midjourneys SET image_url = ? WHERE id = ?').bind('https://upstream.test/img/bridge.png?ex=1&is=2', Number(id)).run()
    link.searchParams.set('sig', 'A'.repeat(22))
    expect((await send(`${link.pathname}${link.search}`)).status).toBe(403)
    expect((await send(`/mj/image/${id}?exp=1&sig=${new URL(fetched.json.imageUrl).searchParams.get('sig')}`)).status).toBe(403)
    const stranger = await createToken((await createUser({ quota: START })).id)
    expect((await mj(`/mj/image/${id}`, stranger.key)).status).toBe(404)
    expect((await send(`/mj/image/${id}`)).status).toBe(401)

    // The Worker mode without its URL falls back to the gateway's links, never the upstream's.
    await saveOptions(env, { MjImageProxy: 'worker', CFWorkerImageKey: 'worker-key' })
    expect((await mj(`/mj/task/${id}/fetch`, key)).json.imageUrl).toMatch(/^http:\/\/gateway\.test\/mj\/image\//)
    await saveOptions(env, { MjImageProxy: 'worker', CFWorkerImageUrl: 'https://img.example.com/proxy', CFWorkerImageKey: 'worker-key' })
    const viaWorker = new URL((await mj(`/mj/task/${id}/fetch`, key)).json.imageUrl)
    expect(viaWorker.origin + viaWorker.pathname).toBe('https://img.example.com/proxy')
    expect(viaWorker.searchParams.get('url')).toBe('https://upstream.test/img/bridge.png?ex=1&is=2')
    expect(viaWorker.searchParams.get('sig')).toMatch(/^[A-Za-z0-9]{22}$/)
    expect(viaWorker.href).not.toContain('worker-key')
    expect(MOCK_PNG.length).toBeGreaterThan(0)
    expect((await ledger(user.id)).quota).toBe(START - 50_000)
  })
})

describe('fast → relax fallback', () => {
  it('off by default: code 3 in fast mode is refunded and answered as it is', async () => {
    const { user, key } = await setup()
    const res = await mj('/mj/submit/imagine', key, { prompt: 'nofast please' })
    expect(res.json).toMatchObject({ code: 3, result: null })
    expect((await ledger(user.id)).quota).toBe(START)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM midjourneys WHERE user_id = ?').bind(user.id).first('n')).toBe(0)
  })

  it('on: the task is sent again in relax mode and billed the relax price, once', async () => {
    const { user, key } = await setup()
    await saveOptions(env, { MjFastFallbackRelax: 'true' })
    const res = await mj('/mj/submit/imagine', key, { prompt: 'nofast please' })
    expect(res.json.code).toBe(1)
    const submits = upstream.mock.calls.filter((c) => c.url.endsWith('/mj/submit/imagine'))
    expect(submits.map((c) => c.body.accountFilter.modes[0])).toEqual(['FAST', 'RELAX'])
    const stored = await env.DB.prepare('SELECT mode, quota, status FROM midjourneys WHERE user_id = ?').bind(user.id).all<any>()
    expect(stored.results).toEqual([{ mode: 'relax', quota: 30_000, status: 'SUBMITTED' }])
    const l = await ledger(user.id)
    expect(l.quota).toBe(START - 30_000)
    expect(l.consumeLogs).toBe(1)
    expect(l.loggedQuota).toBe(30_000)
    // A follow-up action stays in the task's (relax) mode.
    upstream.mock.advance(3)
    const fetched = await mj(`/mj/task/${res.json.result}/fetch`, key)
    expect(fetched.json.mode).toBe('relax')
  })
})

describe('task queue', () => {
  it('polls due tasks with backoff 15 s → 30 s → 60 s and drops finished ones; the cron re-arms stragglers only', async () => {
    const { channel, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'slow boat' })
    const id = Number(submit.json.result)
    const queue = taskQueueOf(env, channel)
    const intervals = async () => (await queue.list()).map((e) => e.interval)
    expect(await intervals()).toEqual([15_000])
    upstream.mock.advance(1)
    // Changed (SUBMITTED → IN_PROGRESS): asked again after 15 s; unchanged: 30 s, then 60 s, capped.
    await queue.pollDue(Date.now() + 15_000)
    expect(await intervals()).toEqual([15_000])
    await queue.pollDue(Date.now() + 31_000)
    expect(await intervals()).toEqual([30_000])
    await queue.pollDue(Date.now() + 62_000)
    expect(await intervals()).toEqual([60_000])
    await queue.pollDue(Date.now() + 124_000)
    expect(await intervals()).toEqual([60_000])
    // Not due yet: nothing is asked.
    const calls = listCalls()
    expect((await queue.pollDue(Date.now())).polled).toBe(0)
    expect(listCalls()).toBe(calls)
    expect(await runInDurableObject(queue, async (_i: TaskQueue, state) => (await state.storage.getAlarm()) !== null)).toBe(true)

    const { pollUnfinishedTasks } = await import('../task-poller')
    expect((await pollUnfinishedTasks(env)).rearmed).toBe(0)
    await runInDurableObject(queue, (_i: TaskQueue, state) => state.storage.kv.delete(`t:mj:${id}`))
    expect((await pollUnfinishedTasks(env)).rearmed).toBe(1)
    expect((await queue.list()).map((e) => e.id)).toEqual([id])

    upstream.mock.advance(600)
    await queue.pollDue(Date.now() + 200_000)
    expect(await queue.list()).toEqual([])
    expect(await row(String(id))).toMatchObject({ status: 'SUCCESS' })
  })

  it('the cron deletes a held row a submit never opened, and only such rows', async () => {
    const { user, key } = await setup()
    const live = await mj('/mj/submit/imagine', key, { prompt: 'kept' })
    const old = Date.now() - 11 * 60_000
    await env.DB.prepare(
      "INSERT INTO midjourneys (user_id, action, submit_time, status, progress, channel_id, quota, mode) VALUES (?, 'IMAGINE', ?, 'NOT_START', '100%', 1, 0, 'fast'), (?, 'IMAGINE', ?, 'NOT_START', '100%', 1, 0, 'fast')"
    )
      .bind(user.id, old, user.id, Date.now())
      .run()
    const { pollUnfinishedTasks } = await import('../task-poller')
    await pollUnfinishedTasks(env)
    const left = await env.DB.prepare('SELECT id, submit_time < ? AS stale FROM midjourneys WHERE user_id = ? ORDER BY id')
      .bind(old + 1, user.id)
      .all<{ id: number; stale: number }>()
    expect(left.results.map((r) => r.stale)).toEqual([0, 0])
    expect(left.results[0]!.id).toBe(Number(live.json.result))
  })

  it('the queue fails and refunds a task past the 1 h timeout', async () => {
    const { channel, user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'slow' })
    await env.DB.prepare('UPDATE midjourneys SET submit_time = ? WHERE id = ?')
      .bind(Date.now() - 61 * 60_000, Number(submit.json.result))
      .run()
    await taskQueueOf(env, channel).pollDue(Date.now() + 20_000)
    expect(await row(submit.json.result)).toMatchObject({ status: 'FAILURE', progress: '100%' })
    expect((await ledger(user.id)).quota).toBe(START)
    expect(await refundRows(user.id)).toBe(1)
    expect(await taskQueueOf(env, channel).list()).toEqual([])
  })
})
