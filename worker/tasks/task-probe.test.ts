/**
 * Task submits go through the half-open breakers like the relay (channels/probe-pick.ts): a
 * half-open channel takes one probe submit at a time (others use another channel), an accepted
 * probe closes the breaker here and in the ChannelHealth object, a refused one re-opens it with
 * the cool-down doubled.
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { resetIsolateState } from '../cache/isolate'
import { breakerHere, reportFailure } from '../channels/health'
import type { RelayAuth } from '../access/token-auth'
import { getRoutingTable } from '../channels/routing-table'
import { createChannel, send, setOptions } from '../test/factories'
import { pickTaskChannel } from './task-charge'
import { taskFixture, useTaskUpstream } from '../test/task-mock'

const upstream = useTaskUpstream()
afterEach(() => resetIsolateState())

/** Opens (channel, model) for a second, then waits until it is half-open. */
async function halfOpen(channelId: number, model: string) {
  const pending: Promise<unknown>[] = []
  reportFailure(env, { waitUntil: (p) => void pending.push(p) }, { channelId, model, ok: false, status: 500, freezeSeconds: 1 })
  await Promise.all(pending)
  await new Promise((r) => setTimeout(r, 1050))
  expect(breakerHere(channelId, model)).toBe('half-open')
}

const frozenUntil = async (channelId: number) => (await env.CHANNEL_HEALTH.getByName(`channel:${channelId}`).frozen())['chirp-v3-0']

describe('task submits and half-open breakers', () => {
  it('a half-open channel gets one probe; while it is out, submits go to another channel', async () => {
    const { channel: id, key } = await taskFixture({ 'chirp-v3-0': 50 }, { key: 'suno-probe-a', type: 41 })
    const channel = { id }
    await halfOpen(channel.id, 'chirp-v3-0')
    const auth = { id: 1, userId: 7, group: 'default' } as RelayAuth
    const table = await getRoutingTable(env)
    const first = pickTaskChannel(table, auth, 41, 'chirp-v3-0')
    expect(first.channel.id).toBe(channel.id)
    expect(first.probes).toEqual(['chirp-v3-0'])
    // The only candidate is still used, but its one probe is already out.
    expect(pickTaskChannel(table, auth, 41, 'chirp-v3-0').probes).toEqual([])

    await createChannel({ key: 'suno-probe-b', type: 41, models: 'chirp-v3-0' })
    for (let i = 0; i < 4; i++) expect((await send('/suno/submit/music', { key, json: { prompt: `song ${i}` } })).json.code).toBe('success')
    expect(upstream.mock.count('suno-probe-a')).toBe(0)
    expect(upstream.mock.count('suno-probe-b')).toBe(4)
  })

  it('a refused probe re-opens the breaker with the cool-down doubled; an accepted one closes it', async () => {
    const { channel: id, key } = await taskFixture({ 'chirp-v3-0': 50 }, { key: 'suno-probe-c', type: 41 })
    const channel = { id }
    await setOptions({ RetryCooldownSeconds: '1' })
    await halfOpen(channel.id, 'chirp-v3-0')
    const before = Date.now()
    const refused = await send('/suno/submit/music', { key, json: { prompt: 'banned words' } })
    expect(refused.json.code).toBe('submit_failed')
    expect(breakerHere(channel.id, 'chirp-v3-0')).toBe('open')
    const until = (await frozenUntil(channel.id))!
    expect(until - before).toBeGreaterThanOrEqual(2000)
    expect(until - before).toBeLessThan(2500)
    // While open, the only channel is skipped.
    expect((await send('/suno/submit/music', { key, json: { prompt: 'song' } })).json.code).not.toBe('success')
    await new Promise((r) => setTimeout(r, until - Date.now() + 50))
    expect(breakerHere(channel.id, 'chirp-v3-0')).toBe('half-open')
    expect((await send('/suno/submit/music', { key, json: { prompt: 'song' } })).json.code).toBe('success')
    expect(breakerHere(channel.id, 'chirp-v3-0')).toBe('closed')
    expect(await frozenUntil(channel.id)).toBeUndefined()
  })
})
