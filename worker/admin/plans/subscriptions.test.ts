/**
 * Administrators' grants, revokes and extensions (issue 33): idempotent grants, max_per_user under
 * concurrency, the rank rule, the plan's group moved into and restored, the pro-rata refund through
 * the wallet (one log row, once), and extension by calendar months in BudgetTimezone.
 */
import { describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser, type TestClient } from '../../test/client'
import { setOptions } from '../../test/factories'
import { expiryAfter } from '../../plans/plan-duration'
import { sweepExpiredSubscriptions } from '../../plans/subscription-end'

const plan = (extra: Record<string, unknown> = {}) => ({
  name: 'Basic',
  price: 10,
  duration_unit: 'month',
  windows: [{ period: 'day', quota: 1000 }],
  published: true,
  ...extra,
})

async function people() {
  const root = await setupRoot()
  const rootId = (await root.get('/api/user/self')).body.data.id as number
  const { client: admin, id: adminId } = await signedInUser('subadmin')
  expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
  const { client: user, id: userId } = await signedInUser('subuser')
  return { root, rootId, admin, adminId, user, userId }
}

const createPlan = async (client: TestClient, extra: Record<string, unknown> = {}) => (await client.post('/api/plan/', plan(extra))).body.data.id as number
const subRows = (userId: number) =>
  env.DB.prepare('SELECT id, status, source, key, previous_group, created_by FROM subscriptions WHERE user_id = ? ORDER BY id').bind(userId).all<any>()
const groupOf = async (userId: number) => (await env.DB.prepare('SELECT "group" AS g FROM users WHERE id = ?').bind(userId).first<{ g: string }>())!.g

