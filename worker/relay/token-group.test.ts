/**
 * A token's group is re-checked when the key is used (security finding 8): it counts only while it
 * is the owner's current group, a public enabled group, or any enabled group for a current admin.
 * /v1/models shows which group a key routes to without spending anything.
 */
import { describe, expect, it } from 'vitest'
import { setupRoot, signedInUser, type TestClient } from '../test/client'
import { createChannel, send } from '../test/factories'

const modelsOf = async (key: string) => ((await send('/v1/models', { key })).json?.data ?? []).map((m: { id: string }) => m.id) as string[]

async function groupsAndChannels(root: TestClient) {
  for (const g of [
    { symbol: 'gold', name: 'Gold', ratio: 1, public: false },
    { symbol: 'open', name: 'Open', ratio: 1, public: true },
  ])
    expect((await root.post('/api/user_group/', g)).status).toBe(200)
  await createChannel({ key: 'good', models: 'default-model', group: 'default' })
  await createChannel({ key: 'good', models: 'gold-model', group: 'gold' })
  await createChannel({ key: 'good', models: 'open-model', group: 'open' })
  const groups = (await root.get('/api/user_group/')).body.data as { id: number; symbol: string }[]
  return (symbol: string) => groups.find((g) => g.symbol === symbol)!
}

const tokenForm = (group: string) => ({ name: `key-${group}`, unlimited_quota: true, group })

describe('token group at auth time', () => {
  it('drops a private group as soon as the owner leaves it, and a public one once it turns private', async () => {
    const root = await setupRoot()
    const group = await groupsAndChannels(root)
    const { client, id } = await signedInUser('goldmember')
    expect((await root.put('/api/user/', { id, username: 'goldmember', group: 'gold' })).status).toBe(200)
    const goldKey = (await client.post('/api/token/', tokenForm('gold'))).body.data.key as string
    const openKey = (await client.post('/api/token/', tokenForm('open'))).body.data.key as string
    expect(await modelsOf(goldKey)).toEqual(['gold-model'])
    expect(await modelsOf(openKey)).toEqual(['open-model'])

    // Moved back to default: the gold key no longer reaches gold channels.
    expect((await root.put('/api/user/', { id, username: 'goldmember', group: 'default' })).status).toBe(200)
    expect(await modelsOf(goldKey)).toEqual(['default-model'])
    expect(await modelsOf(openKey)).toEqual(['open-model'])

    // The public group turns private: keys of users outside it fall back to their own group.
    const open = group('open')
    expect((await root.put('/api/user_group/', { id: open.id, symbol: 'open', name: 'Open', ratio: 1, public: false })).status).toBe(200)
    expect(await modelsOf(openKey)).toEqual(['default-model'])
  })

  it('lets an administrator use any enabled group only while they are one', async () => {
    const root = await setupRoot()
    await groupsAndChannels(root)
    const { client, id } = await signedInUser('goldadmin')
    expect((await root.post('/api/user/manage', { id, action: 'promote' })).status).toBe(200)
    const key = (await client.post('/api/token/', tokenForm('gold'))).body.data.key as string
    expect(await modelsOf(key)).toEqual(['gold-model'])
    expect((await root.post('/api/user/manage', { id, action: 'demote' })).status).toBe(200)
    expect(await modelsOf(key)).toEqual(['default-model'])
  })
})
