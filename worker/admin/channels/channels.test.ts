import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'
import { setOptions } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const channel = (extra: Record<string, unknown> = {}) => ({
  type: 1,
  name: 'openai-main',
  key: 'good',
  base_url: 'https://upstream.test/',
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default',
  test_model: 'gpt-4o-mini',
  ...extra,
})

describe('channels API', () => {
  it('validates the form with field messages', async () => {
    const root = await setupRoot()
    const res = await root.post('/api/channel/', { type: 999, name: '', key: '', models: '', group: '', priority: -1, weight: 0, model_mapping: '{bad', proxy: 'ftp://x' })
    expect(res.status).toBe(400)
    expect(Object.keys(res.body.data.fields)).toEqual(expect.arrayContaining(['type', 'name', 'key', 'models', 'group', 'priority', 'weight', 'model_mapping', 'proxy']))
    const wildcard = await root.post('/api/channel/', channel({ models: '*,gpt-*' }))
    expect(wildcard.status).toBe(400)
    const azureNoBase = await root.post('/api/channel/', channel({ type: 3, base_url: '' }))
    expect(azureNoBase.body.data.fields.base_url).toBeTruthy()
  })

  it('creates one channel per key line under one tag, strips the trailing slash, hides keys in lists', async () => {
    const root = await setupRoot()
    const res = await root.post('/api/channel/', channel({ key: 'k1\nk2\nk3', name: 'pool' }))
    expect(res.status).toBe(200)
    expect(res.body.data.map((c: any) => c.name)).toEqual(['pool', 'pool_2', 'pool_3'])
    const list = (await root.get('/api/channel/?tag=pool')).body.data
    expect(list.total_count).toBe(3)
    expect(list.data[0].key).toBeUndefined()
    expect(list.data[0].base_url).toBe('https://upstream.test')
    const one = (await root.get(`/api/channel/${list.data[0].id}`)).body.data
    expect(['k1', 'k2', 'k3']).toContain(one.key)
    expect((await root.get('/api/channel/?model=gpt-4o-mini&group=default')).body.data.total_count).toBe(3)
    expect((await root.get('/api/channel/?model=claude')).body.data.total_count).toBe(0)
  })

  it('tests a channel, shows seconds, and the monitoring settings disable and re-enable it', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/channel/', channel())).body.data[0].id
    const ok = await root.get(`/api/channel/test/${id}`)
    expect(ok.status).toBe(200)
    expect(ok.body.message).toMatch(/succeeded in \d+\.\d\d s/)
    const row = await env.DB.prepare('SELECT response_time, test_time FROM channels WHERE id = ?').bind(id).first<any>()
    expect(row.test_time).toBeGreaterThan(0)

    await setOptions({ AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true' })
    const bad = (await root.post('/api/channel/', channel({ key: 'mock-401', name: 'bad' }))).body.data[0].id
    const failed = await root.get(`/api/channel/test/${bad}`)
    expect(failed.status).toBe(502)
    expect((await root.get(`/api/channel/${bad}`)).body.data).toMatchObject({ status: 3, status_reason: expect.stringContaining('401') })
    // The supplier fixed the key: the next test re-enables the auto-disabled channel.
    await env.DB.prepare("UPDATE channels SET key = 'good' WHERE id = ?").bind(bad).run()
    expect((await root.get(`/api/channel/test/${bad}`)).status).toBe(200)
    expect((await root.get(`/api/channel/${bad}`)).body.data.status).toBe(1)
    // A manually disabled channel is never re-enabled.
    await root.call('PATCH', '/api/channel/', { body: { id: bad, status: 2 } })
    await root.get(`/api/channel/test/${bad}`)
    expect((await root.get(`/api/channel/${bad}`)).body.data.status).toBe(2)
  })

  it('requires a test model and refuses non-chat models for speed tests', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/channel/', channel({ test_model: '' }))).body.data[0].id
    expect((await root.get(`/api/channel/test/${id}`)).body.message).toContain('test model')
    expect((await root.get(`/api/channel/test/${id}?model=text-embedding-3-small`)).body.message).toContain('chat models only')
  })

  it('batch edits: remove a model, set the Azure API version, delete disabled and selected', async () => {
    const root = await setupRoot()
    const ids = (await root.post('/api/channel/', channel({ key: 'a\nb' }))).body.data.map((c: any) => c.id)
    const azure = (await root.post('/api/channel/', channel({ type: 3, name: 'az', base_url: 'https://x.openai.azure.com' }))).body.data[0].id
    expect((await root.put('/api/channel/batch/del_model', { ids, value: 'gpt-4o-mini' })).body.data).toBe(2)
    expect((await root.get(`/api/channel/${ids[0]}`)).body.data.models).toBe('gpt-4o')
    expect((await root.put('/api/channel/batch/azure_api', { ids: [...ids, azure], value: '2025-01-01' })).body.data).toBe(1)
    expect((await root.get(`/api/channel/${azure}`)).body.data.other).toBe('2025-01-01')
    await root.call('PATCH', '/api/channel/', { body: { id: ids[0], status: 2 } })
    expect((await root.delete('/api/channel/disabled')).body.data).toBe(1)
    expect((await root.call('DELETE', '/api/channel/batch', { body: { ids: [ids[1]] } })).body.data).toBe(1)
    expect((await root.get('/api/channel/')).body.data.total_count).toBe(1)
  })

  it('copies a channel and fetches the model list from the supplier with unsaved form data', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/channel/', channel())).body.data[0].id
    const copy = await root.post(`/api/channel/copy/${id}`)
    expect(copy.body.data.name).toBe('openai-main_copy')
    const models = await root.post('/api/channel/provider_models_list', { type: 1, key: 'good', base_url: 'https://upstream.test' })
    expect(models.body.data).toEqual(['gpt-4o'])
  })
})

describe('channel balances', () => {
  it('refreshes one balance and all enabled balances, and refuses types without one', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/channel/', channel())).body.data[0].id
    upstream.restore()
    upstream = mockUpstream((req) => {
      const path = new URL(req.url).pathname
      if (path.endsWith('/dashboard/billing/subscription')) return Response.json({ hard_limit_usd: 100 })
      if (path.endsWith('/dashboard/billing/usage')) return Response.json({ total_usage: 2550 })
      return undefined
    })
    const one = await root.get(`/api/channel/update_balance/${id}`)
    expect(one.body.data.balance).toBe(74.5)
    const row = (await root.get(`/api/channel/${id}`)).body.data
    expect(row.balance).toBe(74.5)
    expect(row.balance_updated_time).toBeGreaterThan(0)
    expect((await root.get('/api/channel/update_balance')).body.data).toEqual({ updated: 1, failed: 0 })
    const claude = (await root.post('/api/channel/', channel({ type: 14, name: 'claude' }))).body.data[0].id
    expect((await root.get(`/api/channel/update_balance/${claude}`)).status).toBe(400)
  })
})
