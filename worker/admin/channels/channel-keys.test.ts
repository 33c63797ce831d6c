/**
 * Pool channels through the admin API: created as one channel, keys listed masked with their
 * status, a disabled key re-enabled by an admin (and the pool channel with it), the status
 * history with manual changes, and the cron retest with exponential backoff.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot } from '../../test/client'
import { setOptions } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'
import { disableKey, retestDelaySeconds } from '../../channels/status'
import { keyHash } from '../../channels/key-pool'
import { nowSeconds } from '../../lib/time'
import { retestDue } from '../../channels/channel-retest'

let upstream: ReturnType<typeof mockUpstream>
let revoked = new Set<string>()
beforeEach(() => {
  revoked = new Set()
  upstream = mockUpstream((_req, _body, key) =>
    revoked.has(key) ? new Response(JSON.stringify({ error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }), { status: 401 }) : undefined
  )
})
afterEach(() => upstream.restore())

const KEYS = ['sk-pool-first-0001', 'sk-pool-second-002', 'sk-pool-third-0003']
const pool = {
  type: 1,
  name: 'pool',
  key: KEYS.join('\n'),
  key_mode: 'pool',
  base_url: 'https://upstream.test',
  models: 'gpt-4o',
  group: 'default',
  test_model: 'gpt-4o',
  auto_disable_threshold: 2,
  auto_disable_window: 60,
}
const state = (id: number, hash: string) => env.DB.prepare('SELECT * FROM channel_key_states WHERE channel_id = ? AND key_hash = ?').bind(id, hash).first<any>()

describe('pool channels in the admin API', () => {
  it('creates one channel holding every key, lists the keys masked and re-enables a disabled key', async () => {
    const root = await setupRoot()
    const created = await root.post('/api/channel/', pool)
    expect(created.status).toBe(200)
    expect(created.body.data).toHaveLength(1)
    const ch = created.body.data[0]
    expect(ch).toMatchObject({ key_mode: 'pool', key_count: 3, auto_disable_threshold: 2, auto_disable_window: 60 })

    await disableKey(env, { channelId: ch.id, keyHash: keyHash(KEYS[1]!), reason: 'upstream answered 401', requestId: 'req-1' })
    const keys = (await root.get(`/api/channel/${ch.id}/keys`)).body.data
    expect(keys.keys.map((k: any) => k.masked)).toEqual(['sk-p…0001', 'sk-p…-002', 'sk-p…0003'])
    expect(JSON.stringify(keys)).not.toContain('second')
    expect(keys.keys.map((k: any) => k.status)).toEqual([1, 3, 1])
    expect(keys.keys[1].reason).toBe('upstream answered 401')

    expect((await root.post(`/api/channel/${ch.id}/keys/${keyHash(KEYS[0]!)}/enable`, {})).status).toBe(404)
    expect((await root.post(`/api/channel/${ch.id}/keys/0123456789abcdef/enable`, {})).status).toBe(404)
    expect((await root.post(`/api/channel/${ch.id}/keys/${keyHash(KEYS[1]!)}/enable`, {})).status).toBe(200)
    expect((await root.get(`/api/channel/${ch.id}/keys`)).body.data.keys.map((k: any) => k.status)).toEqual([1, 1, 1])

    const history = (await root.get(`/api/channel/${ch.id}/history`)).body.data
    expect(history.total_count).toBe(2)
    expect(history.data[0]).toMatchObject({ status: 1, key_hash: keyHash(KEYS[1]!) })
    expect(history.data[0].reason).toContain('enabled by')
    expect(history.data[1]).toMatchObject({ status: 3, request_id: 'req-1' })
  })

  it('keeps the pool settings when an update leaves them out, and records manual status changes', async () => {
    const root = await setupRoot()
    const ch = (await root.post('/api/channel/', pool)).body.data[0]
    const { key_mode: _m, auto_disable_threshold: _t, auto_disable_window: _w, ...older } = pool
    expect((await root.put('/api/channel/', { ...older, id: ch.id, key: '' })).status).toBe(200)
    expect((await root.get(`/api/channel/${ch.id}`)).body.data).toMatchObject({ key_mode: 'pool', key_count: 3, auto_disable_threshold: 2 })
    expect((await root.raw('PATCH', '/api/channel/', { body: { id: ch.id, status: 2 } })).status).toBe(200)
    const history = (await root.get(`/api/channel/${ch.id}/history`)).body.data.data
    expect(history[0]).toMatchObject({ status: 2, key_hash: '' })
  })

  it('disables the pool channel with its last key and brings it back with a re-enabled key', async () => {
    const root = await setupRoot()
    const ch = (await root.post('/api/channel/', { ...pool, key: 'sk-only-one-key-01\nsk-only-one-key-02' })).body.data[0]
    await disableKey(env, { channelId: ch.id, keyHash: keyHash('sk-only-one-key-01'), reason: 'dead' })
    expect((await root.get(`/api/channel/${ch.id}`)).body.data.status).toBe(1)
    await disableKey(env, { channelId: ch.id, keyHash: keyHash('sk-only-one-key-02'), reason: 'dead' })
    expect((await root.get(`/api/channel/${ch.id}`)).body.data.status).toBe(3)
    await root.post(`/api/channel/${ch.id}/keys/${keyHash('sk-only-one-key-02')}/enable`, {})
    expect((await root.get(`/api/channel/${ch.id}`)).body.data.status).toBe(1)
  })
})

describe('cron retests', () => {
  it('retests a disabled key when due, doubling the wait after each failure, and enables it on success', async () => {
    await setOptions({ AutomaticEnableChannelEnabled: 'true', AutoRetestBaseMinutes: '5' })
    const root = await setupRoot()
    const ch = (await root.post('/api/channel/', pool)).body.data[0]
    const hash = keyHash(KEYS[2]!)
    revoked.add(KEYS[2]!)
    const t0 = nowSeconds()
    await disableKey(env, { channelId: ch.id, keyHash: hash, reason: '401' })
    expect((await state(ch.id, hash)).retest_at).toBeGreaterThanOrEqual(t0 + 300)

    // Not due yet: nothing is tested.
    expect(await retestDue(env, t0 + 10)).toEqual({ tested: 0, enabled: 0 })
    expect(upstream.count(KEYS[2]!)).toBe(0)

    let at = t0 + 300
    for (const retests of [1, 2, 3]) {
      expect(await retestDue(env, at + 1)).toEqual({ tested: 1, enabled: 0 })
      const row = await state(ch.id, hash)
      expect(row.retests).toBe(retests)
      expect(row.retest_at).toBe(at + 1 + retestDelaySeconds(5, retests))
      at = row.retest_at
    }
    expect(retestDelaySeconds(5, 1)).toBe(600)
    expect(retestDelaySeconds(5, 3)).toBe(2400)
    expect(retestDelaySeconds(5, 30)).toBe(86400)
    expect(upstream.count(KEYS[2]!)).toBe(3)

    revoked.delete(KEYS[2]!)
    expect(await retestDue(env, at + 1)).toEqual({ tested: 1, enabled: 1 })
    expect(await state(ch.id, hash)).toBeNull()
    const history = (await root.get(`/api/channel/${ch.id}/history`)).body.data.data
    expect(history[0].reason).toContain('retest passed')
  })

  it('retests an auto-disabled channel and stops when an admin takes over', async () => {
    await setOptions({ AutomaticEnableChannelEnabled: 'true', AutomaticDisableChannelEnabled: 'true' })
    const root = await setupRoot()
    const ch = (await root.post('/api/channel/', { ...pool, key: 'sk-single-channel-key', key_mode: 'batch' })).body.data[0]
    revoked.add('sk-single-channel-key')
    // A failing speed test disables the channel and schedules its retest.
    expect((await root.get(`/api/channel/test/${ch.id}`)).status).toBeGreaterThanOrEqual(400)
    expect((await root.get(`/api/channel/${ch.id}`)).body.data.status).toBe(3)
    const row = await state(ch.id, '')
    expect(row).toMatchObject({ status: 3, retests: 0 })
    revoked.delete('sk-single-channel-key')
    expect(await retestDue(env, row.retest_at)).toEqual({ tested: 1, enabled: 1 })
    expect((await root.get(`/api/channel/${ch.id}`)).body.data.status).toBe(1)
    expect(await state(ch.id, '')).toBeNull()
  })

  it('does nothing while automatic enabling is off', async () => {
    const root = await setupRoot()
    const ch = (await root.post('/api/channel/', pool)).body.data[0]
    await disableKey(env, { channelId: ch.id, keyHash: keyHash(KEYS[0]!), reason: '401' })
    expect(await retestDue(env, nowSeconds() + 86400 * 2)).toEqual({ tested: 0, enabled: 0 })
  })
})
