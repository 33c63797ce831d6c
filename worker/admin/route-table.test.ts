/**
 * Authorization over the whole route table: every /api route must declare its minimum role with
 * access(), and anonymous callers and lower roles must be refused (401/403) on every route above
 * their level. New routes are covered automatically. The rank test then plays anonymous / user /
 * other user / admin / other admin / root against the owner-scoped token, log and quota routes.
 */
import { describe, expect, it } from 'vitest'
import { app } from '../app'
import { ACCESS_ROLE } from '../middleware/access'
import { TestClient, setupRoot, signedInUser } from '../test/client'
import { totpCode } from '../lib/totp'

interface RouteInfo {
  method: string
  path: string
  role: number
}

function apiRoutes(): RouteInfo[] {
  const byKey = new Map<string, RouteInfo & { declared: number[] }>()
  for (const r of app.routes) {
    if (!r.path.startsWith('/api') || r.method === 'ALL') continue
    const key = `${r.method} ${r.path}`
    const entry = byKey.get(key) ?? { method: r.method, path: r.path, role: -1, declared: [] }
    const role = (r.handler as unknown as Record<symbol, number>)[ACCESS_ROLE]
    if (role !== undefined) entry.declared.push(role)
    byKey.set(key, entry)
  }
  return [...byKey.values()].map((e) => {
    if (e.declared.length !== 1) throw new Error(`${e.method} ${e.path} declares ${e.declared.length} access roles (expected exactly 1)`)
    return { method: e.method, path: e.path, role: e.declared[0]! }
  })
}

const concrete = (path: string) =>
  path
    .replace(/:id(\{[^}]+\})?/g, '1')
    .replace(/:model\{[^}]+\}/g, 'gpt-4o')
    .replace(/:[a-z_]+(\{[^}]+\})?/g, 'x')

