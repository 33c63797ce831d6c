import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { TestClient, setupRoot, signedInUser } from '../../test/client'

describe('user administration', () => {
  it('creates, lists, searches and edits users with validation', async () => {
    const root = await setupRoot()
    const bad = await root.post('/api/user/', { username: 'x', password: 'short', group: '', quota: -1 })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(['username', 'password', 'group', 'quota']))
    const created = await root.post('/api/user/', { username: 'bob', password: 'password-1', group: 'vip', quota: 5000 })
    expect(created.status).toBe(200)
    expect((await root.post('/api/user/', { username: 'bob', password: 'password-1', group: 'vip' })).status).toBe(409)
    const list = (await root.get('/api/user/?keyword=bo')).body.data
    expect(list.data.map((u: any) => u.username)).toEqual(['bob'])
    const id = created.body.data.id
    const edited = await root.put('/api/user/', { id, username: 'bobby', display_name: 'Bob', group: 'default', quota: 7000 })
    expect(edited.body.data).toMatchObject({ username: 'bobby', group: 'default', quota: 7000 })
    const logs = await env.DB.prepare('SELECT type, quota FROM logs WHERE user_id = ? ORDER BY id').bind(id).all<any>()
    expect(logs.results).toEqual([
      { type: 3, quota: 5000 },
      { type: 3, quota: 2000 },
    ])
  })

  it('adds and subtracts quota with a remark, never below zero', async () => {
    const root = await setupRoot()
    const id = (await root.post('/api/user/', { username: 'carol', password: 'password-1', group: 'default' })).body.data.id
    expect((await root.post(`/api/user/quota/${id}`, { quota: 1500, remark: 'welcome' })).body.data.quota).toBe(1500)
    expect((await root.post(`/api/user/quota/${id}`, { quota: -500, remark: 'refund' })).body.data.quota).toBe(1000)
    expect((await root.post(`/api/user/quota/${id}`, { quota: -5000 })).status).toBe(400)
    const log = await env.DB.prepare('SELECT content FROM logs WHERE user_id = ? AND type = 3 ORDER BY id DESC').bind(id).first<any>()
    expect(log.content).toContain('refund')
  })

  it('enforces role rules: root only promotes; root is untouchable; admins cannot manage peers', async () => {
    const root = await setupRoot()
    const { client: admin1, id: a1 } = await signedInUser('admin1')
    const { id: a2 } = await signedInUser('admin2')
    const { client: plain, id: u1 } = await signedInUser('plain')
    expect((await root.post('/api/user/manage', { id: a1, action: 'promote' })).status).toBe(200)
    expect((await root.post('/api/user/manage', { id: a2, action: 'promote' })).status).toBe(200)
    expect((await admin1.post('/api/user/manage', { id: u1, action: 'promote' })).status).toBe(403)
    expect((await admin1.post('/api/user/manage', { id: a2, action: 'disable' })).status).toBe(403)
    expect((await admin1.put('/api/user/', { id: a2, username: 'admin2', group: 'default' })).status).toBe(403)
    expect((await admin1.post('/api/user/manage', { id: 1, action: 'disable' })).status).toBe(403)
    expect((await root.post('/api/user/manage', { id: 1, action: 'demote' })).status).toBe(403)
    expect((await root.delete('/api/user/1')).status).toBe(403)
    // An admin disables an ordinary user: their session ends at once.
    expect((await plain.get('/api/user/self')).status).toBe(200)
    expect((await admin1.post('/api/user/manage', { id: u1, action: 'disable' })).status).toBe(200)
    expect((await plain.get('/api/user/self')).status).toBe(401)
    const relog = new TestClient()
    await relog.get('/api/status')
    expect((await relog.post('/api/user/login', { username: 'plain', password: 'user-password-1' })).status).toBe(403)
    expect((await root.post('/api/user/manage', { id: a1, action: 'demote' })).status).toBe(200)
    expect((await admin1.get('/api/user/')).status).toBe(403)
  })

  it('deletes a user with their tokens', async () => {
    const root = await setupRoot()
    const { client, id } = await signedInUser('leaving')
    await client.post('/api/token/', { name: 't', unlimited_quota: true })
    expect((await root.delete(`/api/user/${id}`)).status).toBe(200)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM tokens WHERE user_id = ?').bind(id).first('n')).toBe(0)
    expect((await root.get(`/api/user/${id}`)).status).toBe(404)
  })
})
