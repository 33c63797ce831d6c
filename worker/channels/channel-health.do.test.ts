/**
 * Auto-disable strikes in the ChannelHealth object (issue 12): consecutive qualifying failures
 * disable a channel only when they come from two different users or a channel test, and a success
 * starts the count again. Model names are own keys (a `__proto__` freeze is an entry, not a prototype);
 * one report may freeze a second name (a pool key and, with it, the model). A shared freeze of a
 * model needs two users' failures within the window and rests the model for one user until then.
 * Its breakers stay half-open past their cool-down and double on a failed probe; its disable and
 * enable go through status.ts (the only writer of channels.status: history rows and alerts).
 */
import { describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { CHANNEL_STATUS } from '../../shared/contract/enums'
import { setupRoot } from '../test/client'
import { createChannel } from '../test/factories'
import { personalFreezeName } from './breaker'

const health = (id: number) => env.CHANNEL_HEALTH.getByName(`channel:${id}`)
const strike = (id: number, actor: string, threshold = 3) => health(id).strike({ actor, threshold, windowMs: 600_000 })

describe('auto-disable strikes', () => {
  it('one user alone never reaches the disable, however many failures', async () => {
    for (let i = 0; i < 10; i++) expect(await strike(1, 'user:7')).toBe(false)
  })

  it('disables at the threshold once two users failed, or a channel test did', async () => {
    expect(await strike(2, 'user:7')).toBe(false)
    expect(await strike(2, 'user:7')).toBe(false)
    expect(await strike(2, 'user:8')).toBe(true)
    expect(await strike(3, 'user:7')).toBe(false)
    expect(await strike(3, 'user:7')).toBe(false)
    expect(await strike(3, 'test')).toBe(true)
    // A threshold of 1 still needs a second user (or a test).
    expect(await strike(4, 'user:7', 1)).toBe(false)
    expect(await strike(4, 'user:9', 1)).toBe(true)
  })

  it('a success in between starts the count again', async () => {
    expect(await strike(5, 'user:7')).toBe(false)
    expect(await strike(5, 'user:8')).toBe(false)
    await health(5).report({ channelId: 5, model: 'gpt-4o', ok: true })
    expect(await strike(5, 'user:8')).toBe(false)
    expect(await strike(5, 'user:7')).toBe(false)
    expect(await strike(5, 'user:7')).toBe(true)
  })

  it('strikes older than the window drop out', async () => {
    expect(await health(6).strike({ actor: 'user:1', threshold: 2, windowMs: 1 })).toBe(false)
    await new Promise((r) => setTimeout(r, 5))
    expect(await health(6).strike({ actor: 'user:2', threshold: 2, windowMs: 1 })).toBe(false)
  })

  it('keeps prototype model names as own freeze entries', async () => {
    await health(7).report({ channelId: 7, model: '__proto__', ok: false, status: 429, freezeSeconds: 60 })
    await health(7).report({ channelId: 7, model: 'constructor', ok: false, status: 429, freezeSeconds: 60 })
    const frozen = await health(7).frozen()
    expect(Object.keys(frozen).sort()).toEqual(['__proto__', 'constructor'])
    expect(Object.values(frozen).every((until) => typeof until === 'number' && until > Date.now())).toBe(true)
  })

  it('freezes a second model with the same cooldown and counts the failure once', async () => {
    await health(8).report({ channelId: 8, model: '\u0000key:abc', alsoFreeze: 'gpt-4o', ok: false, status: 429, freezeSeconds: 60 })
    const frozen = await health(8).frozen()
    expect(Object.keys(frozen).sort()).toEqual(['\u0000key:abc', 'gpt-4o'])
    expect(frozen['gpt-4o']).toBe(frozen['\u0000key:abc'])
    expect((await health(8).health()).failures).toBe(1)
  })
})

describe('shared freezes (issue 31)', () => {
  const vote = (id: number, actor: string, windowMs = 600_000) =>
    health(id).report({ channelId: id, model: 'gpt-4o', ok: false, status: 429, sharedFreeze: { model: 'gpt-4o', actor, windowMs, seconds: 60 } })

  it("rests the model for one user on that user's failures and freezes it for everyone once a second user fails", async () => {
    const first = await vote(20, 'user:7')
    expect(Object.keys(first)).toEqual([personalFreezeName('gpt-4o', 'user:7')])
    await vote(20, 'user:7')
    expect(await health(20).frozen()).not.toHaveProperty('gpt-4o')
    const second = await vote(20, 'user:8')
    expect(Object.keys(second)).toEqual(['gpt-4o'])
    expect((await health(20).frozen())['gpt-4o']).toBeGreaterThan(Date.now())
  })

  it('needs the two failures within the window, and a success clears the votes and the rests', async () => {
    await vote(21, 'user:7', 1)
    await new Promise((r) => setTimeout(r, 5))
    await vote(21, 'user:8', 1)
    expect(await health(21).frozen()).not.toHaveProperty('gpt-4o')
    await vote(22, 'user:7')
    await health(22).report({ channelId: 22, model: 'gpt-4o', ok: true })
    expect(await health(22).frozen()).toEqual({})
    await vote(22, 'user:8')
    expect(await health(22).frozen()).not.toHaveProperty('gpt-4o')
  })

  it('freezes a pool key at once and votes only on the model its failure asks to freeze', async () => {
    const set = await health(23).report({
      channelId: 23,
      model: '\u0000key:abc',
      ok: false,
      status: 429,
      freezeSeconds: 60,
      sharedFreeze: { model: 'gpt-4o', actor: 'user:7', windowMs: 600_000, seconds: 60 },
    })
    expect(Object.keys(set).sort()).toEqual([personalFreezeName('gpt-4o', 'user:7'), '\u0000key:abc'].sort())
  })
})

describe('the status writer (issue 38)', () => {
  it("the object's disable and enable go through status.ts: status, history rows and alerts", async () => {
    const real = globalThis.fetch
    const hooks: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      if (!req.url.startsWith('https://hooks.test')) return real(input, init)
      hooks.push((await req.json<{ event: string }>()).event)
      return new Response('ok')
    })
    try {
      const root = await setupRoot()
      const res = await root.post('/api/notify/channel/', { name: 'ops', type: 'webhook', url: 'https://hooks.test/ops', events: ['channel.disabled', 'channel.enabled'] })
      expect(res.status).toBe(200)
      const id = await createChannel({ key: 'sk-writer', models: 'writer-model' })
      await health(id).report({ channelId: id, model: 'writer-model', ok: false, status: 500, freezeSeconds: 60 })
      expect(await health(id).disable({ channelId: id, reason: 'invalid api key', requestId: 'req-9' })).toBe(true)
      expect(await health(id).disable({ channelId: id, reason: 'again' })).toBe(false)
      const row = await env.DB.prepare('SELECT status, status_reason FROM channels WHERE id = ?').bind(id).first()
      expect(row).toEqual({ status: CHANNEL_STATUS.AUTO_DISABLED, status_reason: 'invalid api key' })
      expect(
        await env.DB.prepare('SELECT key_hash, status FROM channel_key_states WHERE channel_id = ?')
          .bind(id)
          .all()
          .then((r) => r.results)
      ).toEqual([{ key_hash: '', status: CHANNEL_STATUS.AUTO_DISABLED }])

      expect(await health(id).enable({ channelId: id, reason: 'retest passed' })).toBe(true)
      expect(await env.DB.prepare('SELECT status FROM channels WHERE id = ?').bind(id).first('status')).toBe(CHANNEL_STATUS.ENABLED)
      const history = await env.DB.prepare('SELECT status, reason, request_id FROM channel_status_history WHERE channel_id = ? ORDER BY id').bind(id).all()
      expect(history.results).toEqual([
        { status: CHANNEL_STATUS.AUTO_DISABLED, reason: 'invalid api key', request_id: 'req-9' },
        { status: CHANNEL_STATUS.ENABLED, reason: 'retest passed', request_id: '' },
      ])
      expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM channel_key_states WHERE channel_id = ?').bind(id).first('n')).toBe(0)
      const deliveries = await env.DB.prepare('SELECT event FROM notify_deliveries ORDER BY id').all<{ event: string }>()
      expect(deliveries.results.map((d) => d.event)).toEqual(['channel.disabled', 'channel.enabled'])
      // A re-enabled channel starts with its breakers closed.
      expect(await health(id).frozen()).toEqual({})
    } finally {
      vi.restoreAllMocks()
    }
  })
})

describe('half-open breakers in the object (issue 34)', () => {
  it('keeps a breaker past its cool-down (half-open) and doubles the next one after a failed probe', async () => {
    const fail = () => health(30).report({ channelId: 30, model: 'gpt-4o', ok: false, status: 500, freezeSeconds: 1 })
    const first = (await fail())['gpt-4o']!
    await new Promise((r) => setTimeout(r, Math.max(0, first - Date.now()) + 20))
    expect((await health(30).frozen())['gpt-4o']).toBe(first)
    const before = Date.now()
    const second = (await fail())['gpt-4o']!
    expect(second - before).toBeGreaterThanOrEqual(2000)
    expect((await health(30).breakers()).find((b) => b.name === 'gpt-4o')?.opens).toBe(2)
    await health(30).report({ channelId: 30, model: 'gpt-4o', ok: true })
    expect(await health(30).breakers()).toEqual([])
  })

  it("a pool key's success closes its breaker", async () => {
    await health(31).report({ channelId: 31, model: '\u0000key:abc', ok: false, status: 429, freezeSeconds: 60 })
    await health(31).report({ channelId: 31, model: 'gpt-4o', ok: true, key: '\u0000key:abc' })
    expect(await health(31).frozen()).toEqual({})
  })
})
