/**
 * Task submits under the API key's own limits, as on the relay: requests per minute and budgets
 * refuse with 429, the limit's code and Retry-After in each platform's envelope, and a refused
 * submit charges nothing and writes no consume row. A model outside the key's whitelist is refused
 * (403) on every platform.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createToken, ledger, send } from '../test/factories'
import { TASK_START, taskFixture, useTaskUpstream } from '../test/task-mock'
import { saveOptions } from '../settings/store'

const upstream = useTaskUpstream()

/** A Suno (type 41) or Midjourney (type 34) channel, and a key with these token columns set. */
async function limited(limits: Record<string, string | number>, type = 41) {
  const fixture = await taskFixture({ suno_lyrics: 5, mj_imagine: 20, mj_relax_imagine: 10 }, { key: 'task-key', type, models: 'suno_lyrics,mj_imagine,mj_relax_imagine' })
  const cols = Object.keys(limits)
  await env.DB.prepare(`UPDATE tokens SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE user_id = ?`)
    .bind(...cols.map((c) => limits[c]), fixture.user.id)
    .run()
  return fixture
}

const lyrics = (key: string) => send('/suno/submit/lyrics', { key, json: { prompt: 'the sea' } })

describe('task submits under the key’s limits', () => {
  it('refuses the submit over rpm_limit with 429, Retry-After and no charge', async () => {
    const { user, key } = await limited({ rpm_limit: 2 })
    for (let i = 0; i < 2; i++) expect((await lyrics(key)).json.code).toBe('success')
    const refused = await lyrics(key)
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ code: 'rate_limit_exceeded', data: null })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('2')
    const l = await ledger(user.id)
    expect(l.quota).toBe(TASK_START - 2 * 5_000)
    expect(l.consumeLogs).toBe(2)
    expect(l.loggedQuota).toBe(2 * 5_000)
  })

  it('refuses a submit past the key’s budget with 429 budget_exceeded, not as a bad key', async () => {
    const { user, key } = await limited({ budget_period: 'day', budget_quota: 12_000 })
    expect((await lyrics(key)).json.code).toBe('success')
    expect((await lyrics(key)).json.code).toBe('success')
    const refused = await lyrics(key)
    expect(refused.status).toBe(429)
    expect(refused.json.code).toBe('budget_exceeded')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await ledger(user.id)).loggedQuota).toBe(2 * 5_000)
  })

  it('answers in the Midjourney envelope with the limit as its type', async () => {
    const { key } = await limited({ rpm_limit: 1 }, 34)
    const imagine = () => send('/mj/submit/imagine', { headers: { 'mj-api-secret': key }, json: { prompt: 'a red fox' } })
    expect((await imagine()).json.code).toBe(1)
    const refused = await imagine()
    expect(refused.status).toBe(429)
    expect(refused.json).toMatchObject({ type: 'rate_limit_exceeded', result: null })
    expect(refused.headers.get('retry-after')).not.toBeNull()
  })

  it('counts a Midjourney submit once when it falls back from fast to relax', async () => {
    const { user, key } = await limited({ rpm_limit: 1 }, 34)
    await saveOptions(env, { MjFastFallbackRelax: 'true' })
    const res = await send('/mj/submit/imagine', { headers: { 'mj-api-secret': key }, json: { prompt: 'nofast please' } })
    await saveOptions(env, { MjFastFallbackRelax: 'false' })
    expect(res.json.code).toBe(1)
    const l = await ledger(user.id)
    expect(l.quota).toBe(TASK_START - 10_000)
    expect(l.consumeLogs).toBe(1)
  })

  it('refuses a model outside the key’s whitelist on every platform, in its own envelope, before anything is sent or held', async () => {
    const { user } = await taskFixture({ suno_lyrics: 5, mj_imagine: 20 }, { key: 'task-key', type: 41, models: 'suno_lyrics' })
    await taskFixture({ mj_imagine: 20 }, { key: 'task-key', type: 34, models: 'mj_imagine' })
    await taskFixture({ 'kling-video_kling-v1_std_5': 100 }, { key: 'AK|SK', type: 53, baseUrl: 'https://upstream.test/kling', models: 'kling-video_kling-v1_std_5' })
    const { key } = await createToken(user.id, { models: ['gpt-4o-mini'] })
    const before = upstream.mock.calls.length

    const suno = await send('/suno/submit/lyrics', { key, json: { prompt: 'the sea' } })
    expect(suno.status).toBe(403)
    expect(suno.json).toMatchObject({ code: 'model_not_allowed', data: null })
    expect(suno.json.message).toContain('suno_lyrics')
    const mj = await send('/mj/submit/imagine', { headers: { 'mj-api-secret': key }, json: { prompt: 'a red fox' } })
    expect(mj.status).toBe(403)
    expect(mj.json).toMatchObject({ type: 'model_not_allowed', result: null })
    expect(mj.json.description).toContain('mj_imagine')
    const kling = await send('/kling/v1/videos/text2video', { key, json: { prompt: 'a cat surfing' } })
    expect(kling.status).toBe(403)
    expect(kling.json).toMatchObject({ code: 'model_not_allowed', data: null })
    expect(kling.json.request_id).toBeTruthy()

    expect(upstream.mock.calls.length).toBe(before)
    const l = await ledger(user.id)
    expect(l.quota).toBe(TASK_START)
    expect(l.consumeLogs).toBe(0)
    // The same key with the model on its list submits.
    const allowed = await createToken(user.id, { models: ['suno_lyrics'] })
    expect((await send('/suno/submit/lyrics', { key: allowed.key, json: { prompt: 'the sea' } })).json.code).toBe('success')
  })
})
