import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { createChannel, ledger, send, setPrice } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

async function traffic() {
  const root = await setupRoot()
  await setPrice('gpt-4o', 1, 1)
  await setPrice('gpt-4o-mini', 0.5, 0.5)
  const channel = await createChannel({ key: 'good' })
  const alice = await signedInUser('alicelogs')
  const bob = await signedInUser('boblogs')
  for (const u of [alice, bob]) await root.post(`/api/user/quota/${u.id}`, { quota: 1_000_000 })
  const aKey = (await alice.client.post('/api/token/', { name: 'alice-key', unlimited_quota: true })).body.data.key
  const bKey = (await bob.client.post('/api/token/', { name: 'bob-key', unlimited_quota: true })).body.data.key
  for (const model of ['gpt-4o', 'gpt-4o', 'gpt-4o-mini']) await send('/v1/chat/completions', { key: aKey, json: { model, messages: [{ role: 'user', content: 'hi' }] } })
  await send('/v1/chat/completions', { key: bKey, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
  await ledger(alice.id)
  await ledger(bob.id)
  return { root, alice, bob, channel }
}

describe('logs API', () => {
  it('shows users only their own logs, without channel details, and admins everything', async () => {
    const { root, alice, channel } = await traffic()
    const mine = (await alice.client.get('/api/log/self?type=2')).body.data
    expect(mine.total_count).toBe(3)
    expect(mine.data.every((l: any) => l.username === 'alicelogs')).toBe(true)
    expect(mine.data[0].channel_id).toBeUndefined()
    // A user cannot widen the filter to another user or read the admin list.
    const widened = (await alice.client.get('/api/log/self?username=boblogs')).body.data
    expect(widened.data.every((l: any) => l.user_id === alice.id)).toBe(true)
    expect(widened.total_count).toBe((await alice.client.get('/api/log/self')).body.data.total_count)
    expect((await alice.client.get('/api/log/')).status).toBe(403)
    const all = (await root.get('/api/log/?type=2')).body.data
    expect(all.total_count).toBe(4)
    expect(all.data[0].channel_id).toBe(channel)
  })

  it('filters by model, token, user, channel and time, sums quota, and exports CSV', async () => {
    const { root, alice } = await traffic()
    expect((await root.get('/api/log/?model_name=gpt-4o-mini')).body.data.total_count).toBe(1)
    expect((await root.get('/api/log/?token_name=bob-key')).body.data.total_count).toBe(1)
    expect((await root.get('/api/log/?username=alicelogs&type=2')).body.data.total_count).toBe(3)
    expect((await root.get(`/api/log/?start_timestamp=${Math.floor(Date.now() / 1000) + 3600}`)).body.data.total_count).toBe(0)
    const stat = (await alice.client.get('/api/log/self/stat?type=2')).body.data
    const sum = await env.DB.prepare('SELECT SUM(quota) AS q FROM logs WHERE type = 2 AND username = ?').bind('alicelogs').first<number>('q')
    expect(stat.quota).toBe(sum)
    const csv = await alice.client.raw('GET', '/api/log/self/export?type=2')
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const lines = (await csv.text()).trim().split('\n')
    expect(lines).toHaveLength(4)
    expect(lines[0]).toContain('model_name')
    expect(lines[0]).not.toContain('channel_id')
  })

  it('lets only root delete logs before a date', async () => {
    const { root, alice } = await traffic()
    const future = Math.floor(Date.now() / 1000) + 10
    const { client: admin, id } = await signedInUser('logadmin')
    await root.post('/api/user/manage', { id, action: 'promote' })
    expect((await admin.delete(`/api/log/?target_timestamp=${future}`)).status).toBe(403)
    expect((await alice.client.delete(`/api/log/?target_timestamp=${future}`)).status).toBe(403)
    const deleted = (await root.delete(`/api/log/?target_timestamp=${future}`)).body.data
    expect(deleted).toBeGreaterThan(4)
    expect((await root.get('/api/log/')).body.data.total_count).toBe(0)
  })
})
