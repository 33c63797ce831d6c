import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'
import { candidatesFor, getRoutingTable } from '../../channels/routing-table'

const addTag = async (root: Awaited<ReturnType<typeof setupRoot>>, name: string, keys: string) =>
  (await root.post('/api/channel/', { type: 1, name, key: keys, base_url: 'https://upstream.test', models: 'gpt-4o', group: 'default', tag: name })).body.data.map(
    (c: any) => c.id as number
  )

const auditRows = () => env.DB.prepare("SELECT content, metadata FROM logs WHERE content LIKE '%channels of tag%' ORDER BY id").all<{ content: string; metadata: string }>()
const routed = async () => candidatesFor(await getRoutingTable(env), 'default', 'gpt-4o').map((c) => [c.id, c.priority, c.weight])

describe('channel tag operations', () => {
  it('sets priority and weight on every channel of the tag only, re-routes at once and writes one audit row each', async () => {
    const root = await setupRoot()
    const ids = await addTag(root, 'pool', 'k1\nk2\nk3')
    const [other] = await addTag(root, 'solo', 'k9')
    await getRoutingTable(env) // warm the routing snapshot, as a relay isolate would have it
    expect((await root.put('/api/channel_tag/pool/priority', { type: 'priority', value: 7 })).body).toMatchObject({ success: true, data: { tag: 'pool', channel_ids: ids } })
    expect((await root.put('/api/channel_tag/pool/priority', { type: 'weight', value: 3 })).status).toBe(200)
    const rows = await env.DB.prepare('SELECT id, priority, weight FROM channels ORDER BY id').all<any>()
    expect(rows.results).toEqual([...ids.map((id: number) => ({ id, priority: 7, weight: 3 })), { id: other, priority: 0, weight: 1 }])
    expect(await routed()).toEqual(expect.arrayContaining(ids.map((id: number) => [id, 7, 3])))
    const audit = (await auditRows()).results
    expect(audit).toHaveLength(2)
    expect(audit[0]!.content).toContain(`set priority to 7 on the 3 channels of tag "pool" (#${ids.join(', #')})`)
    expect(JSON.parse(audit[1]!.metadata)).toMatchObject({ tag: 'pool', channel_ids: ids, weight: 3, actor: 'root' })
  })

  it('rejects bad values and unknown tags with the usual error shape', async () => {
    const root = await setupRoot()
    await addTag(root, 'pool', 'k1\nk2')
    const zeroWeight = await root.put('/api/channel_tag/pool/priority', { type: 'weight', value: 0 })
    expect(zeroWeight.status).toBe(400)
    expect(zeroWeight.body.success).toBe(false)
    expect((await root.put('/api/channel_tag/pool/priority', { type: 'cost', value: 1 })).status).toBe(400)
    expect((await root.put('/api/channel_tag/pool/priority', { type: 'priority', value: 1.5 })).status).toBe(400)
    expect((await root.put('/api/channel_tag/pool/status/pause')).status).toBe(400)
    const missing = await root.put('/api/channel_tag/nope/status/disable')
    expect(missing.status).toBe(404)
    expect((await auditRows()).results).toHaveLength(0)
  })

  it('disables and enables a whole tag: history rows, routing table and one audit row per operation', async () => {
    const root = await setupRoot()
    const ids = await addTag(root, 'pool', 'k1\nk2')
    const [other] = await addTag(root, 'solo', 'k9')
    await getRoutingTable(env)
    expect((await root.put('/api/channel_tag/pool/status/disable')).status).toBe(200)
    expect((await routed()).map(([id]) => id)).toEqual([other])
    const statuses = await env.DB.prepare('SELECT id, status, status_reason FROM channels ORDER BY id').all<any>()
    expect(statuses.results).toEqual([...ids.map((id: number) => ({ id, status: 2, status_reason: 'disabled manually' })), { id: other, status: 1, status_reason: '' }])
    const history = await env.DB.prepare("SELECT COUNT(*) AS n FROM channel_status_history WHERE reason = 'disabled by root'").first<{ n: number }>()
    expect(history?.n).toBe(2)
    expect((await root.put('/api/channel_tag/pool/status/enable')).status).toBe(200)
    expect((await routed()).map(([id]) => id).sort()).toEqual([...ids, other].sort())
    expect((await auditRows()).results.map((r) => r.content)).toEqual([
      `root disabled the 2 channels of tag "pool" (#${ids.join(', #')})`,
      `root enabled the 2 channels of tag "pool" (#${ids.join(', #')})`,
    ])
  })

  it('deletes every channel of the tag and nothing else', async () => {
    const root = await setupRoot()
    const ids = await addTag(root, 'pool', 'k1\nk2')
    const [other] = await addTag(root, 'solo', 'k9')
    await getRoutingTable(env)
    const res = await root.delete('/api/channel_tag/pool')
    expect(res.body).toMatchObject({ success: true, data: { channel_ids: ids } })
    expect((await env.DB.prepare('SELECT id FROM channels').all<any>()).results).toEqual([{ id: other }])
    expect((await routed()).map(([id]) => id)).toEqual([other])
    expect(await root.get('/api/channel/tags')).toMatchObject({ body: { data: ['solo'] } })
    expect((await auditRows()).results[0]!.content).toBe(`root deleted the 2 channels of tag "pool" (#${ids.join(', #')})`)
  })
})
