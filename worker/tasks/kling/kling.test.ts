/** Kling relay: the JWT test vector, submit shapes and prices, own-task fetches, polling, refunds on refusal and on later failure. */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, ledger, send } from '../../test/factories'
import { setupRoot, signedInUser } from '../../test/client'
import { TASK_START, taskFixture, useTaskUpstream } from '../../test/task-mock'
import { pollUnfinishedTasks } from '../task-poller'
import { taskQueueOf } from '../task-queue'
import { klingJwt } from './kling-auth'
import { applySunoUpdate, type TaskRow } from '../suno/suno-store'
import { LIST_REFRESH_MAX } from '../task-rows'

const upstream = useTaskUpstream()
const START = TASK_START
const STD5 = 'kling-video_kling-v1_std_5'
const PRO10 = 'kling-video_kling-v1_pro_10'

const setup = (channelKey = 'AK|SK') => taskFixture({ [STD5]: 100, [PRO10]: 350 }, { key: channelKey, type: 53, baseUrl: 'https://upstream.test/kling' })

const refundRows = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 4 AND content LIKE 'Kling task%refunded%'").bind(userId).first<number>('n'))!

describe('kling relay', () => {
  it('signs accessKey|secretKey into the reference HS256 JWT', async () => {
    expect(await klingJwt('AK', 'SK', 1_700_000_000)).toBe(
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJleHAiOjE3MDAwMDE4MDAsImlzcyI6IkFLIiwibmJmIjoxNjk5OTk5OTk1fQ.U7T-REDerYjObRglA6IqM4tcqGmGmR9u3Ge9jpgZFWA'
    )
  })

  it('text2video is priced by model, mode and duration, answers the gateway id and is fetched until it succeeds', async () => {
    const { channel, user, key } = await setup()
    const submit = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'a cat surfing', callback_url: 'https://upstream.test/client-cb?job=7' } })
    expect(submit.status).toBe(200)
    expect(submit.json).toMatchObject({ code: 0, data: { task_status: 'submitted' } })
    const id = submit.json.data.task_id as string
    expect(id).toMatch(/^\d+$/)
    const sent = upstream.mock.calls.find((c) => c.url === 'https://upstream.test/kling/v1/videos/text2video')!
    expect(sent.body).toMatchObject({ prompt: 'a cat surfing', model_name: 'kling-v1', mode: 'std', duration: '5' })
    expect(sent.body.callback_url).toBeUndefined()
    expect((await ledger(user.id)).quota).toBe(START - 100_000)

    upstream.mock.advance(1)
    expect((await send(`/kling/v1/videos/text2video/${id}`, { key })).json.data).toMatchObject({ task_id: id, task_status: 'processing' })
    upstream.mock.advance(2)
    const done = await send(`/kling/v1/videos/text2video/${id}`, { key })
    expect(done.json).toMatchObject({ code: 0, data: { task_id: id, task_status: 'succeed' } })
    // The client's callback_url heard each change, in Kling's task shape with the gateway's id.
    const callbacks = upstream.mock.calls.filter((c) => c.url === 'https://upstream.test/client-cb?job=7').map((c) => c.body)
    expect(callbacks.map((b) => [b.task_id, b.task_status])).toEqual([
      [id, 'processing'],
      [id, 'succeed'],
    ])
    expect(callbacks[1].task_result.videos[0].url).toMatch(/\.mp4$/)
    expect(done.json.data.task_result.videos[0].url).toMatch(/\.mp4$/)
    const row = await env.DB.prepare('SELECT platform, action, status, progress, quota FROM tasks WHERE id = ?').bind(Number(id)).first()
    expect(row).toEqual({ platform: 'kling', action: 'text2video', status: 'SUCCESS', progress: '100%', quota: 100_000 })
    // Another action's path, another user: 404.
    expect((await send(`/kling/v1/videos/image2video/${id}`, { key })).status).toBe(404)
    const other = await createToken((await createUser({ quota: START })).id)
    expect((await send(`/kling/v1/videos/text2video/${id}`, { key: other.key })).status).toBe(404)
    expect(await taskQueueOf(env, channel).list()).toHaveLength(1)
    await taskQueueOf(env, channel).pollDue(Date.now() + 20_000)
    expect(await taskQueueOf(env, channel).list()).toEqual([])

    const pro = await send('/kling/v1/videos/image2video', { key, json: { image: 'https://img.example/cat.png', mode: 'pro', duration: '10' } })
    expect(pro.json.code).toBe(0)
    expect((await ledger(user.id)).quota).toBe(START - 450_000)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(l.loggedQuota).toBe(450_000)
  })

  it('validation and refusals: nothing is charged, an error row is written', async () => {
    const { user, key } = await setup()
    expect((await send('/kling/v1/videos/image2video', { key, json: { prompt: 'no image' } })).status).toBe(400)
    expect((await send('/kling/v1/videos/text2video', { key, json: { prompt: 'x', duration: '7' } })).status).toBe(400)
    expect((await send('/kling/v1/videos/text2video', { key, json: { prompt: 'x', model_name: 'kling-v9' } })).json.message).toContain('kling-video_kling-v9_std_5')
    // A callback_url the gateway must not call (cloud metadata, credentials) is refused up front.
    const metadata = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'x', callback_url: 'http://169.254.169.254/latest' } })
    expect(metadata.status).toBe(400)
    expect(metadata.json).toMatchObject({ code: 'invalid_request', data: null })
    expect((await send('/kling/v1/videos/text2video', { key, json: { prompt: 'x', callback_url: 'https://u:p@upstream.test/cb' } })).status).toBe(400)
    // So is one on this machine or the LAN in any notation, and any plain-http one (the users' guard).
    for (const callback_url of [
      'http://upstream.test/cb',
      'https://127.1:2019/stop',
      'https://0x7f000001/',
      'https://[::ffff:127.0.0.1]/',
      'https://localhost./',
      'https://10.0.0.5/',
    ]) {
      const refused = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'x', callback_url } })
      expect(refused.status, callback_url).toBe(400)
      expect(refused.json.message, callback_url).toMatch(/^callback_url must/)
    }
    const banned = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'something banned' } })
    expect(banned.status).toBe(400)
    expect(banned.json).toMatchObject({ code: 'submit_failed', data: null })
    expect(banned.json.message).toContain('sensitive')
    const l = await ledger(user.id)
    expect(l.quota).toBe(START)
    expect(l.consumeLogs).toBe(0)
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND type = 5 AND content LIKE 'Kling refused%'").bind(user.id).first('n')).toBe(1)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tasks WHERE user_id = ?').bind(user.id).first('n')).toBe(0)
  })

  it('a video that fails later is refunded exactly once, whether the queue, the cron or a fetch sees it', async () => {
    const { channel, user, key } = await setup('plain-bearer')
    const submit = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'please fail', callback_url: 'https://upstream.test/fail-cb' } })
    expect(upstream.mock.calls.at(-1)!.key).toBe('plain-bearer')
    const id = submit.json.data.task_id
    upstream.mock.advance(3)
    await Promise.all([taskQueueOf(env, channel).pollDue(Date.now() + 20_000), send(`/kling/v1/videos/text2video/${id}`, { key }), pollUnfinishedTasks(env)])
    const failed = await send(`/kling/v1/videos/text2video/${id}`, { key })
    expect(failed.json.data).toMatchObject({ task_status: 'failed', task_status_msg: 'Mock video failed as requested' })
    expect(await env.DB.prepare('SELECT status, fail_reason FROM tasks WHERE id = ?').bind(Number(id)).first()).toEqual({
      status: 'FAILURE',
      fail_reason: 'Mock video failed as requested',
    })
    expect((await ledger(user.id)).quota).toBe(START)
    expect(await refundRows(user.id)).toBe(1)
    // The client heard of the failure once, from whichever of the three wrote it.
    const heard = upstream.mock.calls.filter((c) => c.url === 'https://upstream.test/fail-cb').map((c) => c.body.task_status)
    expect(heard).toEqual(['failed'])
  })

  it('of two refreshes racing with the same change one writes it and calls the client back', async () => {
    const { key } = await setup()
    const submit = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'two writers', callback_url: 'https://upstream.test/race-cb' } })
    const row = (await env.DB.prepare('SELECT * FROM tasks WHERE id = ?').bind(Number(submit.json.data.task_id)).first<TaskRow>())!
    const wrote: number[] = []
    const change = { status: 'IN_PROGRESS', progress: '50%' }
    await Promise.all([1, 2].map((n) => applySunoUpdate(env, row, change, async () => void wrote.push(n))))
    expect(wrote).toHaveLength(1)
    expect(await env.DB.prepare('SELECT status, progress FROM tasks WHERE id = ?').bind(row.id).first()).toEqual(change)
  })

  it('the console list shows Kling tasks beside Suno ones and filters by platform and action', async () => {
    const root = await setupRoot()
    const alice = await signedInUser('alice')
    const now = Math.floor(Date.now() / 1000)
    for (const [platform, action] of [
      ['kling', 'text2video'],
      ['suno', 'MUSIC'],
    ]) {
      await env.DB.prepare(
        "INSERT INTO tasks (task_id, platform, user_id, channel_id, quota, action, status, submit_time, progress, created_at, updated_at) VALUES (?, ?, ?, 1, 1, ?, 'SUCCESS', ?, '100%', ?, ?)"
      )
        .bind(`up-${platform}`, platform, alice.id, action, now, now, now)
        .run()
    }
    expect((await alice.client.get('/api/task/self')).body.data.total_count).toBe(2)
    expect((await alice.client.get('/api/task/self?platform=kling')).body.data.data.map((r: any) => r.action)).toEqual(['text2video'])
    expect((await alice.client.get('/api/task/self?action=text2video')).body.data.total_count).toBe(1)
    expect((await alice.client.get('/api/task/self?action=music')).body.data.total_count).toBe(1)
    expect((await root.get('/api/task/?platform=kling')).body.data.total_count).toBe(1)
  })

  it('the console list polls a Kling task at most once per 15 s, and a bounded number per call', async () => {
    const { user, key } = await setup()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push((await send('/kling/v1/videos/text2video', { key, json: { prompt: `clip ${i}` } })).json.data.task_id)
    const client = await signedInUser('klinglister')
    await env.DB.prepare('UPDATE tasks SET user_id = ? WHERE user_id = ?').bind(client.id, user.id).run()
    const gets = () => upstream.mock.calls.filter((c) => /\/kling\/v1\/videos\/text2video\/kl-/.test(c.url)).length
    const list = async () => (await client.client.get('/api/task/self?page_size=100')).body.data.data as any[]
    /** Rows as if nobody had polled them for `seconds`. */
    const age = (seconds: number) => env.DB.prepare('UPDATE tasks SET updated_at = updated_at - ? WHERE user_id = ?').bind(seconds, client.id).run()

    // Just submitted: not due yet (the queue polls them in 15 s).
    await list()
    expect(gets()).toBe(0)
    await age(20)
    upstream.mock.advance(1)
    const first = await list()
    expect(gets()).toBe(3)
    expect(first.map((r) => r.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS'])
    // A second list right away shows the same rows without asking the upstream again.
    const second = await list()
    expect(gets()).toBe(3)
    expect(second.map((r) => r.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS', 'IN_PROGRESS'])
    // Once 15 s have passed they are due again.
    await age(15)
    upstream.mock.advance(2)
    expect((await list()).map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS'])
    expect(gets()).toBe(6)
    // A page of many open tasks is refreshed LIST_REFRESH_MAX at a time, the longest unpolled first.
    const now = Math.floor(Date.now() / 1000)
    for (let i = 0; i < LIST_REFRESH_MAX + 5; i++) {
      await env.DB.prepare(
        "INSERT INTO tasks (task_id, platform, user_id, channel_id, quota, action, status, submit_time, progress, created_at, updated_at) VALUES (?, 'kling', ?, (SELECT channel_id FROM tasks WHERE user_id = ? LIMIT 1), 1, 'text2video', 'SUBMITTED', ?, '0%', ?, ?)"
      )
        .bind(`kl-gone-${i}`, client.id, client.id, now, now - 60, now - 60)
        .run()
    }
    const before = gets()
    await list()
    expect(gets() - before).toBe(LIST_REFRESH_MAX)
    // The next call takes the five left over, and the one after that has nothing due.
    await list()
    expect(gets() - before).toBe(LIST_REFRESH_MAX + 5)
    await list()
    expect(gets() - before).toBe(LIST_REFRESH_MAX + 5)
    // The queue stamps what it polls too, so a list right after a queue pass leaves those rows alone.
    await age(60)
    const open = (await env.DB.prepare("SELECT id, channel_id FROM tasks WHERE user_id = ? AND progress != '100%'").bind(client.id).all<{ id: number; channel_id: number }>())
      .results
    const queue = taskQueueOf(env, open[0]!.channel_id)
    await queue.track(
      'kling',
      open.map((r) => r.id)
    )
    await queue.pollDue(Date.now() + 20_000)
    const afterQueue = gets()
    expect(afterQueue - before).toBe(2 * (LIST_REFRESH_MAX + 5)) // the queue polled all 25
    await list()
    expect(gets()).toBe(afterQueue)
  })
})
