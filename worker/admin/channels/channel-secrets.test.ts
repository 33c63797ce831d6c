/**
 * Supplier keys and settings secrets (security finding 13): only root reads a channel key in clear,
 * admins see it masked and may replace it (an empty key keeps it), and the KV snapshots that carry
 * keys and secrets are sealed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { mockUpstream } from '../../test/upstream-mock'
import { cacheKeys } from '../../cache/keys'
import { resetIsolateState } from '../../cache/isolate'
import { getRoutingTable } from '../../channels/routing-table'
import { getSettings } from '../../settings/store'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const SECRET_KEY = 'sk-upstream-secret-0123456789abcdef'
const form = { type: 1, name: 'secret-channel', key: SECRET_KEY, base_url: 'https://upstream.test', models: 'gpt-4o', group: 'default' }

async function rootAndAdmin() {
  const root = await setupRoot()
  const { client: admin, id } = await signedInUser('keysadmin')
  expect((await root.post('/api/user/manage', { id, action: 'promote' })).status).toBe(200)
  const channelId = (await root.post('/api/channel/', form)).body.data[0].id as number
  return { root, admin, channelId }
}

describe('channel key secrecy', () => {
  it('reveals the key to root only; admins get it masked, cannot search by it and may replace it', async () => {
    const { root, admin, channelId } = await rootAndAdmin()
    const seen = (await admin.get(`/api/channel/${channelId}`)).body.data
    expect(seen.key).toBeUndefined()
    expect(seen.key_masked).toBe('sk-u…cdef')
    expect(JSON.stringify(seen)).not.toContain(SECRET_KEY)
    expect((await root.get(`/api/channel/${channelId}`)).body.data.key).toBe(SECRET_KEY)

    expect((await admin.get('/api/channel/?key=sk-up')).status).toBe(403)
    expect((await root.get('/api/channel/?key=sk-up')).body.data.total_count).toBe(1)

    // Saving the form without a key keeps it; a new key replaces it.
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: '', name: 'renamed' })).status).toBe(200)
    expect((await root.get(`/api/channel/${channelId}`)).body.data).toMatchObject({ key: SECRET_KEY, name: 'renamed' })
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: 'good' })).status).toBe(200)
    expect((await root.get(`/api/channel/${channelId}`)).body.data.key).toBe('good')

    // The supplier's model list for a saved channel uses its stored key when none is typed.
    const models = await admin.post('/api/channel/provider_models_list', { type: 1, id: channelId, base_url: 'https://upstream.test' })
    expect(models.body.data).toEqual(['gpt-4o'])
    expect((await admin.post('/api/channel/provider_models_list', { type: 1, base_url: 'https://upstream.test' })).status).toBe(400)
  })

  it('seals the channel and settings snapshots in KV and reads them back on a cold isolate', async () => {
    const { root, channelId } = await rootAndAdmin()
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-secret-value-42' })).status).toBe(200)
    const table = await getRoutingTable(env)
    expect(table.channels[channelId]!.key).toBe(SECRET_KEY)
    const settings = await getSettings(env)
    const tokenSecret = settings.str('TokenSecret')
    expect(tokenSecret).not.toBe('')

    const channelsKv = (await env.CACHE.get(cacheKeys.snapshot('channels')))!
    const settingsKv = (await env.CACHE.get(cacheKeys.snapshot('settings')))!
    expect(JSON.parse(channelsKv).sealed).toEqual(expect.any(String))
    expect(channelsKv).not.toContain(SECRET_KEY)
    expect(settingsKv).not.toContain('smtp-secret-value-42')
    expect(settingsKv).not.toContain(tokenSecret)

    // A cold isolate opens the sealed copy (D1 changed behind its back, so the value must come from KV).
    await env.DB.prepare('UPDATE channels SET key = ? WHERE id = ?').bind('changed-in-d1', channelId).run()
    resetIsolateState()
    expect((await getRoutingTable(env)).channels[channelId]!.key).toBe(SECRET_KEY)
    expect((await getSettings(env)).str('SMTPToken')).toBe('smtp-secret-value-42')

    // A tampered or plaintext copy is never trusted: the snapshot is rebuilt from D1.
    await env.CACHE.put(cacheKeys.snapshot('channels'), JSON.stringify({ version: 99, value: { channels: {}, groups: {} } }))
    resetIsolateState()
    expect((await getRoutingTable(env)).channels[channelId]!.key).toBe('changed-in-d1')

    // A sealed copy in an older shape (written before channels carried their tag) is rebuilt too.
    const current = JSON.parse((await env.CACHE.get(cacheKeys.snapshot('channels')))!)
    expect(current.format).toBe(2)
    await env.CACHE.put(cacheKeys.snapshot('channels'), JSON.stringify({ version: current.version, sealed: current.sealed }))
    await env.DB.prepare('UPDATE channels SET key = ? WHERE id = ?').bind('changed-again', channelId).run()
    resetIsolateState()
    expect((await getRoutingTable(env)).channels[channelId]!.key).toBe('changed-again')
  })
})

// Round 3, finding 5: a saved key goes only to the saved base URL, unless root or a fresh key.
describe('a saved channel key stays with its base URL', () => {
  const ATTACKER = 'https://upstream.test/attacker'
  const sawSecretAt = (prefix: string) => upstream.calls.some((c) => c.key === SECRET_KEY && c.url.startsWith(prefix))

  it('refuses an admin who sends a saved key to another base URL or type; a typed key or root may', async () => {
    const { root, admin, channelId } = await rootAndAdmin()
    const moved = await admin.post('/api/channel/provider_models_list', { type: 1, id: channelId, base_url: ATTACKER })
    expect(moved.status).toBe(403)
    expect(moved.body).toMatchObject({ success: false, message: expect.stringContaining('Only root') })
    expect((await admin.post('/api/channel/provider_models_list', { type: 14, id: channelId, base_url: '' })).status).toBe(403)
    expect(upstream.calls.some((c) => c.key === SECRET_KEY)).toBe(false)

    // Empty base URL means the saved one; a trailing slash is the same URL.
    expect((await admin.post('/api/channel/provider_models_list', { type: 1, id: channelId, base_url: '' })).body.data).toEqual(['gpt-4o'])
    expect((await admin.post('/api/channel/provider_models_list', { type: 1, id: channelId, base_url: 'https://upstream.test/' })).status).toBe(200)
    expect(sawSecretAt(ATTACKER)).toBe(false)

    // A key typed into the form goes where the form says: that is the admin's own key.
    expect((await admin.post('/api/channel/provider_models_list', { type: 1, id: channelId, key: 'typed-key', base_url: ATTACKER })).status).toBe(200)
    expect(upstream.calls.at(-1)).toMatchObject({ key: 'typed-key', url: `${ATTACKER}/v1/models` })
    expect(sawSecretAt(ATTACKER)).toBe(false)

    // Root reads the key anyway, so root may.
    expect((await root.post('/api/channel/provider_models_list', { type: 1, id: channelId, base_url: ATTACKER })).status).toBe(200)
    expect(sawSecretAt(ATTACKER)).toBe(true)
  })

  it('lets only root put a proxy in front of a kept key; removing one or typing the key is allowed', async () => {
    const { root, admin, channelId } = await rootAndAdmin()
    const proxied = await admin.put('/api/channel/', { ...form, id: channelId, key: '', proxy: 'http://198.51.100.9:3128' })
    expect(proxied.status).toBe(403)
    expect(proxied.body.message).toContain('Only root can change the proxy while keeping the saved key')
    expect((await root.get(`/api/channel/${channelId}`)).body.data.proxy).toBe('')
    expect((await root.put('/api/channel/', { ...form, id: channelId, key: '', proxy: 'http://198.51.100.9:3128' })).status).toBe(200)
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: '', proxy: 'socks5://198.51.100.10:1080' })).status).toBe(403)
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: '', proxy: 'http://198.51.100.9:3128', name: 'kept' })).status).toBe(200)
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: '', proxy: '' })).status).toBe(200)
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: 'admin-own-key-0123456789', proxy: 'socks5://198.51.100.10:1080' })).status).toBe(200)
    const { results } = await env.DB.prepare('SELECT content FROM logs WHERE type = 3 AND content LIKE ? ORDER BY id').bind('%updated channel%').all<{ content: string }>()
    expect(results.map((r) => r.content.split(': ')[1])).toEqual([
      'key unchanged, base URL unchanged, proxy set',
      'key unchanged, base URL unchanged, proxy changed',
      'key changed, base URL unchanged, proxy set',
    ])
  })

  it('lets only root move a kept key to another base URL, and audits key and base URL changes without the key', async () => {
    const { root, admin, channelId } = await rootAndAdmin()
    const ip = { headers: { 'cf-connecting-ip': '203.0.113.7' } }
    const moved = await admin.put('/api/channel/', { ...form, id: channelId, key: '', base_url: ATTACKER }, ip)
    expect(moved.status).toBe(403)
    expect(moved.body.message).toContain('Only root can change the base URL while keeping the saved key')
    expect((await root.get(`/api/channel/${channelId}`)).body.data).toMatchObject({ key: SECRET_KEY, base_url: 'https://upstream.test' })

    // With a new key the admin may move it; root may move the kept one.
    expect((await admin.put('/api/channel/', { ...form, id: channelId, key: 'admin-own-key-0123456789', base_url: ATTACKER }, ip)).status).toBe(200)
    expect((await root.put('/api/channel/', { ...form, id: channelId, key: '', base_url: 'https://upstream.test/v2' })).status).toBe(200)
    expect((await root.get(`/api/channel/${channelId}`)).body.data).toMatchObject({ key: 'admin-own-key-0123456789', base_url: 'https://upstream.test/v2' })
    // A rename changes neither: no audit row.
    expect((await root.put('/api/channel/', { ...form, id: channelId, key: '', base_url: 'https://upstream.test/v2', name: 'renamed' })).status).toBe(200)

    const { results } = await env.DB.prepare('SELECT username, content, source_ip, metadata FROM logs WHERE type = 3 AND content LIKE ? ORDER BY id')
      .bind('%updated channel%')
      .all<any>()
    expect(results).toHaveLength(2)
    expect(results[0]).toMatchObject({ username: 'keysadmin', source_ip: '203.0.113.7' })
    expect(results[0].content).toContain('key changed, base URL https://upstream.test → https://upstream.test/attacker')
    expect(results[1].content).toContain('key unchanged, base URL https://upstream.test/attacker → https://upstream.test/v2')
    expect(JSON.parse(results[0].metadata)).toMatchObject({ key_changed: true, base_url_changed: true, actor: 'keysadmin' })
    expect(JSON.stringify(results)).not.toContain('admin-own-key')
    expect(JSON.stringify(results)).not.toContain(SECRET_KEY)
  })
})
