/**
 * Admin self-service money (issue 12): an administrator below root cannot raise their own balance
 * (quota route or user form) nor redeem codes they created; root can do both. Creating and editing
 * codes, and every quota change, leave a manage log naming the actor.
 */
import { describe, expect, it } from 'vitest'
import { setupRoot, signedInUser, type TestClient } from '../../test/client'

async function actors() {
  const root = await setupRoot()
  const rootId = (await root.get('/api/user/self')).body.data.id as number
  const { client: admin, id: adminId } = await signedInUser('moneyadmin')
  expect((await root.post('/api/user/manage', { id: adminId, action: 'promote' })).status).toBe(200)
  const { client: user, id: userId } = await signedInUser('moneyuser')
  return { root, rootId, admin, adminId, user, userId }
}

const balance = async (client: TestClient) => (await client.get('/api/user/self')).body.data.quota as number
const manageLogs = async (root: TestClient) =>
  (await root.get('/api/log/?type=3&page_size=100')).body.data.data as { user_id: number; content: string; metadata: Record<string, unknown> }[]

describe('admin self-service money', () => {
  it('refuses an admin raising their own quota; lowering it, other users and root stay allowed, all logged with the actor', async () => {
    const { root, rootId, admin, adminId, userId } = await actors()
    expect((await admin.post(`/api/user/quota/${adminId}`, { quota: 1000 })).status).toBe(403)
    expect((await admin.put('/api/user/', { id: adminId, username: 'moneyadmin', group: 'default', quota: 1_000_000 })).status).toBe(403)
    const before = await balance(admin)
    expect((await admin.put('/api/user/', { id: adminId, username: 'moneyadmin', group: 'default', quota: before })).status).toBe(200)
    expect((await admin.post(`/api/user/quota/${userId}`, { quota: 1000 })).status).toBe(200)
    expect((await root.post(`/api/user/quota/${adminId}`, { quota: 1000 })).status).toBe(200)
    expect((await root.post(`/api/user/quota/${rootId}`, { quota: 1000 })).status).toBe(200)
    expect(await balance(admin)).toBe(before + 1000)
    expect((await admin.post(`/api/user/quota/${adminId}`, { quota: -1 })).status).toBe(200)
    expect(await balance(admin)).toBe(before + 999)

    const logs = await manageLogs(root)
    expect(logs.find((l) => l.user_id === userId && l.content.includes('moneyadmin added 1000'))?.metadata.admin_id).toBe(adminId)
    expect(logs.find((l) => l.user_id === adminId && l.content.includes('root added 1000'))?.metadata.admin_id).toBe(rootId)
  })

  it('refuses an admin redeeming their own codes; others redeem them, root redeems its own; creation is logged', async () => {
    const { root, admin, adminId, user } = await actors()
    const [mine] = (await admin.post('/api/redemption/', { name: 'self', quota: 5000, count: 1 })).body.data as string[]
    const refused = await admin.post('/api/user/topup', { key: mine })
    expect(refused.status).toBe(403)
    expect(await balance(admin)).toBe(0)
    // The refused attempt did not burn the code: another user redeems it.
    expect((await user.post('/api/user/topup', { key: mine })).status).toBe(200)
    expect(await balance(user)).toBe(5000)

    const [rootCode] = (await root.post('/api/redemption/', { name: 'rootself', quota: 700, count: 1 })).body.data as string[]
    const rootBefore = await balance(root)
    expect((await root.post('/api/user/topup', { key: rootCode })).status).toBe(200)
    expect(await balance(root)).toBe(rootBefore + 700)

    const list = (await root.get('/api/redemption/?keyword=self')).body.data.data as { name: string; created_by: number }[]
    expect(list.find((r) => r.name === 'self')?.created_by).toBe(adminId)
    const logs = await manageLogs(root)
    expect(logs.find((l) => l.content.includes('moneyadmin created 1 redemption codes "self"'))).toMatchObject({ user_id: adminId, metadata: { actor_id: adminId } })
  })
})
