/** Suno relay: submit shapes and prices, own-task fetches, refunds on refusal and on later FAILURE. */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, ledger, send } from '../../test/factories'
import { TASK_START, taskFixture, useTaskUpstream } from '../../test/task-mock'
import { pollUnfinishedTasks } from '../task-poller'

const upstream = useTaskUpstream()
const START = TASK_START

const setup = () => taskFixture({ 'chirp-v3-0': 50, 'chirp-v3-5': 60, suno_lyrics: 5 }, { key: 'suno-key', type: 41 })

describe('suno relay', () => {
  it('music is priced by its mv, fetched until SUCCESS with the upstream user_id removed', async () => {
    const { user, key } = await setup()
    const submit = await send('/suno/submit/music', { key, json: { prompt: 'a song about rain', tags: 'pop', title: 'Rain' } })
    expect(submit.status).toBe(200)
    expect(submit.json).toMatchObject({ code: 'success', message: '' })
    const id = submit.json.data
    expect(id).toMatch(/^\d+$/)
    expect(upstream.mock.calls.at(-1)!.body).toMatchObject({ prompt: 'a song about rain', mv: 'chirp-v3-0' })
    expect((await ledger(user.id)).quota).toBe(START - 50_000)
    const v35 = await send('/suno/submit/MUSIC', { key, json: { gpt_description_prompt: 'jazz', mv: 'chirp-v3-5' } })
    expect(v35.json.code).toBe('success')
    expect((await ledger(user.id)).quota).toBe(START - 110_000)

    const early = await send(`/suno/fetch/${id}`, { key })
    expect(early.json.data).toMatchObject({ task_id: id, action: 'MUSIC', status: 'SUBMITTED' })
    upstream.mock.advance(3)
    const done = await send(`/suno/fetch/${id}`, { key })
    expect(done.json.data).toMatchObject({ task_id: id, status: 'SUCCESS', progress: '100%' })
    expect(done.json.data.data).toHaveLength(2)
    expect(done.json.data.data[0].audio_url).toContain('.mp3')
    expect(done.text).not.toContain('upstream-user-123')
    const batch = await send('/suno/fetch', { key, json: { ids: [id, v35.json.data, 'nope'] } })
    expect(batch.json.data.map((t: any) => t.task_id)).toEqual([id, v35.json.data])
  })

  it('lyrics cost suno_lyrics and need a prompt; another user gets 404', async () => {
    const { user, key } = await setup()
    const missing = await send('/suno/submit/lyrics', { key, json: {} })
    expect(missing.status).toBe(400)
    expect(missing.json).toMatchObject({ code: 'invalid_request', data: null })
    expect((await send('/suno/submit/video', { key, json: {} })).status).toBe(400)
    const lyrics = await send('/suno/submit/lyrics', { key, json: { prompt: 'the sea' } })
    expect(lyrics.json.code).toBe('success')
    expect((await ledger(user.id)).quota).toBe(START - 5_000)
    upstream.mock.advance(3)
    const done = await send(`/suno/fetch/${lyrics.json.data}`, { key })
    expect(done.json.data.data.text).toContain('the sea')
    const other = await createToken((await createUser({ quota: START })).id)
    const peek = await send(`/suno/fetch/${lyrics.json.data}`, { key: other.key })
    expect(peek.status).toBe(404)
    expect(peek.json.code).toBe('task_not_exist')
    expect((await send('/suno/fetch', { key: other.key, json: { ids: [lyrics.json.data] } })).json.data).toEqual([])
  })

  it('a refused submit is refunded; a later FAILURE is refunded once by whoever sees it first', async () => {
    const { user, key } = await setup()
    const refused = await send('/suno/submit/music', { key, json: { prompt: 'banned words' } })
    expect(refused.status).toBe(400)
    expect(refused.json.code).toBe('submit_failed')
    const l0 = await ledger(user.id)
    expect(l0.quota).toBe(START)
    expect(l0.consumeLogs).toBe(0)

    const failing = await send('/suno/submit/music', { key, json: { prompt: 'this will fail' } })
    expect((await ledger(user.id)).quota).toBe(START - 50_000)
    upstream.mock.advance(3)
    await Promise.all([pollUnfinishedTasks(env), send(`/suno/fetch/${failing.json.data}`, { key }), send('/suno/fetch', { key, json: { ids: [failing.json.data] } })])
    await pollUnfinishedTasks(env)
    const row = await send(`/suno/fetch/${failing.json.data}`, { key })
    expect(row.json.data).toMatchObject({ status: 'FAILURE', progress: '100%', fail_reason: 'Mock generation failed as requested' })
    expect((await ledger(user.id)).quota).toBe(START)
    const refunds = await env.DB.prepare("SELECT COUNT(*) AS n, SUM(quota) AS q FROM logs WHERE user_id = ? AND type = 4 AND content LIKE '%refunded%'").bind(user.id).first<any>()
    expect(refunds).toEqual({ n: 1, q: 50_000 })
  })
})
