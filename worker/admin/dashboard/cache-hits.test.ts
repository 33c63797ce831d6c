/**
 * Cached prompt tokens per request reach the log metadata (OpenAI prompt_tokens_details.cached_tokens),
 * the statistics rollup and the admin analytics' cache-hit share per model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../../test/factories'
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