describe('plan grants', () => {
  it('grants once per key, logs it for the user and the audit trail, and tells the wallet', async () => {
    const { root, admin, adminId, userId } = await people()
    const planId = await createPlan(root)
    const synced: number[] = []
    const real = env.WALLET.getByName.bind(env.WALLET)
    const spy = vi.spyOn(env.WALLET, 'getByName').mockImplementation((name: string) => {
      const stub = real(name)
      return new Proxy(stub, {
        get: (t, p) => (p === 'syncUser' ? (input: { userId: number }) => (synced.push(input.userId), t.syncUser(input)) : Reflect.get(t, p)),
      })
    })
    const first = await admin.post('/api/plan/grant', { user_id: userId, plan_id: planId, key: 'welcome-1' })
    const again = await admin.post('/api/plan/grant', { user_id: userId, plan_id: planId, key: 'welcome-1' })
    spy.mockRestore()
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.body.data.id).toBe(first.body.data.id)
    expect(first.body.data).toMatchObject({ plan_id: planId, name: 'Basic', status: 1, source: 'grant', terms: { name: 'Basic', price_cents: 1000 } })
    expect(synced).toContain(userId)
    expect((await subRows(userId)).results).toEqual([expect.objectContaining({ status: 1, source: 'grant', key: 'grant:welcome-1', created_by: adminId })])
    const logs = await env.DB.prepare("SELECT user_id, content FROM logs WHERE type = 3 AND content LIKE '%granted plan%'").all<any>()
    expect(logs.results).toEqual([{ user_id: userId, content: `subadmin granted plan "Basic" (#${planId}) to subuser: subscription #${first.body.data.id}` }])
    const audit = await env.DB.prepare("SELECT actor_id, target_id FROM audit_logs WHERE action = 'plan.grant'").all<any>()
    expect(audit.results).toEqual([
      { actor_id: adminId, target_id: String(userId) },
      { actor_id: adminId, target_id: String(userId) },
    ])
    // A key names one grant: reusing it for another user is refused.
    const other = await signedInUser('subother')
    expect((await admin.post('/api/plan/grant', { user_id: other.id, plan_id: planId, key: 'welcome-1' })).status).toBe(409)
    expect((await admin.post('/api/plan/grant', { user_id: userId, plan_id: planId, bogus: 1 })).status).toBe(400)
    expect((await admin.post('/api/plan/grant', { user_id: userId, plan_id: 999 })).status).toBe(404)
    expect((await subRows(userId)).results).toHaveLength(1)
  })

  it('holds max_per_user under concurrent grants; revoked ones do not count, expired ones do', async () => {
    const { root, userId } = await people()
    const planId = await createPlan(root, { max_per_user: 2 })
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => root.post('/api/plan/grant', { user_id: userId, plan_id: planId, key: `race-${i}` })))
    expect(results.filter((r) => r.status === 200)).toHaveLength(2)
    expect(results.filter((r) => r.status === 409)).toHaveLength(3)
    const [a, b] = (await subRows(userId)).results
    expect((await root.post('/api/plan/revoke', { subscription_id: a.id, refund: false })).status).toBe(200)
    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).status).toBe(200)
    await env.DB.prepare('UPDATE subscriptions SET expires_at = 1 WHERE id = ?').bind(b.id).run()
    expect(await sweepExpiredSubscriptions(env)).toBe(1)
    expect((await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).status).toBe(409)
    expect((await subRows(userId)).results.map((r: { status: number }) => r.status)).toEqual([3, 2, 1])
  })

  it('lets an administrator act only on users of a lower rank', async () => {
    const { root, rootId, admin, adminId, userId } = await people()
    const planId = await createPlan(root)
    const { id: peerId } = await signedInUser('peeradmin')
    expect((await root.post('/api/user/manage', { id: peerId, action: 'promote' })).status).toBe(200)
    expect((await admin.post('/api/plan/grant', { user_id: rootId, plan_id: planId })).status).toBe(403)
    expect((await admin.post('/api/plan/grant', { user_id: peerId, plan_id: planId })).status).toBe(403)
    expect((await admin.get(`/api/plan/subscriptions?user_id=${rootId}`)).status).toBe(403)
    const rootSub = (await root.post('/api/plan/grant', { user_id: rootId, plan_id: planId })).body.data.id
    expect((await admin.post('/api/plan/revoke', { subscription_id: rootSub, refund: false })).status).toBe(403)
    expect((await admin.post('/api/plan/extend', { subscription_id: rootSub, duration_unit: 'day', duration_count: 1 })).status).toBe(403)
    expect((await admin.post('/api/plan/grant', { user_id: userId, plan_id: planId })).status).toBe(200)
    // A plan is money: an administrator gives none to themself (root may).
    expect((await admin.post('/api/plan/grant', { user_id: adminId, plan_id: planId })).status).toBe(403)
    const own = (await root.post('/api/plan/grant', { user_id: adminId, plan_id: planId })).body.data.id
    expect((await admin.post('/api/plan/extend', { subscription_id: own, duration_unit: 'day' })).status).toBe(403)
    expect((await admin.post('/api/plan/revoke', { subscription_id: own, refund: true })).status).toBe(403)
    expect((await admin.post('/api/plan/revoke', { subscription_id: own, refund: false })).status).toBe(200)
    expect((await root.post('/api/plan/grant', { user_id: rootId, plan_id: planId })).status).toBe(200)
    expect((await admin.get(`/api/plan/subscriptions?user_id=${userId}`)).body.data).toHaveLength(1)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE user_id IN (?, ?)').bind(rootId, peerId).first()).toEqual({ n: 2 })
  })

  it("moves the user into the plan's group and back when revoked or expired, through stacked plans", async () => {
    const { root, userId } = await people()
    const vip = await createPlan(root, { group: 'vip' })
    const svip = await createPlan(root, { group: 'svip', priority: 5 })
    const first = (await root.post('/api/plan/grant', { user_id: userId, plan_id: vip })).body.data.id
    expect(await groupOf(userId)).toBe('vip')
    const second = (await root.post('/api/plan/grant', { user_id: userId, plan_id: svip })).body.data.id
    expect(await groupOf(userId)).toBe('svip')
    expect((await subRows(userId)).results.map((r: { previous_group: string }) => r.previous_group)).toEqual(['default', 'default'])
    // The svip subscription ends: the vip one still holds a group.
    expect((await root.post('/api/plan/revoke', { subscription_id: second, refund: false })).status).toBe(200)
    expect(await groupOf(userId)).toBe('vip')
    // The vip one expires: back home.
    await env.DB.prepare('UPDATE subscriptions SET expires_at = ? WHERE id = ?')
      .bind(Date.now() - 1000, first)
      .run()
    expect(await sweepExpiredSubscriptions(env)).toBe(1)
    expect(await groupOf(userId)).toBe('default')
    expect(await sweepExpiredSubscriptions(env)).toBe(0)
    // A group an administrator set meanwhile is left alone.
    const third = (await root.post('/api/plan/grant', { user_id: userId, plan_id: vip })).body.data.id
    await env.DB.prepare('UPDATE users SET "group" = \'svip\' WHERE id = ?').bind(userId).run()
    await root.post('/api/plan/revoke', { subscription_id: third, refund: false })
    expect(await groupOf(userId)).toBe('svip')
  })

  it('refunds the unused share of the price to the balance once, with one log row', async () => {
    const { root, user, userId } = await people()
    const planId = await createPlan(root, { price: 10 })
    const sub = (await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).body.data.id
    // Half of the duration is left (whole = 2e9 ms, so the milliseconds the test takes are noise).
    const now = Date.now()
    await env.DB.prepare('UPDATE subscriptions SET starts_at = ?, expires_at = ? WHERE id = ?')
      .bind(now - 1e9, now + 1e9, sub)
      .run()
    const res = await root.post('/api/plan/revoke', { subscription_id: sub, refund: true })
    expect(res.status).toBe(200)
    const refunded = res.body.data.refunded as number
    // $10 = 5,000,000 quota units; half of it, rounded down.
    expect(refunded).toBeGreaterThan(2_499_900)
    expect(refunded).toBeLessThanOrEqual(2_500_000)
    expect(res.body.data.subscription).toMatchObject({ id: sub, status: 3 })
    expect((await root.post('/api/plan/revoke', { subscription_id: sub, refund: true })).status).toBe(400)
    expect((await user.get('/api/user/self')).body.data.quota).toBe(refunded)
    const logs = await env.DB.prepare('SELECT type, quota, content FROM logs WHERE user_id = ? AND quota <> 0').bind(userId).all<any>()
    expect(logs.results).toEqual([{ type: 3, quota: refunded, content: `root revoked subscription #${sub} to "Basic" and refunded its unused share` }])
    // Without a refund nothing is credited; a plan that never expires has no share to refund.
    const forever = await createPlan(root, { duration_unit: 'unlimited' })
    const kept = (await root.post('/api/plan/grant', { user_id: userId, plan_id: forever })).body.data
    expect(kept.expires_at).toBe(0)
    expect((await root.post('/api/plan/revoke', { subscription_id: kept.id, refund: true })).status).toBe(400)
    expect((await root.post('/api/plan/revoke', { subscription_id: kept.id, refund: false })).body.data.refunded).toBe(0)
    expect((await user.get('/api/user/self')).body.data.quota).toBe(refunded)
  })

  it('starts now and extends by calendar months in BudgetTimezone', async () => {
    const { root, userId } = await people()
    await setOptions({ BudgetTimezone: 'America/New_York' })
    const planId = await createPlan(root, { duration_unit: 'month', duration_count: 1 })
    const before = Date.now()
    const sub = (await root.post('/api/plan/grant', { user_id: userId, plan_id: planId })).body.data
    expect(sub.starts_at).toBeGreaterThanOrEqual(before)
    expect(sub.expires_at).toBe(expiryAfter(sub.starts_at, 'month', 1, 'America/New_York'))
    const extended = await root.post('/api/plan/extend', { subscription_id: sub.id, duration_unit: 'month', duration_count: 2 })
    expect(extended.status).toBe(200)
    expect(extended.body.data.expires_at).toBe(expiryAfter(sub.expires_at, 'month', 2, 'America/New_York'))
    expect((await root.post('/api/plan/extend', { subscription_id: sub.id, duration_unit: 'fortnight' })).status).toBe(400)
    expect((await root.post('/api/plan/extend', { subscription_id: 999, duration_unit: 'day' })).status).toBe(404)
    const forever = await root.post('/api/plan/extend', { subscription_id: sub.id, duration_unit: 'unlimited' })
    expect(forever.body.data.expires_at).toBe(0)
    expect((await root.post('/api/plan/extend', { subscription_id: sub.id, duration_unit: 'day' })).status).toBe(400)
  })
})
