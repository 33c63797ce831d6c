/**
 * Plan CRUD (issue 33): validation at the edge (a bad body changes nothing), USD ↔ cents exactly,
 * root-only price changes, soft delete, what users see, and the roles the routes require.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser, TestClient } from '../../test/client'

const basicPlan = {
  name: 'Pro',
  description: 'Daily and monthly allowance',
  price: 19.99,
  duration_unit: 'month',
  duration_count: 1,
  windows: [
    { period: 'day', quota: 100_000 },
    { period: 'month', requests: 1000 },
  ],
  models: [
    { pattern: 'gpt-4o*', quota: 50_000 },
    { pattern: '*', excluded: true },
  ],
  published: true,
}

async function adminAndUser(root: TestClient) {
  const { client: admin, id: adminId } = await signedInUser('planadmin')
  expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
  const { client: user, id: userId } = await signedInUser('planuser')
  return { admin, adminId, user, userId }
}

const planCount = async () => (await env.DB.prepare('SELECT COUNT(*) AS n FROM plans').first<{ n: number }>())!.n

describe('plan CRUD', () => {
  it('creates a plan with its id, stores the price in exact cents and answers the wire shape', async () => {
    const root = await setupRoot()
    const res = await root.post('/api/plan/', basicPlan)
    expect(res.status).toBe(200)
    const plan = res.body.data
    expect(plan).toMatchObject({ ...basicPlan, group: '', channel_tags: [], allow_balance_fallback: true, max_per_user: 0, priority: 0 })
    expect(plan.id).toBeGreaterThan(0)
    const row = await env.DB.prepare('SELECT price_cents, windows, deleted FROM plans WHERE id = ?').bind(plan.id).first<any>()
    expect(row).toMatchObject({ price_cents: 1999, deleted: 0 })
    expect(JSON.parse(row.windows)).toEqual(basicPlan.windows)
    expect((await root.get('/api/plan/')).body.data).toEqual([plan])
  })

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const root = await setupRoot()
    const bad = [
      { ...basicPlan, name: '' },
      { ...basicPlan, price: -1 },
      { ...basicPlan, price: 1.234 },
      { ...basicPlan, duration_unit: 'decade' },
      { ...basicPlan, windows: [{ period: 'day', quota: 10, requests: 5 }] },
      { ...basicPlan, windows: [{ period: 'year', quota: 10 }] },
      { ...basicPlan, windows: [{ period: 'day', quota: 0 }] },
      { ...basicPlan, models: [{ pattern: 'x', excluded: false }] },
      { ...basicPlan, unknown_field: 1 },
      { ...basicPlan, group: 'no-such-group' },
      { ...basicPlan, channel_tags: [''] },
      { ...basicPlan, channel_tags: ['premium', 'premium'] },
      { ...basicPlan, channel_tags: Array.from({ length: 17 }, (_, i) => `t${i}`) },
      { ...basicPlan, channel_tags: 'premium' },
    ]
    for (const body of bad) {
      const res = await root.post('/api/plan/', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.success).toBe(false)
    }
    expect(await planCount()).toBe(0)
    const id = (await root.post('/api/plan/', basicPlan)).body.data.id
    expect((await root.put(`/api/plan/${id}`, { ...basicPlan, windows: 'lots' })).status).toBe(400)
    expect((await root.get('/api/plan/')).body.data[0]).toMatchObject({ windows: basicPlan.windows })
    expect((await root.put('/api/plan/999', basicPlan)).status).toBe(404)
  })

  it('stores the channel tags a plan is limited to, trimmed, and copies them into its subscriptions', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/plan/', { ...basicPlan, channel_tags: [' premium ', 'fast'] })).body.data.id
    expect((await root.get('/api/plan/')).body.data[0]).toMatchObject({ id, channel_tags: ['premium', 'fast'] })
    expect((await root.put(`/api/plan/${id}`, { ...basicPlan, channel_tags: ['premium'] })).status).toBe(200)
    expect((await root.get('/api/plan/')).body.data[0]).toMatchObject({ id, channel_tags: ['premium'] })
    const { id: userId } = await signedInUser('tagsubscriber')
    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: id })).status).toBe(200)
    const row = await env.DB.prepare('SELECT terms FROM subscriptions WHERE user_id = ?').bind(userId).first<{ terms: string }>()
    expect(JSON.parse(row!.terms).channel_tags).toEqual(['premium'])
  })

  it('lets an administrator edit a plan but not its price; root changes the price', async () => {
    const root = await setupRoot()
    const { admin } = await adminAndUser(root)
    const id = (await admin.post('/api/plan/', basicPlan)).body.data.id
    const edited = await admin.put(`/api/plan/${id}`, { ...basicPlan, name: 'Pro+', group: 'vip' })
    expect(edited.status).toBe(200)
    expect(edited.body.data).toMatchObject({ name: 'Pro+', group: 'vip', price: 19.99 })
    const refused = await admin.put(`/api/plan/${id}`, { ...basicPlan, price: 0.01 })
    expect(refused.status).toBe(403)
    expect(await env.DB.prepare('SELECT price_cents, name FROM plans WHERE id = ?').bind(id).first()).toEqual({ price_cents: 1999, name: 'Pro+' })
    expect((await root.put(`/api/plan/${id}`, { ...basicPlan, price: 24.5 })).body.data.price).toBe(24.5)
    const logs = await env.DB.prepare("SELECT content FROM logs WHERE type = 3 AND content LIKE '%plan #%' ORDER BY id").all<{ content: string }>()
    expect(logs.results.map((r) => r.content)).toEqual([
      `planadmin created plan #${id} "Pro" at $19.99`,
      `planadmin changed plan #${id} "Pro+"`,
      `root changed plan #${id} "Pro": price $19.99 → $24.5`,
    ])
  })

  it('shows users only published plans; delete unpublishes and hides a plan for good', async () => {
    const root = await setupRoot()
    const { user } = await adminAndUser(root)
    const shown = (await root.post('/api/plan/', basicPlan)).body.data.id
    await root.post('/api/plan/', { ...basicPlan, name: 'Draft', published: false })
    const gone = (await root.post('/api/plan/', { ...basicPlan, name: 'Old' })).body.data.id
    expect((await root.delete(`/api/plan/${gone}`)).status).toBe(200)
    expect((await root.delete(`/api/plan/${gone}`)).status).toBe(404)
    expect((await root.put(`/api/plan/${gone}`, basicPlan)).status).toBe(404)
    expect(await env.DB.prepare('SELECT deleted, published FROM plans WHERE id = ?').bind(gone).first()).toEqual({ deleted: 1, published: 0 })
    const available = (await user.get('/api/plan/available')).body.data
    expect(available.map((p: { id: number }) => p.id)).toEqual([shown])
    expect((await root.get('/api/plan/')).body.data.map((p: { name: string }) => p.name)).toEqual(['Pro', 'Draft'])
  })

  it('keeps management to administrators and the list of available plans to signed-in users', async () => {
    const root = await setupRoot()
    const { user } = await adminAndUser(root)
    expect((await user.get('/api/plan/')).status).toBe(403)
    expect((await user.post('/api/plan/', basicPlan)).status).toBe(403)
    expect((await user.post('/api/plan/grant', { user_id: 1, plan_id: 1 })).status).toBe(403)
    expect((await new TestClient().get('/api/plan/available')).status).toBe(401)
    expect((await new TestClient().get('/api/user/subscription')).status).toBe(401)
    expect(await planCount()).toBe(0)
  })
})
