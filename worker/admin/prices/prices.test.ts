import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
const REMOTE = [
  { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 9, output: 9 },
  { model: 'brand-new', type: 'times', channel_type: 1, input: 5, output: 0 },
]
/** new-api's public /api/pricing items: a ratio price with cache multipliers, and a price per call. */
const NEW_API = [
  { model_name: 'claude-new-api', quota_type: 0, model_ratio: 1.5, model_price: 0, completion_ratio: 5, cache_ratio: 0.1, create_cache_ratio: 1.25, enable_groups: ['default'] },
  { model_name: 'image-new-api', quota_type: 1, model_ratio: 0, model_price: 0.04, completion_ratio: 0, enable_groups: ['default'] },
]
beforeEach(() => {
  upstream = mockUpstream((req) => {
    const path = new URL(req.url).pathname
    if (path === '/prices.json') return Response.json({ data: REMOTE })
    if (path === '/api/pricing') return Response.json({ success: true, data: NEW_API })
    if (path === '/broken.json') return new Response('<html>', { headers: { 'content-type': 'text/html' } })
    return undefined
  })
})
afterEach(() => upstream.restore())

describe('prices API', () => {
  it('validates prices: required unique model, wildcard only last, non-negative multipliers', async () => {
    const root = await setupRoot()
    const bad = await root.post('/api/prices/single', { model: '', type: 'weird', channel_type: -1, input: -1, output: -2 })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(['model', 'type', 'channel_type', 'input', 'output']))
    expect((await root.post('/api/prices/single', { model: 'a*b', type: 'tokens', channel_type: 1, input: 1, output: 1 })).status).toBe(400)
    expect((await root.post('/api/prices/single', { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 1, output: 1 })).status).toBe(409)
    expect((await root.post('/api/prices/single', { model: 'my-*', type: 'tokens', channel_type: 1, input: 1, output: 1 })).status).toBe(200)
  })

  it('validates and stores a long-context tier and a fee; a remote list without them keeps them', async () => {
    const root = await setupRoot()
    const base = { type: 'tokens', channel_type: 1, input: 1.25, output: 5 }
    for (const bad of [
      { tier: { threshold_tokens: 0, input: 1, output: 1 } },
      { tier: { threshold_tokens: 1.5, input: 1, output: 1 } },
      { tier: { threshold_tokens: 200_000, input: -1, output: 1 } },
      { tier: { threshold_tokens: 200_000, input: 1, output: 1e12 } },
      { fee: -1 },
      { fee: 0.5 },
      { fee: 1e12 },
      { extra_ratios: { cached_write_1h_tokens: -2 } },
    ]) {
      const res = await root.post('/api/prices/single', { model: 'tier-bad', ...base, ...bad })
      expect(res.status, JSON.stringify(bad)).toBe(400)
      expect(res.body.success).toBe(false)
    }
    const tier = { threshold_tokens: 200_000, input: 2.5, output: 7.5 }
    const created = await root.put('/api/prices/single/gpt-4o', { model: 'gpt-4o', ...base, tier, fee: 250, extra_ratios: { cached_write_1h_tokens: 2 } })
    expect(created.body.data).toMatchObject({ tier, fee: 250, extra_ratios: { cached_write_1h_tokens: 2 } })
    expect((await root.post('/api/prices/sync?updateMode=overwrite', REMOTE)).status).toBe(200)
    const after = (await root.get('/api/prices')).body.data.find((p: any) => p.model === 'gpt-4o')
    expect(after).toMatchObject({ input: 9, tier, fee: 250 })
    const cleared = await root.put('/api/prices/single/gpt-4o', { model: 'gpt-4o', ...base })
    expect(cleared.body.data).toMatchObject({ tier: null, fee: 0 })
  })

  it('reads new-api’s /api/pricing list: ratio × completion ratio, dollars per call, cache multipliers', async () => {
    const root = await setupRoot()
    const list = await root.get('/api/prices/remote?url=https://upstream.test/api/pricing')
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([
      {
        model: 'claude-new-api',
        type: 'tokens',
        channel_type: 0,
        input: 1.5,
        output: 7.5,
        extra_ratios: { cached_tokens: 0.1, cached_read_tokens: 0.1, cached_write_tokens: 1.25 },
      },
      { model: 'image-new-api', type: 'times', channel_type: 0, input: 20, output: 0, extra_ratios: null },
    ])
    expect((await root.post('/api/prices/sync?updateMode=add', list.body.data)).body.data).toMatchObject({ added: 2 })
    const prices = Object.fromEntries((await root.get('/api/prices')).body.data.map((p: any) => [p.model, p]))
    expect(prices['image-new-api']).toMatchObject({ type: 'times', input: 20, tier: null, fee: 0 })
  })

  it('fetches a remote list server-side and syncs with add-new-only or overwrite, never touching locked rows', async () => {
    const root = await setupRoot()
    const list = await root.get('/api/prices/remote?url=https://upstream.test/prices.json')
    expect(list.body.data).toHaveLength(2)
    expect((await root.get('/api/prices/remote?url=https://upstream.test/broken.json')).status).toBe(400)
    await root.put('/api/prices/single/gpt-4o', { model: 'gpt-4o', type: 'tokens', channel_type: 1, input: 3, output: 3 })
    await root.post('/api/prices/single', { model: 'mine', type: 'tokens', channel_type: 1, input: 1, output: 1 })
    await root.post('/api/prices/single', { model: 'locked-one', type: 'tokens', channel_type: 1, input: 7, output: 7, locked: true })

    const added = (await root.post('/api/prices/sync?updateMode=add', list.body.data)).body.data
    expect(added).toMatchObject({ added: 1, updated: 0, removed: 0 })
    const prices = async () => Object.fromEntries((await root.get('/api/prices')).body.data.map((p: any) => [p.model, p]))
    expect((await prices())['gpt-4o'].input).toBe(3)

    const over = (await root.post('/api/prices/sync?updateMode=overwrite', list.body.data)).body.data
    expect(over.updated).toBe(2)
    const after = await prices()
    expect(after['gpt-4o'].input).toBe(9)
    expect(after.mine).toBeUndefined()
    expect(after['locked-one']).toMatchObject({ input: 7, locked: true })
  })

  it('audits every price write: one row per request with actor, address and old → new terms', async () => {
    const root = await setupRoot()
    const ip = { headers: { 'cf-connecting-ip': '192.0.2.77' } }
    await root.post('/api/prices/single', { model: 'audit-a', type: 'tokens', channel_type: 1, input: 1, output: 2 }, ip)
    await root.put('/api/prices/single/audit-a', { model: 'audit-a', type: 'tokens', channel_type: 1, input: 4, output: 2 }, ip)
    await root.post('/api/prices/multiple', { original_models: ['audit-a'], models: ['audit-b', 'audit-c'], type: 'times', channel_type: 1, input: 3, output: 0 }, ip)
    await root.post('/api/prices/sync?updateMode=add', REMOTE, ip)
    await root.put('/api/prices/multiple/delete', { models: ['audit-b', 'audit-c'] }, ip)

    const { results } = await env.DB.prepare("SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE 'price.%' ORDER BY id").all<any>()
    expect(results.map((r) => r.content.split(':')[0])).toEqual(['price.create', 'price.update', 'price.multiple', 'price.sync.add', 'price.delete'])
    for (const r of results) expect(r).toMatchObject({ username: 'root', source_ip: '192.0.2.77' })
    const meta = results.map((r) => JSON.parse(r.metadata))
    expect(meta[0]).toMatchObject({ added: ['audit-a: tokens 1/2'], changed: [], removed: [], actor: 'root' })
    expect(results[1].content).toContain('~audit-a: tokens 1/2 → tokens 4/2')
    expect(meta[2]).toMatchObject({ added: ['audit-b: times 3/0', 'audit-c: times 3/0'], removed: ['audit-a: tokens 4/2'] })
    expect(meta[3]).toMatchObject({ added_count: 1, changed_count: 0, added: ['brand-new: times 5/0'] })
    expect(meta[4]).toMatchObject({ added_count: 0, removed_count: 2 })
  })
})
