import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../../test/client'

describe('user groups and invite rewards', () => {
  it('keeps GroupRatio in sync with the group table, both ways', async () => {
    const root = await setupRoot()
    expect((await root.get('/api/user_group/')).body.data.map((g: any) => g.symbol)).toEqual(['default', 'vip', 'svip'])
    const created = await root.post('/api/user_group/', { symbol: 'pro', name: 'Pro', ratio: 0.8, public: true })
    expect(created.status).toBe(200)
    expect((await root.post('/api/user_group/', { symbol: 'pro', name: 'Again', ratio: 1 })).status).toBe(409)
    const ratios = () => root.get('/api/option/').then((r) => JSON.parse(r.body.data.find((o: any) => o.key === 'GroupRatio').value))
    expect(await ratios()).toEqual({ default: 1, vip: 1, svip: 1, pro: 0.8 })
    await root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, pro: 0.5 }) })
    const groups = (await root.get('/api/user_group/')).body.data
    expect(groups.find((g: any) => g.symbol === 'pro')).toMatchObject({ ratio: 0.5, enable: true })
    expect(groups.find((g: any) => g.symbol === 'vip')).toMatchObject({ enable: false })
    expect((await root.post('/api/user/', { username: 'vipuser', password: 'password-1', group: 'vip' })).status).toBe(400)
  })

  it('lets users put public groups on their tokens only', async () => {
    const root = await setupRoot()
    await root.post('/api/user_group/', { symbol: 'cheap', name: 'Cheap', ratio: 0.5, public: true })
    const { client } = await signedInUser('grouper')
    expect((await client.post('/api/token/', { name: 'a', unlimited_quota: true, group: 'cheap' })).status).toBe(200)
    expect((await client.post('/api/token/', { name: 'b', unlimited_quota: true, group: 'vip' })).status).toBe(400)
    expect(Object.keys((await client.get('/api/user_group_map')).body.data)).toEqual(['default', 'cheap'])
  })

  it('rewards inviter and invitee and gives the new-user quota at the first top-up, each with a system log', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { QuotaForNewUser: '100', QuotaForInviter: '300', QuotaForInvitee: '200' } })
    const { client: inviter, id: inviterId } = await signedInUser('inviter')
    const aff = (await inviter.get('/api/user/aff')).body.data
    const newcomer = new TestClient()
    await newcomer.get('/api/status')
    expect((await newcomer.post('/api/user/register', { username: 'invitee', password: 'password-1', aff_code: aff })).status).toBe(200)
    await newcomer.post('/api/user/login', { username: 'invitee', password: 'password-1' })
    // Held until the invitee verifies an email or tops up (signup-rewards.ts).
    expect((await newcomer.get('/api/user/self')).body.data).toMatchObject({ quota: 0, inviter_id: inviterId })
    const [code] = (await root.post('/api/redemption/', { name: 'first', quota: 1000, count: 1 })).body.data as string[]
    expect((await newcomer.post('/api/user/topup', { key: code })).status).toBe(200)
    const me = (await newcomer.get('/api/user/self')).body.data
    expect(me).toMatchObject({ quota: 1300, inviter_id: inviterId })
    const inviterSelf = (await inviter.get('/api/user/self')).body.data
    expect(inviterSelf).toMatchObject({ quota: 300, aff_count: 1 })
    const logs = await env.DB.prepare('SELECT user_id, type, quota FROM logs WHERE type = 4 AND user_id IN (?, ?) ORDER BY id').bind(inviterId, me.id).all<any>()
    expect(logs.results).toEqual([
      { user_id: me.id, type: 4, quota: 100 },
      { user_id: me.id, type: 4, quota: 200 },
      { user_id: inviterId, type: 4, quota: 300 },
    ])
  })

  it('caps the rewards an inviter earns per day, and a disabled inviter earns nothing', async () => {
    const root = await setupRoot()
    await root.put('/api/option/', { options: { QuotaForInviter: '300', QuotaForInvitee: '200', InviteRewardDailyLimit: '2' } })
    const { client: inviter, id: inviterId } = await signedInUser('busy-inviter')
    const aff = (await inviter.get('/api/user/aff')).body.data
    const register = async (name: string, code: string) => {
      const c = new TestClient()
      await c.get('/api/status')
      expect((await c.post('/api/user/register', { username: name, password: 'password-1', aff_code: code })).status).toBe(200)
      expect((await c.post('/api/user/login', { username: name, password: 'password-1' })).status).toBe(200)
      const [gift] = (await root.post('/api/redemption/', { name: 'gift', quota: 1, count: 1 })).body.data as string[]
      expect((await c.post('/api/user/topup', { key: gift })).status).toBe(200)
    }
    for (const name of ['inv-a', 'inv-b', 'inv-c']) await register(name, aff)
    // Three invitees in a day, two rewarded: 2 × 300.
    expect((await inviter.get('/api/user/self')).body.data).toMatchObject({ quota: 600, aff_count: 3 })
    const rewards = await env.DB.prepare("SELECT COUNT(*) AS n FROM logs WHERE user_id = ? AND content LIKE 'Inviter reward%'").bind(inviterId).first<number>('n')
    expect(rewards).toBe(2)

    const { client: dormant, id: dormantId } = await signedInUser('dormant-inviter')
    const dormantAff = (await dormant.get('/api/user/aff')).body.data
    expect((await root.post('/api/user/manage', { id: dormantId, action: 'disable' })).status).toBe(200)
    await register('inv-d', dormantAff)
    const row = await env.DB.prepare('SELECT quota, aff_count FROM users WHERE id = ?').bind(dormantId).first()
    expect(row).toEqual({ quota: 0, aff_count: 0 })
  })

  it('seeds the default price table at setup', async () => {
    await setupRoot()
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM prices').first<number>('n')
    expect(n).toBeGreaterThan(20)
    // With the suppliers' long-context tiers, as JSON in the tier column.
    const gemini = await env.DB.prepare("SELECT tier, fee FROM prices WHERE model = 'gemini-2.5-pro'").first<{ tier: string; fee: number }>()
    expect({ tier: JSON.parse(gemini!.tier), fee: gemini!.fee }).toEqual({ tier: { threshold_tokens: 200_000, input: 1.25, output: 7.5 }, fee: 0 })
  })

  it('audits group ratio changes: one row per write with actor, address and old → new', async () => {
    const root = await setupRoot()
    const ip = { headers: { 'cf-connecting-ip': '198.51.100.90' } }
    const form = { symbol: 'audited', name: 'Audited', ratio: 0.8 }
    const id = (await root.post('/api/user_group/', form, ip)).body.data.id
    expect((await root.put('/api/user_group/', { ...form, id, ratio: 0.6 }, ip)).status).toBe(200)
    expect((await root.put('/api/user_group/', { ...form, id, ratio: 0.6 }, ip)).status).toBe(200) // nothing changed: no row
    expect((await root.delete(`/api/user_group/${id}`, ip)).status).toBe(200)

    const { results } = await env.DB.prepare("SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE 'group.%' ORDER BY id").all<any>()
    expect(results.map((r) => r.content.split(':')[0])).toEqual(['group.create audited', 'group.update audited', 'group.delete audited'])
    for (const r of results) expect(r).toMatchObject({ username: 'root', source_ip: '198.51.100.90' })
    expect(results[1].content).toBe('group.update audited: ratio 0.8 → 0.6')
    expect(JSON.parse(results[1].metadata)).toMatchObject({ group: 'audited', changes: { ratio: { old: 0.8, new: 0.6 } }, actor: 'root' })
    expect(JSON.parse(results[2].metadata).changes.ratio).toEqual({ old: 0.6, new: null })
  })
})
