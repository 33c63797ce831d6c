import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { app } from '../../app'
import { createDb } from '../../db/client'
import { auditLogs } from '../../db/schema'
import { ACCESS_ROLE } from '../../middleware/access'
import { setupRoot, signedInUser, type TestClient } from '../../test/client'
import { setOptions } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { writeAudit } from '../../logs/audit'
import { scheduledRetention } from '../../logs/log-retention'
import { nowSeconds } from '../../lib/time'
import { ACTION_OVERRIDES, UNAUDITED, auditAction } from './audit-actions'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const rows = () => createDb(env.DB).select().from(auditLogs)

async function adminClient(root: TestClient, username: string) {
  const admin = await signedInUser(username)
  expect((await root.post('/api/user/manage', { id: admin.id, action: 'promote' })).status).toBe(200)
  return admin
}

const channelForm = { type: 1, name: 'audit-ch', key: 'sk-audit-original-key-0001', base_url: 'https://upstream.test', models: 'gpt-4o', group: 'default' }

describe('audit trail', () => {
  it('writes one row for an admin editing a channel, with the field diff and the key only as changed', async () => {
    const root = await setupRoot()
    const { client: admin, id: adminId } = await adminClient(root, 'auditadmin')
    const created = (await admin.post('/api/channel/', channelForm)).body.data[0]
    const before = (await rows()).length
    const res = await admin.put(
      '/api/channel/',
      { ...channelForm, id: created.id, name: 'audit-renamed', key: 'sk-audit-replaced-key-0002', weight: 7 },
      { headers: { 'user-agent': 'audit-test/1.0' } }
    )
    expect(res.status).toBe(200)
    const after = await rows()
    expect(after).toHaveLength(before + 1)
    const row = after.at(-1)!
    expect(row).toMatchObject({
      actorId: adminId,
      actorName: 'auditadmin',
      actorRole: 10,
      action: 'channel.update',
      targetType: 'channel',
      targetId: String(created.id),
      method: 'PUT',
      path: '/api/channel/',
      userAgent: 'audit-test/1.0',
    })
    expect(row.requestId).toBe(res.headers.get('x-request-id'))
    expect(row.diff).toMatchObject({ name: { from: 'audit-ch', to: 'audit-renamed' }, weight: { to: 7 }, key: 'changed' })
    expect(JSON.stringify(row)).not.toContain('sk-audit')
  })

  it('writes none for reads, refused or failed calls, and plain users; the fallback diff is the request fields', async () => {
    const root = await setupRoot()
    const { client: admin } = await adminClient(root, 'auditadmin2')
    const { client: user } = await signedInUser('audituser')
    const start = (await rows()).length
    expect((await admin.get('/api/channel/')).status).toBe(200)
    expect((await admin.put('/api/channel/', { id: 'x' })).status).toBe(400)
    expect((await admin.put('/api/option/', { key: 'SystemName', value: 'x' })).status).toBe(403)
    expect((await user.post('/api/token/', { name: 'mine', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).status).toBe(200)
    expect(await rows()).toHaveLength(start)
    expect((await admin.post('/api/token/', { name: 'admin key', remain_quota: 5, unlimited_quota: false, expired_time: -1 })).status).toBe(200)
    const all = await rows()
    expect(all).toHaveLength(start + 1)
    expect(all.at(-1)).toMatchObject({ action: 'token.create', targetType: 'token', diff: expect.objectContaining({ name: { to: 'admin key' }, remain_quota: { to: 5 } }) })
  })

  it('records secret settings, user quota and token changes with real before/after values', async () => {
    const root = await setupRoot()
    const { id: userId } = await signedInUser('quotauser')
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret-pass' })).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'SystemName', value: 'Audited' })).status).toBe(200)
    expect((await root.post(`/api/user/quota/${userId}`, { quota: 1000, remark: 'gift' })).status).toBe(200)
    const tok = (await root.post('/api/token/', { name: 't1', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).body.data
    expect((await root.put('/api/token/', { id: tok.id, name: 't2', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).status).toBe(200)
    expect((await root.delete(`/api/token/${tok.id}`)).status).toBe(200)
    const all = await rows()
    const find = (action: string, targetId?: string) => all.find((r) => r.action === action && (targetId === undefined || r.targetId === targetId))!
    expect(find('option.update', 'SMTPToken').diff).toEqual({ SMTPToken: 'changed' })
    expect(find('option.update', 'SystemName').diff).toMatchObject({ SystemName: { to: 'Audited' } })
    expect(find('user.quota', String(userId)).diff).toMatchObject({ quota: { to: expect.any(Number) }, change: { to: 1000 }, remark: { to: 'gift' } })
    expect(find('token.update', String(tok.id)).diff).toMatchObject({ name: { from: 't1', to: 't2' }, key: 'unchanged' })
    expect(find('token.delete', String(tok.id)).diff).toMatchObject({ name: { from: 't2' }, key: 'changed' })
    expect(JSON.stringify(all)).not.toContain('smtp-secret-pass')
    expect(JSON.stringify(all)).not.toContain(tok.key.slice(3))
  })

  it('lists rows under the rank rule with filters and paging', async () => {
    const root = await setupRoot()
    const { client: admin, id: adminId } = await adminClient(root, 'rankauditor')
    const { client: peer } = await adminClient(root, 'rankpeer')
    const created = (await admin.post('/api/channel/', channelForm)).body.data[0]
    expect((await admin.put('/api/channel/', { ...channelForm, id: created.id, name: 'by-admin' })).status).toBe(200)
    expect((await peer.post('/api/token/', { name: 'peer key', remain_quota: 0, unlimited_quota: true, expired_time: -1 })).status).toBe(200)
    const list = async (client: TestClient, qs = '') =>
      (await client.get(`/api/audit/?page_size=100${qs}`)).body.data as { data: { actor_name: string; action: string; target_id: string }[]; total_count: number }

    const seenByRoot = await list(root)
    expect(new Set(seenByRoot.data.map((r) => r.actor_name))).toEqual(new Set(['root', 'rankauditor', 'rankpeer']))
    const seenByAdmin = await list(admin)
    expect(seenByAdmin.data.length).toBeGreaterThan(0)
    expect(new Set(seenByAdmin.data.map((r) => r.actor_name))).toEqual(new Set(['rankauditor']))

    expect((await list(root, '&actor=rankpeer')).data.map((r) => r.action)).toEqual(['token.create'])
    expect((await list(root, `&actor=${adminId}&action=channel.update`)).data).toHaveLength(1)
    expect((await list(root, '&action=channel.')).data.map((r) => r.action).sort()).toEqual(['channel.create', 'channel.update'])
    expect((await list(root, `&target_type=channel&target_id=${created.id}`)).data.map((r) => r.action)).toEqual(['channel.update', 'channel.create'])
    expect((await list(root, `&end_timestamp=${nowSeconds() - 3600}`)).total_count).toBe(0)
    expect((await list(root, `&start_timestamp=${nowSeconds() - 3600}`)).total_count).toBe(seenByRoot.total_count)
    const paged = (await root.get('/api/audit/?page_size=1&p=2')).body.data
    expect(paged).toMatchObject({ page: 2, size: 1, total_count: seenByRoot.total_count })
    expect(paged.data).toHaveLength(1)
    expect((await root.get('/api/audit/?action=DROP TABLE')).status).toBe(400)
    const { client: user } = await signedInUser('nosy')
    expect((await user.get('/api/audit/')).status).toBe(403)
  })

  it('exports the visible rows as CSV, secrets left out', async () => {
    const root = await setupRoot()
    const { client: admin } = await adminClient(root, 'csvadmin')
    const created = (await admin.post('/api/channel/', channelForm)).body.data[0]
    expect((await admin.put('/api/channel/', { ...channelForm, id: created.id, name: 'csv-renamed' })).status).toBe(200)
    const res = await admin.raw('GET', '/api/audit/export?action=channel.update')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/csv')
    const lines = (await res.text()).trim().split('\n')
    expect(lines[0]!.replace(/^\uFEFF/, '')).toBe('id,created_at,actor_id,actor_name,action,target_type,target_id,diff,ip,user_agent,request_id')
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('channel.update')
    expect(lines[1]).toContain('csv-renamed')
    expect(lines.join('\n')).not.toContain('sk-audit')
    // The admin's export holds none of root's rows.
    expect(lines.join('\n')).not.toContain(',root,')
  })

  it('drops rows older than LogCleanupDays in the hourly retention run', async () => {
    const root = await setupRoot()
    const actor = { id: 1, username: 'root', displayName: 'root', role: 100, status: 1, group: 'default' }
    const entry = { action: 'channel.update', targetType: 'channel', targetId: '1', diff: {}, method: 'PUT', path: '/api/channel/', ip: '', userAgent: '', requestId: '' }
    await writeAudit(env, actor, entry, nowSeconds() - 40 * 86400)
    await writeAudit(env, actor, entry, nowSeconds() - 86400)
    await setOptions({ LogCleanupDays: '30' })
    await scheduledRetention(env)
    expect((await rows()).filter((r) => r.action === 'channel.update').map((r) => r.createdAt > nowSeconds() - 2 * 86400)).toEqual([true])
    expect((await root.get('/api/audit/')).status).toBe(200)
  })
})

describe('audit actions over the route table', () => {
  const stateChanging = () => {
    const seen = new Set<string>()
    for (const r of app.routes) {
      if (!r.path.startsWith('/api') || ['GET', 'ALL', 'HEAD', 'OPTIONS'].includes(r.method)) continue
      if ((r.handler as unknown as Record<symbol, number>)[ACCESS_ROLE] === undefined) continue
      seen.add(`${r.method} ${r.path}`)
    }
    return [...seen]
  }

  it('names every state-changing management route as <target>.<verb>', () => {
    const routes = stateChanging()
    expect(routes.length).toBeGreaterThan(60)
    const bad = routes.filter((k) => !UNAUDITED.has(k)).filter((k) => !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(auditAction(k.split(' ')[0]!, k.split(' ')[1]!) ?? ''))
    expect(bad).toEqual([])
    expect(auditAction('POST', '/api/user/quota/:id{[0-9]+}')).toBe('user.quota')
    expect(auditAction('PUT', '/api/channel/')).toBe('channel.update')
    expect(auditAction('DELETE', '/api/token/admin/:id')).toBe('token.delete')
    expect(auditAction('PUT', '/api/payment/')).toBe('payment_gateway.update')
  })

  it('has no override or exclusion for a route that does not exist', () => {
    const routes = new Set(stateChanging())
    expect([...Object.keys(ACTION_OVERRIDES), ...UNAUDITED].filter((k) => !routes.has(k))).toEqual([])
  })
})
