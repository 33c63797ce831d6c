import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setupRoot, signedInUser } from '../../test/client'
import { createChannel, ledger, send, setPrice, topUp } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const form = (extra: Record<string, unknown> = {}) => ({ name: 'my key', remain_quota: 0, unlimited_quota: true, expired_time: -1, ...extra })

describe('tokens API', () => {
  it('creates a signed key that works on the relay, lists it, and validates the form', async () => {
    await setupRoot()
    const { client } = await signedInUser('tokenowner')
    const bad = await client.post('/api/token/', { name: '', remain_quota: -5 })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(['name', 'remain_quota']))
    const badIp = await client.post('/api/token/', form({ setting: { limits: { limits_ip_setting: { enabled: true, whitelist: ['not-an-ip'] } } } }))
    expect(badIp.status).toBe(400)

    const created = await client.post('/api/token/', form())
    expect(created.status).toBe(200)
    const key = created.body.data.key as string
    expect(key).toMatch(/^sk-[0-9A-Za-z]{48}$/)
    const list = await client.get('/api/token/?p=1&page_size=10')
    expect(list.body.data).toMatchObject({ total_count: 1, page: 1 })
    expect(list.body.data.data[0].name).toBe('my key')

    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const me = (await client.get('/api/user/self')).body.data
    await topUp(me.id, 10_000)
    const res = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    expect(res.status).toBe(200)
  })

  it('disabling or deleting a token stops the relay at once', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('revoker')
    await topUp(id, 100_000)
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const t = (await client.post('/api/token/', form())).body.data
    const call = () => send('/v1/chat/completions', { key: t.key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    expect((await call()).status).toBe(200)
    expect((await client.put('/api/token/status', { id: t.id, status: 2 })).status).toBe(200)
    expect((await call()).status).toBe(401)
    expect((await client.put('/api/token/status', { id: t.id, status: 1 })).status).toBe(200)
    expect((await call()).status).toBe(200)
    expect((await client.delete(`/api/token/${t.id}`)).status).toBe(200)
    expect((await call()).status).toBe(401)
  })

  it('limits remaining quota set by the owner, through the wallet', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('limiter')
    await topUp(id, 1_000_000)
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const t = (await client.post('/api/token/', form({ unlimited_quota: false, remain_quota: 1000 }))).body.data
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 10 }
    expect((await send('/v1/chat/completions', { key: t.key, json: body })).status).toBe(200)
    await ledger(id)
    const after = (await client.get(`/api/token/${t.id}`)).body.data
    expect(after.remain_quota).toBe(1000 - 19)
    expect(after.used_quota).toBe(19)
    await client.put('/api/token/', { ...form({ unlimited_quota: false, remain_quota: 5 }), id: t.id })
    expect((await send('/v1/chat/completions', { key: t.key, json: body })).status).toBe(429)
  })

  it('never shows, edits or deletes another user token (ID probing)', async () => {
    await setupRoot()
    const { client: alice } = await signedInUser('alice')
    const { client: mallory } = await signedInUser('mallory')
    const t = (await alice.post('/api/token/', form({ name: 'secret' }))).body.data
    expect((await mallory.get(`/api/token/${t.id}`)).status).toBe(404)
    expect((await mallory.put('/api/token/', { ...form(), id: t.id })).status).toBe(404)
    expect((await mallory.put('/api/token/status', { id: t.id, status: 2 })).status).toBe(404)
    expect((await mallory.delete(`/api/token/${t.id}`)).status).toBe(404)
    const list = (await mallory.get('/api/token/')).body.data
    expect(list.total_count).toBe(0)
    expect((await alice.get(`/api/token/${t.id}`)).body.data.name).toBe('secret')
    expect((await mallory.get('/api/token/admin/search')).status).toBe(403)
  })

  it('lets admins search every token with its owner', async () => {
    const root = await setupRoot()
    const { client: alice, id } = await signedInUser('alice2')
    await alice.post('/api/token/', form({ name: 'alpha' }))
    const found = await root.get(`/api/token/admin/search?user_id=${id}`)
    expect(found.body.data.data[0]).toMatchObject({ name: 'alpha', username: 'alice2' })
  })

  it('creates the hidden playground token once and keeps it off the list', async () => {
    await setupRoot()
    const { client } = await signedInUser('player')
    const a = (await client.get('/api/token/playground')).body.data
    const b = (await client.get('/api/token/playground')).body.data
    expect(a.id).toBe(b.id)
    expect((await client.get('/api/token/')).body.data.total_count).toBe(0)
  })
})
