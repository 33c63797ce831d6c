/**
 * Weighted routes (canary): a 90/10 rule splits 10,000 picks within ±3 % (at random, and over
 * distinct affinity keys), one key always gets the same target, a group's own rule wins, targets
 * the key may not use are never chosen, the setting is validated, and a routed request is billed
 * and logged as its target with `routed_from`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream, USAGE } from '../test/upstream-mock'
import { checkOptionValue } from '../../shared/contract/option-checks'
import type { OptionKey } from '../../shared/contract/settings'
import { Settings } from '../settings/store'
import { pickTarget, routedModel } from './model-routes'

const SPLIT = [
  { model: 'gpt-4o', weight: 90 },
  { model: 'gpt-4.1', weight: 10 },
]
const settingsWith = (routes: unknown) => new Settings({ ModelRoutes: JSON.stringify(routes) } as Record<OptionKey, string>)
const share = (picks: (string | undefined)[], model: string) => picks.filter((m) => m === model).length / picks.length

describe('pickTarget', () => {
  it('splits 90/10 within ±3 % over 10,000 random picks', () => {
    const picks = Array.from({ length: 10_000 }, () => pickTarget(SPLIT, undefined)?.model)
    expect(Math.abs(share(picks, 'gpt-4o') - 0.9)).toBeLessThanOrEqual(0.03)
    expect(Math.abs(share(picks, 'gpt-4.1') - 0.1)).toBeLessThanOrEqual(0.03)
  })

  it('splits 90/10 within ±3 % over 10,000 distinct sticky keys, and one key keeps its target', () => {
    const picks = Array.from({ length: 10_000 }, (_, i) => pickTarget(SPLIT, `gpt-4o|k:conversation-${i}`)?.model)
    expect(Math.abs(share(picks, 'gpt-4o') - 0.9)).toBeLessThanOrEqual(0.03)
    for (let i = 0; i < 50; i++) expect(pickTarget(SPLIT, `gpt-4o|k:conversation-${i}`)?.model).toBe(picks[i])
  })
})

describe('routedModel', () => {
  const settings = settingsWith([
    { model: 'gpt-4o', targets: SPLIT },
    { model: 'gpt-4o', group: 'vip', targets: [{ model: 'gpt-4.1', weight: 1 }] },
  ])

  it('uses the group’s own rule first, the rule for every group otherwise, and nothing for other models', () => {
    expect(routedModel(settings, 'vip', 'gpt-4o', 'k')).toBe('gpt-4.1')
    expect(['gpt-4o', 'gpt-4.1']).toContain(routedModel(settings, 'default', 'gpt-4o', 'k'))
    expect(routedModel(settings, 'default', 'claude-3', 'k')).toBeUndefined()
  })

  it('uses a key’s own rule before its group’s', () => {
    const byKey = settingsWith([
      { model: 'gpt-4o', group: 'vip', targets: [{ model: 'gpt-4.1', weight: 1 }] },
      { model: 'gpt-4o', token_id: 7, targets: [{ model: 'o3', weight: 1 }] },
    ])
    expect(routedModel(byKey, 'vip', 'gpt-4o', 'k', undefined, 7)).toBe('o3')
    expect(routedModel(byKey, 'vip', 'gpt-4o', 'k', undefined, 8)).toBe('gpt-4.1')
    expect(routedModel(byKey, 'default', 'gpt-4o', 'k', undefined, 8)).toBeUndefined()
  })

  it('never chooses a target the key may not use', () => {
    for (let i = 0; i < 200; i++) expect(routedModel(settings, 'default', 'gpt-4o', `k${i}`, (m) => m === 'gpt-4o')).toBe('gpt-4o')
    expect(routedModel(settings, 'vip', 'gpt-4o', 'k', (m) => m === 'gpt-4o')).toBeUndefined()
  })
})

describe('ModelRoutes setting', () => {
  it('accepts rules and refuses duplicates, bad weights and empty targets', () => {
    expect(
      checkOptionValue(
        'ModelRoutes',
        JSON.stringify([
          { model: 'a', targets: SPLIT },
          { model: 'a', group: 'vip', targets: SPLIT },
        ])
      ).ok
    ).toBe(true)
    const refused = (v: unknown) => !checkOptionValue('ModelRoutes', JSON.stringify(v)).ok
    expect(
      refused([
        { model: 'a', targets: SPLIT },
        { model: 'a', targets: SPLIT },
      ])
    ).toBe(true)
    expect(refused([{ model: 'a', targets: [{ model: 'b', weight: 0 }] }])).toBe(true)
    expect(refused([{ model: 'a', targets: [{ model: 'b', weight: 1.5 }] }])).toBe(true)
    expect(refused([{ model: 'a', targets: [] }])).toBe(true)
    expect(refused([{ model: 'a', group: 'vip', token_id: 3, targets: SPLIT }])).toBe(true)
    expect(refused([{ model: 'a', token_id: 0, targets: SPLIT }])).toBe(true)
    expect(
      refused([
        { model: 'a', token_id: 3, targets: SPLIT },
        { model: 'a', token_id: 3, targets: SPLIT },
      ])
    ).toBe(true)
    expect(checkOptionValue('ModelRoutes', JSON.stringify([{ model: 'a', token_id: 3, targets: SPLIT }])).ok).toBe(true)
    expect(
      refused([
        {
          model: 'a',
          targets: [
            { model: 'b', weight: 1 },
            { model: 'b', weight: 2 },
          ],
        },
      ])
    ).toBe(true)
    expect(refused({ a: 'b' })).toBe(true)
  })
})

describe('a routed request', () => {
  let upstream: ReturnType<typeof mockUpstream>
  beforeEach(() => {
    upstream = mockUpstream()
  })
  afterEach(() => upstream.restore())

  it('is answered, billed and logged as its target, with routed_from', async () => {
    await setOptions({ ModelRoutes: JSON.stringify([{ model: 'rt-asked', targets: [{ model: 'rt-canary', weight: 1 }] }]) })
    await setPrice('rt-asked', 1, 1)
    await setPrice('rt-canary', 4, 6)
    await createChannel({ key: 'good', models: 'rt-asked,rt-canary' })
    const user = await createUser({ quota: 100_000 })
    const token = await createToken(user.id)
    const res = await send('/v1/chat/completions', { key: token.key, json: { model: 'rt-asked', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 7 } })
    expect(res.status).toBe(200)
    expect(res.json.model).toBe('rt-canary')
    expect(upstream.calls.map((c) => c.body.model)).toEqual(['rt-canary'])
    const l = await ledger(user.id)
    const expected = USAGE.prompt_tokens * 4 + USAGE.completion_tokens * 6
    expect(100_000 - l.quota).toBe(expected)
    expect(l.loggedQuota).toBe(expected)
    const row = await env.DB.prepare('SELECT model_name, metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<{ model_name: string; metadata: string }>()
    expect(row!.model_name).toBe('rt-canary')
    expect(JSON.parse(row!.metadata)).toMatchObject({ routed_from: 'rt-asked', billed_model: 'rt-canary' })
  })
})
