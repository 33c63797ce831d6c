/**
 * Realtime connects go through the half-open breakers like the relay (channels/probe-pick.ts): a
 * connect to a half-open channel is its one probe; a failed connect re-opens the breaker with the
 * cool-down doubled, a connected session closes it here and in the ChannelHealth object.
 */
import { waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { resetIsolateState } from '../../cache/isolate'
import { breakerHere, reportFailure } from '../../channels/health'
import { createChannel, createToken, createUser, setOptions, setPrice } from '../../test/factories'
import { mockRealtime, openRealtime } from '../../test/realtime-mock'
import { mockUpstream } from '../../test/upstream-mock'

const MODEL = 'gpt-4o-realtime-probe'
afterEach(() => resetIsolateState())

async function halfOpen(channelId: number) {
  const pending: Promise<unknown>[] = []
  reportFailure(env, { waitUntil: (p) => void pending.push(p) }, { channelId, model: MODEL, ok: false, status: 500, freezeSeconds: 1 })
  await Promise.all(pending)
  await new Promise((r) => setTimeout(r, 1050))
  expect(breakerHere(channelId, MODEL)).toBe('half-open')
}

describe('realtime connects and half-open breakers', () => {
  it('a failed probe connect re-opens the breaker doubled; a connected probe closes it', async () => {
    await setPrice(MODEL, 2.5, 10)
    await setOptions({ RetryCooldownSeconds: '1', RetryTimes: '0' })
    const channelId = await createChannel({ key: 'sk-rt-probe', models: MODEL })
    const token = await createToken((await createUser({ quota: 10_000_000 })).id)
    await halfOpen(channelId)

    const down = mockUpstream((req) => (new URL(req.url).pathname.endsWith('/v1/realtime') ? new Response('down', { status: 503 }) : undefined))
    const before = Date.now()
    try {
      const failed = await openRealtime({ authorization: `Bearer ${token.key}` }, `?model=${MODEL}`)
      expect(failed.res.status).toBe(502)
      await waitOnExecutionContext(failed.ctx)
    } finally {
      down.restore()
    }
    expect(breakerHere(channelId, MODEL)).toBe('open')
    const until = (await env.CHANNEL_HEALTH.getByName(`channel:${channelId}`).frozen())[MODEL]!
    expect(until - before).toBeGreaterThanOrEqual(2000)
    expect(until - before).toBeLessThan(2500)

    await new Promise((r) => setTimeout(r, until - Date.now() + 50))
    expect(breakerHere(channelId, MODEL)).toBe('half-open')
    const up = mockRealtime(MODEL, () => {})
    try {
      const s = await openRealtime({ authorization: `Bearer ${token.key}` }, `?model=${MODEL}`)
      expect(s.res.status).toBe(101)
      await s.next('session.created')
      await s.close()
    } finally {
      up.restore()
    }
    expect(breakerHere(channelId, MODEL)).toBe('closed')
    expect(await env.CHANNEL_HEALTH.getByName(`channel:${channelId}`).frozen()).toEqual({})
  })
})
