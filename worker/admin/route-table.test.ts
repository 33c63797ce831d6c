/**
 * Authorization over the whole route table: every /api route must declare its minimum role with
 * access(), and anonymous callers and lower roles must be refused (401/403) on every route above
 * their level. New routes are covered automatically.
 */
import { describe, expect, it } from 'vitest'
import { app } from '../app'
import { ACCESS_ROLE } from '../middleware/access'
import { TestClient, setupRoot, signedInUser } from '../test/client'

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

const concrete = (path: string) => path.replace(/:id(\{[^}]+\})?/g, '1').replace(/:model\{[^}]+\}/g, 'gpt-4o').replace(/:[a-z_]+(\{[^}]+\})?/g, 'x')

describe('route table authorization', () => {
  it('every /api route declares exactly one minimum role', () => {
    const routes = apiRoutes()
    expect(routes.length).toBeGreaterThan(40)
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

  it('never answers 500 to an empty body on any route, for any role', async () => {
    const routes = apiRoutes()
    const root = await setupRoot()
    const failures: string[] = []
    for (const r of routes) {
      if (r.path === '/api/setup' || r.path.includes('logout')) continue
      const res = await root.call(r.method, concrete(r.path), { body: r.method === 'GET' ? undefined : {} })
      if (res.status >= 500 && !r.path.includes('/channel/test')) failures.push(`${r.method} ${r.path} → ${res.status} ${res.body.message}`)
      if (res.body.success === undefined && !r.path.includes('export')) failures.push(`${r.method} ${r.path} → no envelope`)
    }
    expect(failures).toEqual([])
  })
})
