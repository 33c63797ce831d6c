/**
 * Auto-disable strikes in the ChannelHealth object (issue 12): consecutive qualifying failures
 * disable a channel only when they come from two different users or a channel test, and a success
 * starts the count again. Model names are own keys (a `__proto__` freeze is an entry, not a prototype);
 * one report may freeze a second name (a pool key and, with it, the model). A shared freeze of a
 * model needs two users' failures within the window and rests the model for one user until then.
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { personalFreezeName } from './channel-health'

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
