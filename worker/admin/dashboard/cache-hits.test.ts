/**
 * Cached prompt tokens per request reach the log metadata (OpenAI prompt_tokens_details.cached_tokens),
 * the statistics rollup and the admin analytics' cache-hit share per model; the quota response-cache
 * hits saved reaches the user dashboard and the site's period totals.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, topUp } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { rollupRecent } from '../../logs/rollup'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream((_req, body) =>
    Response.json({
      id: 'chatcmpl-c',
      object: 'chat.completion',
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1000, completion_tokens: 10, total_tokens: 1010, prompt_tokens_details: { cached_tokens: body.prompt_cache_key ? 800 : 0 } },
    })
  )
  await setPrice('gpt-4o', 2, 4)
})
afterEach(() => upstream.restore())

describe('cache-hit share', () => {
  it('logs cached tokens per request and sums them per model in the analytics', async () => {
    const root = await setupRoot()
    await createChannel({ key: 'cache' })
    const user = await createUser({ quota: 100_000_000 })
    const key = (await createToken(user.id)).key
    const messages = [{ role: 'user', content: 'long shared prefix' }]
    expect((await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages, prompt_cache_key: 'p' } })).status).toBe(200)
    expect((await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages } })).status).toBe(200)
    await ledger(user.id)
    const logs = await env.DB.prepare("SELECT json_extract(metadata, '$.cached_tokens') AS cached FROM logs WHERE user_id = ? AND type = 2 ORDER BY id").bind(user.id).all()
    expect(logs.results).toEqual([{ cached: 800 }, { cached: 0 }])
    await rollupRecent(env)
    const period = (await root.get('/api/analytics/period')).body.data
    expect(period.cache_hits).toEqual([{ model_name: 'gpt-4o', prompt_tokens: 2000, cached_tokens: 800 }])
  })
})

describe('saved quota of response-cache hits', () => {
  it('reaches the user dashboard and the site period from the write-behind, and survives the recount', async () => {
    const root = await setupRoot()
    await setOptions({ ChatCacheEnabled: 'true', ChatCacheExpireMinute: '5', ChatCacheHitRatio: '0.25' })
    await createChannel({ key: 'saved' })
    const { client, id } = await signedInUser('saved-quota')
    await topUp(id, 100_000_000)
    const key = (await createToken(id, { chatCache: true })).key
    const json = { model: 'gpt-4o', messages: [{ role: 'user', content: 'same question' }] }
    expect((await send('/v1/chat/completions', { key, json })).status).toBe(200)
    for (let i = 0; i < 2; i++) expect((await send('/v1/chat/completions', { key, json })).headers.get('x-cache')).toBe('HIT')
    await ledger(id)
    const rows = await env.DB.prepare('SELECT quota, metadata FROM logs WHERE user_id = ? AND type = 2 ORDER BY id').bind(id).all<{ quota: number; metadata: string }>()
    const paid = rows.results[0]!.quota
    const saved = rows.results.slice(1).reduce((s, r) => s + JSON.parse(r.metadata).saved_quota, 0)
    expect(saved).toBe(2 * (paid - Math.round(paid * 0.25)))

    const sumSaved = (list: { saved_quota: number }[]) => list.reduce((s, r) => s + r.saved_quota, 0)
    const mine = async () => sumSaved((await client.get('/api/user/dashboard')).body.data.rows)
    const site = async () => sumSaved((await root.get('/api/analytics/period')).body.data.daily)
    expect(await mine()).toBe(saved)
    expect(await site()).toBe(saved)
    await rollupRecent(env)
    expect(await mine()).toBe(saved)
    expect(await site()).toBe(saved)
  })
})