describe('route table authorization', () => {
  it('every /api route declares exactly one minimum role', () => {
    const routes = apiRoutes()
    expect(routes.length).toBeGreaterThan(40)
  })

  it('keeps the OpenAPI document (the whole admin surface) to administrators', async () => {
    const openapi = apiRoutes().find((r) => r.path === '/api/openapi.json')
    expect(openapi).toMatchObject({ method: 'GET', role: 10 })
    const root = await setupRoot()
    const { client: user } = await signedInUser('openapireader')
    expect((await new TestClient().get('/api/openapi.json')).status).toBe(401)
    expect((await user.get('/api/openapi.json')).status).toBe(403)
    expect(((await root.get('/api/openapi.json')).body as unknown as { openapi: string }).openapi).toBe('3.1.0')
  })

  it('keeps the import routes (they write a whole database) to root', () => {
    const routes = apiRoutes().filter((r) => r.path.startsWith('/api/import/'))
    expect(routes.map((r) => `${r.method} ${r.path} ${r.role}`).sort()).toEqual(['check', 'start', 'batch', 'finish'].map((p) => `POST /api/import/${p} 100`).sort())
  })

  it('keeps the OAuth account-switch confirmation to signed-in users (issue 12)', () => {
    expect(apiRoutes().find((r) => r.path === '/api/oauth/switch')).toMatchObject({ method: 'POST', role: 1 })
  })

  it('refuses anonymous callers (401), users (403) and admins on root routes (403)', async () => {
    const routes = apiRoutes()
    const root = await setupRoot()
    const { client: user } = await signedInUser('plainuser')
    const { client: admin, id: adminId } = await signedInUser('adminuser')
    expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
    const anon = new TestClient()
    await anon.get('/api/status')

    const failures: string[] = []
    for (const r of routes) {
      const path = concrete(r.path)
      const probe = async (client: TestClient) => (await client.call(r.method, path, { body: r.method === 'GET' ? undefined : {} })).status
      if (r.role >= 1) {
        const s = await probe(anon)
        if (s !== 401) failures.push(`anonymous ${r.method} ${path} → ${s}`)
      }
      if (r.role >= 10) {
        const s = await probe(user)
        if (s !== 403) failures.push(`user ${r.method} ${path} → ${s}`)
      }
      if (r.role >= 100) {
        const s = await probe(admin)
        if (s !== 403) failures.push(`admin ${r.method} ${path} → ${s}`)
      }
    }
    expect(failures).toEqual([])
  })

  it('sends an admin without a second factor to set one up on every admin route when Require2FAForAdmins is on (issue 36)', async () => {
    const routes = apiRoutes()
    const root = await setupRoot()
    const { client: admin, id: adminId } = await signedInUser('no2faadmin')
    expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'Require2FAForAdmins', value: 'true' })).status).toBe(200)

    const failures: string[] = []
    const probe = async (client: TestClient, r: RouteInfo) => {
      const res = await client.call(r.method, concrete(r.path), { body: r.method === 'GET' ? undefined : {} })
      return { status: res.status, refused: res.status === 403 && (res.body as { code?: string }).code === '2fa_setup_required' }
    }
    for (const r of routes) {
      if (r.path.includes('logout')) continue
      const asAdmin = await probe(admin, r)
      // Root routes stay a plain 403 for an admin; every admin route asks for the second factor.
      if (r.role >= 10 && r.role < 100 && !asAdmin.refused) failures.push(`admin ${r.method} ${r.path} → ${asAdmin.status}`)
      if (r.role >= 100 && asAdmin.status !== 403) failures.push(`admin ${r.method} ${r.path} → ${asAdmin.status}`)
      if (r.role < 10 && asAdmin.refused) failures.push(`admin refused on own route ${r.method} ${r.path}`)
      // Root is held to it too, on every admin and root route.
      if (r.role >= 10 && !(await probe(root, r)).refused) failures.push(`root ${r.method} ${r.path}`)
    }
    expect(failures).toEqual([])
    // What setting it up needs keeps working.
    expect((await root.get('/api/user/self')).status).toBe(200)
    const { secret } = (await root.post('/api/user/2fa/setup')).body.data
    expect((await root.post('/api/user/2fa/enable', { code: await totpCode(secret, Date.now()) })).status).toBe(200)
    expect((await root.get('/api/user/')).status).toBe(200)
    // Plain users are never asked.
    const { client: user } = await signedInUser('plainno2fa')
    expect((await user.get('/api/user/self')).status).toBe(200)
  })

  it('never answers 500 to an empty body on any route, for any role', async () => {
    const routes = apiRoutes()
    const root = await setupRoot()
    const failures: string[] = []
    for (const r of routes) {
      if (r.path === '/api/setup' || r.path.includes('logout')) continue
      const res = await root.call(r.method, concrete(r.path), { body: r.method === 'GET' ? undefined : {} })
      if (res.status >= 500 && !r.path.includes('/channel/test')) failures.push(`${r.method} ${r.path} → ${res.status} ${res.body.message}`)
      // Exports and the OpenAPI document are files, not envelopes.
      if (res.body.success === undefined && !r.path.includes('export') && !r.path.endsWith('/openapi.json')) failures.push(`${r.method} ${r.path} → no envelope`)
    }
    expect(failures).toEqual([])
  })

  it('applies the rank rule on token, log and quota routes (admin → lower roles only, root → everyone)', async () => {
    const root = await setupRoot()
    const { client: user, id: userId } = await signedInUser('rankuser')
    const { client: other, id: otherId } = await signedInUser('rankother')
    const { client: admin, id: adminId } = await signedInUser('rankadmin')
    const { client: peer, id: peerId } = await signedInUser('rankpeer')
    for (const id of [adminId, peerId]) expect((await root.post('/api/user/manage', { id, action: 'promote' })).status).toBe(200)
    const rootId = (await root.get('/api/user/self')).body.data.id as number
    const anon = new TestClient()
    await anon.get('/api/status')

    const form = { name: 'rank key', remain_quota: 0, unlimited_quota: true, expired_time: -1 }
    const tokenOf = async (client: TestClient) => (await client.post('/api/token/', form)).body.data as { id: number; key: string }
    const [rootTok, userTok, otherTok, adminTok, peerTok] = await Promise.all([root, user, other, admin, peer].map(tokenOf))
    const search = async (client: TestClient, ownerId: number) => (await client.get(`/api/token/admin/search?user_id=${ownerId}`)).body.data.data as { key: string }[]

    // Admin search: nothing of root or a peer; lower users' keys masked.
    expect(await search(admin, rootId)).toEqual([])
    expect(await search(admin, peerId)).toEqual([])
    expect((await admin.get('/api/token/admin/search')).body.data.data.map((t: { user_id: number }) => t.user_id).sort()).toEqual([userId, otherId, adminId].sort())
    const seen = await search(admin, userId)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.key).not.toBe(userTok!.key)
    expect(seen[0]!.key).toMatch(/^sk-.{4}\*+.{4}$/)
    expect(await search(root, peerId)).toHaveLength(1)
    expect((await search(root, rootId))[0]!.key).not.toBe(rootTok!.key)

    // Admin edit/delete: 403 above the admin's rank, allowed on lower users and on their own keys.
    const edit = (client: TestClient, id: number) => client.put('/api/token/admin', { ...form, id, name: 'edited' }).then((r) => r.status)
    const del = (client: TestClient, id: number) => client.delete(`/api/token/admin/${id}`).then((r) => r.status)
    expect(await edit(admin, rootTok!.id)).toBe(403)
    expect(await edit(admin, peerTok!.id)).toBe(403)
    expect(await del(admin, rootTok!.id)).toBe(403)
    expect(await del(admin, peerTok!.id)).toBe(403)
    expect(await edit(admin, userTok!.id)).toBe(200)
    expect(await edit(admin, adminTok!.id)).toBe(200)
    expect(await edit(root, peerTok!.id)).toBe(200)
    expect((await root.get(`/api/token/${rootTok!.id}`)).body.data.name).toBe('rank key')

    // Users: another user's token is invisible (404) on every owner route.
    expect((await user.get(`/api/token/${otherTok!.id}`)).status).toBe(404)
    expect((await user.put('/api/token/', { ...form, id: otherTok!.id })).status).toBe(404)
    expect((await user.delete(`/api/token/${otherTok!.id}`)).status).toBe(404)
    expect((await user.post(`/api/token/${otherTok!.id}/key`)).status).toBe(404)

    // Reveal: owner or root only, each reveal logged with the actor.
    expect((await anon.post(`/api/token/${userTok!.id}/key`)).status).toBe(401)
    expect((await admin.post(`/api/token/admin/${userTok!.id}/key`)).status).toBe(403)
    expect((await admin.post(`/api/token/${userTok!.id}/key`)).status).toBe(404)
    expect((await user.post(`/api/token/${userTok!.id}/key`)).body.data.key).toBe(userTok!.key)
    expect((await root.post(`/api/token/admin/${peerTok!.id}/key`)).body.data.key).toBe(peerTok!.key)
    expect((await root.post(`/api/token/${rootTok!.id}/key`)).body.data.key).toBe(rootTok!.key)
    const reveals = (await root.get('/api/log/?type=3&page_size=100')).body.data.data as { user_id: number; content: string; metadata: Record<string, unknown> }[]
    expect(reveals.filter((l) => l.content.includes('revealed the key')).map((l) => [l.user_id, l.metadata.actor_id])).toEqual(
      expect.arrayContaining([
        [userId, userId],
        [peerId, rootId],
        [rootId, rootId],
      ])
    )

    // Logs: an admin sees no log row of root or of a peer (list, stat, export); root sees them.
    const adminLogs = (await admin.get('/api/log/?page_size=100')).body.data.data as { user_id: number }[]
    expect(adminLogs.length).toBeGreaterThan(0)
    expect(adminLogs.filter((l) => l.user_id === rootId || l.user_id === peerId)).toEqual([])
    expect((await admin.get('/api/log/stat?username=rankpeer')).body.data.count).toBe(0)
    expect((await root.get('/api/log/stat?username=rankpeer')).body.data.count).toBeGreaterThan(0)
    expect(await (await admin.raw('GET', '/api/log/export?type=3')).text()).not.toContain('rankpeer')
    expect(await (await root.raw('GET', '/api/log/export?type=3')).text()).toContain('rankpeer')

    // Quota: an admin changes only lower users' balances; root changes anyone's.
    const quota = (client: TestClient, id: number) => client.post(`/api/user/quota/${id}`, { quota: 100, remark: 'rank' }).then((r) => r.status)
    expect(await quota(admin, rootId)).toBe(403)
    expect(await quota(admin, peerId)).toBe(403)
    expect(await quota(user, otherId)).toBe(403)
    expect(await quota(anon, userId)).toBe(401)
    expect(await quota(admin, userId)).toBe(200)
    expect(await quota(root, peerId)).toBe(200)
    const setQuota = (client: TestClient, id: number, username: string) => client.put('/api/user/', { id, username, group: 'default', quota: 5 }).then((r) => r.status)
    expect(await setQuota(admin, rootId, 'root')).toBe(403)
    expect(await setQuota(admin, peerId, 'rankpeer')).toBe(403)
    expect(await setQuota(admin, otherId, 'rankother')).toBe(200)
  })
})
