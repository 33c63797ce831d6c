import { describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'

describe('redemption codes', () => {
  it('creates codes shown once, stores only hashes, and validates the form', async () => {
    const root = await setupRoot()
    expect((await root.post('/api/redemption/', { name: '', quota: -1, count: 0 })).status).toBe(400)
    const res = await root.post('/api/redemption/', { name: 'promo', quota: 5000, count: 3 })
    expect(res.body.data).toHaveLength(3)
    const stored = await env.DB.prepare('SELECT key FROM redemptions').all<any>()
    for (const row of stored.results) expect(res.body.data).not.toContain(row.key)
    const list = (await root.get('/api/redemption/?keyword=promo')).body.data
    expect(list.total_count).toBe(3)
    expect(list.data[0].key).toMatch(/…$/)
  })

  it('lets exactly one user win a code under concurrency, credits through the wallet with a top-up log', async () => {
    const root = await setupRoot()
    const [code] = (await root.post('/api/redemption/', { name: 'race', quota: 7000, count: 1 })).body.data
    const players: Awaited<ReturnType<typeof signedInUser>>[] = []
    for (const u of ['player1', 'player2', 'player3', 'player4', 'player5']) players.push(await signedInUser(u))
    const results = await Promise.all(players.map((p) => p.client.post('/api/user/topup', { key: code })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 400)).toHaveLength(4)
    const winner = players[results.findIndex((r) => r.status === 200)]!
    expect((await winner.client.get('/api/user/self')).body.data.quota).toBe(7000)
    const row = await env.DB.prepare('SELECT status, user_id, redeemed_time FROM redemptions').first<any>()
    expect(row).toMatchObject({ status: 3, user_id: winner.id })
    expect(row.redeemed_time).toBeGreaterThan(0)
    const log = await env.DB.prepare('SELECT type, quota FROM logs WHERE user_id = ?').bind(winner.id).first<any>()
    expect(log).toMatchObject({ type: 1, quota: 7000 })
  })

  it('a credit that fails leaves the code unused (the wallet is credited first under the code id)', async () => {
    const root = await setupRoot()
    const [code] = (await root.post('/api/redemption/', { name: 'flaky', quota: 900, count: 1 })).body.data
    const { client, id } = await signedInUser('unlucky')
    const real = env.WALLET.getByName.bind(env.WALLET)
    const spy = vi.spyOn(env.WALLET, 'getByName').mockImplementation((name: string) => {
      const stub = real(name)
      return new Proxy(stub, { get: (t, p) => (p === 'credit' ? () => Promise.reject(new Error('wallet unreachable')) : Reflect.get(t, p)) })
    })
    const failed = await client.post('/api/user/topup', { key: code })
    spy.mockRestore()
    expect(failed.status).toBe(503)
    expect(await env.DB.prepare('SELECT status, user_id FROM redemptions').first()).toEqual({ status: 1, user_id: 0 })
    // The same code works once the wallet answers, and only once.
    expect((await client.post('/api/user/topup', { key: code })).status).toBe(200)
    expect((await client.post('/api/user/topup', { key: code })).status).toBe(400)
    expect((await client.get('/api/user/self')).body.data.quota).toBe(900)
    const logs = await env.DB.prepare('SELECT quota FROM logs WHERE user_id = ? AND type = 1').bind(id).all()
    expect(logs.results).toEqual([{ quota: 900 }])
  })

  it('refuses disabled codes and cannot edit redeemed ones', async () => {
    const root = await setupRoot()
    const [code] = (await root.post('/api/redemption/', { name: 'x', quota: 1, count: 1 })).body.data
    const id = (await root.get('/api/redemption/')).body.data.data[0].id
    await root.put('/api/redemption/', { id, name: 'x', quota: 1, status: 2 })
    const { client } = await signedInUser('tryer')
    expect((await client.post('/api/user/topup', { key: code })).status).toBe(400)
    await root.put('/api/redemption/', { id, name: 'x', quota: 1, status: 1 })
    expect((await client.post('/api/user/topup', { key: code })).status).toBe(200)
    expect((await root.put('/api/redemption/', { id, name: 'y', quota: 2, status: 1 })).status).toBe(400)
  })

  it('audits creation and deletion with actor, address, count and quota, never the code values', async () => {
    const root = await setupRoot()
    const ip = { headers: { 'cf-connecting-ip': '203.0.113.51' } }
    const codes: string[] = (await root.post('/api/redemption/', { name: 'audited', quota: 2500, count: 2 }, ip)).body.data
    const id = (await root.get('/api/redemption/?keyword=audited')).body.data.data[0].id
    expect((await root.delete(`/api/redemption/${id}`, ip)).status).toBe(200)

    const { results } = await env.DB.prepare("SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE '%redemption code%' ORDER BY id").all<any>()
    expect(results).toHaveLength(2)
    for (const r of results) expect(r).toMatchObject({ username: 'root', source_ip: '203.0.113.51' })
    expect(results[0].content).toContain('created 2 redemption codes "audited" worth 2500 quota each')
    expect(JSON.parse(results[0].metadata)).toMatchObject({ count: 2, quota: 2500, actor: 'root' })
    expect(results[1].content).toContain(`deleted 1 redemption code #${id} "audited" worth 2500 quota`)
    expect(JSON.parse(results[1].metadata)).toMatchObject({ redemption_id: id, count: 1, quota: 2500, actor: 'root' })
    const all = JSON.stringify((await env.DB.prepare('SELECT content, metadata FROM logs').all()).results)
    for (const code of codes) expect(all).not.toContain(code)
  })
})
