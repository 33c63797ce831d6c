/**
 * Redemption codes carrying a plan (issue 33): such a code starts a subscription once (no quota),
 * a refused start (the plan's max_per_user) gives the code back, and creation checks the plan.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'

describe('plan redemption codes', () => {
  it('grants the plan once instead of quota; a refusal leaves the code unused', async () => {
    const root = await setupRoot()
    const planId = (await root.post('/api/plan/', { name: 'Coded', price: 3, duration_unit: 'day', windows: [{ period: 'day', requests: 5 }], max_per_user: 1 })).body.data.id
    expect((await root.post('/api/redemption/', { name: 'nope', quota: 0, count: 1, plan_id: 999 })).status).toBe(404)
    const codes: string[] = (await root.post('/api/redemption/', { name: 'plancode', quota: 7000, count: 2, plan_id: planId })).body.data
    const listed = (await root.get('/api/redemption/?keyword=plancode')).body.data.data
    expect(listed.map((r: { plan_id: number; quota: number }) => [r.plan_id, r.quota])).toEqual([
      [planId, 0],
      [planId, 0],
    ])
    const { client, id } = await signedInUser('coder')
    const res = await client.post('/api/user/topup', { key: codes[0] })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ quota: 0, balance: 0, subscription: { plan_id: planId, name: 'Coded' } })
    expect((await client.post('/api/user/topup', { key: codes[0] })).status).toBe(400)
    const subs = await env.DB.prepare('SELECT key, source FROM subscriptions WHERE user_id = ?').bind(id).all<any>()
    expect(subs.results).toEqual([{ key: expect.stringMatching(/^redemption:\d+$/), source: 'redemption' }])
    // The second code is refused by max_per_user and stays unused for someone else.
    expect((await client.post('/api/user/topup', { key: codes[1] })).status).toBe(409)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM redemptions WHERE status = 1').first()).toEqual({ n: 1 })
    const other = await signedInUser('coder2')
    expect((await other.client.post('/api/user/topup', { key: codes[1] })).status).toBe(200)
    expect((await client.get('/api/user/self')).body.data.quota).toBe(0)
    expect((await env.DB.prepare('SELECT user_id, type, quota, content FROM logs WHERE quota <> 0 AND user_id IN (?, ?)').bind(id, other.id).all()).results).toEqual([])
  })
})
