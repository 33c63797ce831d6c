/** Midjourney relay: routes, id mapping, per-action prices, refunds on refusal and on later FAILURE, timeout. */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../../test/factories'
import { TASK_START, taskFixture, useTaskUpstream } from '../../test/task-mock'
import { pollUnfinishedTasks } from '../task-poller'
import { stripModeFlags } from './mj-submit'

const upstream = useTaskUpstream()
const START = TASK_START
const MODELS = 'mj_imagine,mj_upscale,mj_variation,mj_relax_imagine,mj_describe'

const setup = (channelKey = 'mj-secret') => taskFixture({ mj_imagine: 50, mj_upscale: 25, mj_variation: 50, mj_relax_imagine: 30 }, { key: channelKey, type: 34, models: MODELS })

const mj = (path: string, key: string, json?: unknown) => send(path, { method: json === undefined ? 'GET' : 'POST', headers: { 'mj-api-secret': key }, json })

const refundLogs = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ? AND type = 4 AND content LIKE '%refunded%'")
    .bind(userId)
    .first<{ n: number; q: number }>())!

describe('midjourney relay', () => {
  it('imagine is charged mj_imagine, answers the gateway id and fetches until SUCCESS; upscale via action is charged mj_upscale', async () => {
    const { channel, user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'a red fox --fast', notifyHook: 'http://evil.test/hook' })
    expect(submit.status).toBe(200)
    expect(submit.json.code).toBe(1)
    const id = submit.json.result as string
    expect(id).toMatch(/^\d+$/)
    const [upstreamTask] = [...upstream.mock.store.mj.values()]
    expect(upstreamTask.id).not.toBe(id)
    const sent = upstream.mock.calls.find((c) => c.url.endsWith('/mj/submit/imagine'))!
    expect(sent.body).toMatchObject({ prompt: 'a red fox', accountFilter: { modes: ['FAST'] } })
    // The upstream gets the gateway's own hook with a per-task secret, never the client's.
    expect(sent.body.notifyHook).toMatch(new RegExp(`^http://gateway\\.test/mj/notify/${id}\\?secret=[A-Za-z0-9]{32}$`))
    expect((await ledger(user.id)).quota).toBe(START - 50_000)

    const running = await mj(`/mj/task/${id}/fetch`, key)
    expect(running.json).toMatchObject({ id, action: 'IMAGINE', status: 'SUBMITTED', progress: '0%' })
    upstream.mock.advance(3)
    const done = await mj(`/mj/task/${id}/fetch`, key)
    expect(done.json).toMatchObject({ id, status: 'SUCCESS', progress: '100%' })
    expect(done.json.imageUrl).toContain('.png')
    const button = done.json.buttons.find((b: any) => b.label === 'U2')

    const upscale = await mj('/mj/submit/action', key, { taskId: id, customId: button.customId })
    expect(upscale.json.code).toBe(1)
    const forwarded = upstream.mock.calls.find((c) => c.url.endsWith('/mj/submit/action'))!
    expect(forwarded.body.taskId).toBe(upstreamTask.id)
    const row = await env.DB.prepare('SELECT action, quota, channel_id FROM midjourneys WHERE id = ?').bind(Number(upscale.json.result)).first<any>()
    expect(row).toEqual({ action: 'UPSCALE', quota: 25_000, channel_id: channel })
    const l = await ledger(user.id)
    expect(l.quota).toBe(START - 75_000)
    expect(l.consumeLogs).toBe(2)
    expect(l.loggedQuota).toBe(75_000)

    const list = await mj('/mj/task/list-by-condition', key, { ids: [id, upscale.json.result, 'x'] })
    expect(list.json.map((t: any) => t.id)).toEqual([id, upscale.json.result])
    const seed = await mj(`/mj/task/${id}/image-seed`, key)
    expect(seed.json.code).toBe(1)
  })

  it('accepts the key in Authorization, the relax prefix prices mj_relax_*, and change/simple-change map the action', async () => {
    const { user, key } = await setup()
    const relax = await send('/mj-relax/mj/submit/imagine', { key, json: { prompt: 'calm lake' } })
    expect(relax.json.code).toBe(1)
    expect(upstream.mock.calls.at(-1)!.body.accountFilter.modes).toEqual(['RELAX'])
    expect((await ledger(user.id)).quota).toBe(START - 30_000)
    const first = await mj('/mj/submit/imagine', key, { prompt: 'storm' })
    upstream.mock.advance(3)
    const change = await mj('/mj/submit/change', key, { taskId: first.json.result, action: 'VARIATION', index: 2 })
    expect(change.json.code).toBe(1)
    const simple = await mj('/mj/submit/simple-change', key, { content: `${first.json.result} U1` })
    expect(simple.json.code).toBe(1)
    const rows = await env.DB.prepare('SELECT action, quota FROM midjourneys WHERE user_id = ? ORDER BY id').bind(user.id).all<any>()
    expect(rows.results).toEqual([
      { action: 'IMAGINE', quota: 30_000 },
      { action: 'IMAGINE', quota: 50_000 },
      { action: 'VARIATION', quota: 50_000 },
      { action: 'UPSCALE', quota: 25_000 },
    ])
  })

  it('mode flags are stripped in every dash form, anywhere and in any case, so a relax price never runs turbo', async () => {
    const cases: [string, string][] = [
      ['a cat --turbo', 'a cat'],
      ['a cat \u2014turbo', 'a cat'], // em dash
      ['a cat \u2013turbo', 'a cat'], // en dash
      ['a cat \u2014-turbo', 'a cat'], // em dash + hyphen
      ['a cat -\u2014turbo', 'a cat'],
      ['a cat \u2212turbo', 'a cat'], // minus sign
      ['a cat \uFF0D\uFF0Dfast', 'a cat'], // full-width hyphen-minus
      ['a cat---relax', 'a cat'],
      ['--FAST a cat', 'a cat'],
      ['\u2014Relax a cat', 'a cat'],
      ['a --turbo cat', 'a cat'],
      ['a \u2014TURBO cat \u2013fast --relax', 'a cat'],
      ['a cat\u2014turbo', 'a cat'], // no space before it
      ['a cat--turbo--ar 2:3', 'a cat --ar 2:3'],
      ['a cat --ar 2:3 \u2014turbo --stylize 50', 'a cat --ar 2:3 --stylize 50'],
    ]
    for (const [prompt, stripped] of cases) expect(stripModeFlags(prompt), prompt).toBe(stripped)
    // Words that only contain a mode's name, and single ASCII hyphens, stay.
    for (const kept of ['fast-food --fastest', 'well-relaxed turbocharged', 'a cat -turbo']) expect(stripModeFlags(kept), kept).toBe(kept)

    const { user, key } = await setup()
    const relax = await send('/mj-relax/mj/submit/imagine', { key, json: { prompt: 'a cat \u2014turbo, at dusk\u2013FAST' } })
    expect(relax.json.code).toBe(1)
    const sent = upstream.mock.calls.at(-1)!.body
    expect(sent.prompt).toBe('a cat, at dusk')
    expect(sent.accountFilter.modes).toEqual(['RELAX'])
    expect((await ledger(user.id)).quota).toBe(START - 30_000)
  })

  it('upload-discord-images answers the upstream URLs, is stored as a finished UPLOAD and costs its (zero) price', async () => {
    const { user, key } = await setup()
    await setPrice('mj_upload', 0, 0, 'times')
    await createChannel({ key: 'mj-upload', type: 34, models: 'mj_upload' })
    const res = await mj('/mj/submit/upload-discord-images', key, { base64Array: ['data:image/png;base64,AAAA', 'data:image/png;base64,BBBB'] })
    expect(res.json.code).toBe(1)
    expect(res.json.result).toHaveLength(2)
    expect(res.json.result[0]).toMatch(/^https:\/\/cdn\.discordapp\.com\//)
    const row = await env.DB.prepare('SELECT action, status, progress, quota, mj_id FROM midjourneys WHERE user_id = ?').bind(user.id).first<any>()
    expect(row).toEqual({ action: 'UPLOAD', status: 'SUCCESS', progress: '100%', quota: 0, mj_id: '' })
    const l = await ledger(user.id)
    expect(l.quota).toBe(START)
    expect(l.consumeLogs).toBe(1)
  })

  it('another user cannot fetch, list or act on a task (404); unknown keys are refused', async () => {
    const { key } = await setup()
    const other = await createToken((await createUser({ quota: START })).id)
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'mine' })
    upstream.mock.advance(3)
    const peek = await mj(`/mj/task/${submit.json.result}/fetch`, other.key)
    expect(peek.status).toBe(404)
    expect(peek.json).toMatchObject({ code: 3, result: null })
    expect((await mj('/mj/task/list-by-condition', other.key, { ids: [submit.json.result] })).json).toEqual([])
    expect((await mj('/mj/submit/change', other.key, { taskId: submit.json.result, action: 'UPSCALE', index: 1 })).status).toBe(404)
    const bad = await mj('/mj/submit/imagine', 'sk-not-a-key', { prompt: 'x' })
    expect(bad.status).toBe(401)
    expect(bad.json.code).toBe(9)
  })

  it('validation errors answer code 4; an unpriced action is refused before anything is held', async () => {
    const { user, key } = await setup()
    const missing = await mj('/mj/submit/imagine', key, {})
    expect(missing.status).toBe(400)
    expect(missing.json.code).toBe(4)
    expect((await mj('/mj/submit/change', key, { taskId: '1', action: 'ZOOM', index: 9 })).json.code).toBe(4)
    const unpriced = await mj('/mj/submit/describe', key, { base64: 'data:image/png;base64,AAAA' })
    expect(unpriced.status).toBe(400)
    expect(unpriced.json.description).toContain('mj_describe')
    expect((await ledger(user.id)).quota).toBe(START)
  })

  it('a refused submit (banned prompt, upstream 401) is refunded with an error row and no charge', async () => {
    const { user, key } = await setup()
    const banned = await mj('/mj/submit/imagine', key, { prompt: 'something banned' })
    expect(banned.status).toBe(200)
    expect(banned.json).toMatchObject({ code: 24, result: null })
    await createChannel({ key: 'mock-401', type: 34, models: 'mj_describe', priority: 5 })
    await setPrice('mj_describe', 25, 0, 'times')
    const unauthorized = await mj('/mj/submit/describe', key, { base64: 'data:image/png;base64,AAAA' })
    expect(unauthorized.status).toBe(502)
    expect(unauthorized.json).toMatchObject({ code: 9, result: null })
    const l = await ledger(user.id)
    expect(l.quota).toBe(START)
    expect(l.consumeLogs).toBe(0)
    const errors = await env.DB.prepare('SELECT content FROM logs WHERE user_id = ? AND type = 5 ORDER BY id').bind(user.id).all<{ content: string }>()
    expect(errors.results.map((r) => r.content)).toEqual([expect.stringContaining('code 24'), expect.stringContaining('HTTP 401')])
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM midjourneys WHERE user_id = ?').bind(user.id).first('n')).toBe(0)
  })

  it('a task that FAILS later is refunded exactly once, however fetches and the poller race', async () => {
    const { user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'please fail' })
    expect((await ledger(user.id)).quota).toBe(START - 50_000)
    upstream.mock.advance(3)
    const id = submit.json.result
    const results = await Promise.all([
      mj(`/mj/task/${id}/fetch`, key),
      mj(`/mj/task/${id}/fetch`, key),
      pollUnfinishedTasks(env),
      mj('/mj/task/list-by-condition', key, { ids: [id] }),
    ])
    expect((results[0] as any).json).toMatchObject({ status: 'FAILURE', progress: '100%', failReason: 'Mock job failed as requested' })
    await pollUnfinishedTasks(env)
    await mj(`/mj/task/${id}/fetch`, key)
    const l = await ledger(user.id)
    expect(l.quota).toBe(START)
    expect(await refundLogs(user.id)).toEqual({ n: 1, q: 50_000 })
    // The refund also leaves the used quotas and goes back to the key's remaining quota.
    expect(l.used_quota).toBe(0)
    const token = await env.DB.prepare('SELECT remain_quota, used_quota FROM tokens WHERE user_id = ?').bind(user.id).first<{ remain_quota: number; used_quota: number }>()
    expect(token!.used_quota).toBe(0)
  })

  it('the poller fails and refunds a task past the 1 h timeout', async () => {
    const { user, key } = await setup()
    const submit = await mj('/mj/submit/imagine', key, { prompt: 'slow' })
    await env.DB.prepare('UPDATE midjourneys SET submit_time = ? WHERE id = ?')
      .bind(Date.now() - 61 * 60_000, Number(submit.json.result))
      .run()
    expect(await pollUnfinishedTasks(env)).toEqual({ mj: 1, suno: 0, rearmed: 0 })
    const row = await mj(`/mj/task/${submit.json.result}/fetch`, key)
    expect(row.json).toMatchObject({ status: 'FAILURE', progress: '100%' })
    expect(row.json.failReason).toContain('timed out')
    expect((await ledger(user.id)).quota).toBe(START)
    expect((await pollUnfinishedTasks(env)).mj).toBe(0)
  })
})
