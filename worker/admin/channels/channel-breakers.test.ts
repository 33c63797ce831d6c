/**
 * GET /api/channel/:id/breakers: each model and pool key of a channel with its breaker state
 * (closed / open until / half-open), admin-only, the key masked, the id validated.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../../test/client'
import { keyFreezeName, keyHash } from '../../channels/key-pool'

const KEYS = ['sk-breaker-first-01', 'sk-breaker-second-2']

describe('channel breakers in the admin API', () => {
  it('lists closed, open and half-open breakers per model and key', async () => {
    const root = await setupRoot()
    const created = await root.post('/api/channel/', {
      type: 1,
      name: 'brk',
      key: KEYS.join('\n'),
      key_mode: 'pool',
      base_url: 'https://upstream.test',
      models: 'brk-a,brk-b,brk-*',
      group: 'default',
    })
    expect(created.status).toBe(200)
    const id = created.body.data[0].id as number
    const health = env.CHANNEL_HEALTH.getByName(`channel:${id}`)
    const before = Date.now()
    await health.report({ channelId: id, model: 'brk-a', ok: false, status: 500, freezeSeconds: 60 })
    await health.report({ channelId: id, model: keyFreezeName(keyHash(KEYS[1]!)), ok: false, status: 429, freezeSeconds: 1 })
    await new Promise((r) => setTimeout(r, 1050))

    const res = await root.get(`/api/channel/${id}/breakers`)
    expect(res.status).toBe(200)
    const { breakers, max_cooldown_seconds } = res.body.data
    expect(max_cooldown_seconds).toBe(3600)
    expect(breakers.map((b: any) => [b.kind, b.name, b.state, b.opens])).toEqual([
      ['model', 'brk-a', 'open', 1],
      ['model', 'brk-b', 'closed', 0],
      ['key', 'sk-b…t-01', 'closed', 0],
      ['key', 'sk-b…nd-2', 'half-open', 1],
    ])
    expect(breakers[0].until).toBeGreaterThanOrEqual(before + 60_000)
    expect(breakers[3].key_hash).toBe(keyHash(KEYS[1]!))
    expect(JSON.stringify(res.body)).not.toContain('breaker-second')
  })

  it('is for administrators only and validates the id', async () => {
    const root = await setupRoot()
    expect((await root.get('/api/channel/abc/breakers')).status).toBe(400)
    expect((await root.get('/api/channel/999999/breakers')).status).toBe(404)
    const { client: user } = await signedInUser('breaker-user')
    const refused = await user.get('/api/channel/1/breakers')
    expect(refused.status).toBe(403)
    expect(refused.body.success).toBe(false)
  })
})
