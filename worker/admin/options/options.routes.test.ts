import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'

const auditRows = async () =>
  (await env.DB.prepare("SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE 'option.update %' ORDER BY id").all<any>()).results

describe('option audit rows', () => {
  it('writes one row per changed option with actor, address and diff, and never a secret value', async () => {
    const root = await setupRoot()
    const ip = { headers: { 'cf-connecting-ip': '198.51.100.23' } }
    const secret = 'gh-client-secret-DO-NOT-LOG-4242'
    const saved = await root.put('/api/option/', { options: { SystemName: 'Audited Hub', GitHubClientSecret: secret, QuotaPerUnit: 250000 } }, ip)
    expect(saved.status).toBe(200)
    // Re-saving the same values changes nothing: no rows. Clearing the secret is one row.
    expect((await root.put('/api/option/', { options: { SystemName: 'Audited Hub' } }, ip)).status).toBe(200)
    expect((await root.put('/api/option/', { key: 'GitHubClientSecret', value: '' }, ip)).status).toBe(200)

    const rows = await auditRows()
    expect(rows.map((r) => r.content)).toEqual(['option.update SystemName', 'option.update GitHubClientSecret', 'option.update QuotaPerUnit', 'option.update GitHubClientSecret'])
    for (const r of rows) expect(r).toMatchObject({ username: 'root', source_ip: '198.51.100.23' })
    const meta = rows.map((r) => JSON.parse(r.metadata))
    expect(meta[0]).toMatchObject({ key: 'SystemName', new: 'Audited Hub', actor: 'root' })
    expect(meta[0].old).not.toBe('Audited Hub')
    expect(meta[1]).toEqual({ key: 'GitHubClientSecret', secret: true, change: 'changed', actor_id: meta[1].actor_id, actor: 'root' })
    expect(meta[2]).toMatchObject({ key: 'QuotaPerUnit', old: '500000', new: '250000' })
    expect(meta[3]).toMatchObject({ key: 'GitHubClientSecret', change: 'cleared' })

    const all = await env.DB.prepare('SELECT content, metadata FROM logs').all<any>()
    expect(JSON.stringify(all.results)).not.toContain(secret)
  })
})
