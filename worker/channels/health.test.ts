/**
 * The isolate's breaker view (health.ts): a half-open pair lets one probe through per isolate,
 * others skip it while another candidate exists; the probe's success closes the breaker here and
 * in the ChannelHealth object, its failure re-opens it with the object's doubled cool-down.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { resetIsolateState } from '../cache/isolate'
import { breakerHere, claimProbe, isFrozen, isProbing, PROBE_LEASE_MS, reportFailure, reportSuccess } from './health'
import { selectChannel } from './pick'
import { buildRoutingTable } from './routing-table'

function background() {
  const pending: Promise<unknown>[] = []
  return { ctx: { waitUntil: (p: Promise<unknown>) => void pending.push(p) }, settle: () => Promise.all(pending) }
}

/** Opens (channel, model) for a second, then lets it turn half-open. */
async function halfOpen(channelId: number, model: string) {
  const bg = background()
  reportFailure(env, bg.ctx, { channelId, model, ok: false, status: 500, freezeSeconds: 1 })
  await bg.settle()
  expect(breakerHere(channelId, model)).toBe('open')
  await new Promise((r) => setTimeout(r, 1050))
  expect(breakerHere(channelId, model)).toBe('half-open')
}

afterEach(() => {
  vi.useRealTimers()
  resetIsolateState()
})

describe('half-open probes in the isolate view', () => {
  it('lets one probe at a time through; the lease frees a probe that never reports', async () => {
    await halfOpen(101, 'm')
    expect(isFrozen(101, 'm')).toBe(false)
    expect(isProbing(101, 'm')).toBe(false)
    expect(claimProbe(101, 'm')).toBe(true)
    expect(isProbing(101, 'm')).toBe(true)
    expect(claimProbe(101, 'm')).toBe(false)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + PROBE_LEASE_MS + 1)
    expect(isProbing(101, 'm')).toBe(false)
    expect(claimProbe(101, 'm')).toBe(true)
  })

  it('skips a pair whose probe is out while another candidate exists, and uses it when none does', async () => {
    await halfOpen(102, 'm')
    const row = (id: number) => ({ id, type: 1, name: `c${id}`, key: 'k', base_url: '', group: 'default', models: 'm', priority: 0, weight: 1 })
    const table = buildRoutingTable([row(102), row(103)])
    const pick = (tried: number[]) => selectChannel(table, { group: 'default', model: 'm', tried: new Set(tried), isFrozen, isProbing, random: () => 0 })!.id
    // Half-open with no probe out: a candidate like any other (the first of the tier with random 0).
    expect(pick([])).toBe(102)
    expect(claimProbe(102, 'm')).toBe(true)
    for (let i = 0; i < 5; i++) expect(pick([])).toBe(103)
    expect(pick([103])).toBe(102)
  })

  it('a successful probe closes the breaker here and in the object', async () => {
    await halfOpen(104, 'm')
    claimProbe(104, 'm')
    const bg = background()
    reportSuccess(env, bg.ctx, 104, 'm')
    await bg.settle()
    expect(breakerHere(104, 'm')).toBe('closed')
    expect(await env.CHANNEL_HEALTH.getByName('channel:104').frozen()).toEqual({})
  })

  it('a failed probe re-opens with the doubled cool-down the object keeps', async () => {
    await halfOpen(105, 'm')
    claimProbe(105, 'm')
    const bg = background()
    const before = Date.now()
    reportFailure(env, bg.ctx, { channelId: 105, model: 'm', ok: false, status: 500, freezeSeconds: 1 })
    expect(isProbing(105, 'm')).toBe(false)
    await bg.settle()
    const until = (await env.CHANNEL_HEALTH.getByName('channel:105').frozen()).m!
    expect(until - before).toBeGreaterThanOrEqual(2000)
    expect(until - before).toBeLessThan(2500)
    expect(breakerHere(105, 'm')).toBe('open')
    expect(isFrozen(105, 'm')).toBe(true)
  })
})
