/**
 * Prototype keys as names (issue 12): model names, groups, sort fields and mapping lookups must be
 * own-property lookups, so `constructor`, `__proto__` or `toString` are refused like any unknown
 * name (unknown model: 503 model_not_available; bad page: 400), never a 500, and never reach another entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { setupRoot, signedInUser } from '../test/client'
import { createChannel, send, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { buildRoutingTable, candidatesFor } from '../channels/routing-table'
import { mapModel } from '../channels/pick'
import { isFrozen } from '../channels/health'
import { walletOf } from '../wallet/wallet-client'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']

describe('prototype keys', () => {
  it('routes and maps only own entries, even when channels are configured with such names', () => {
    const table = buildRoutingTable([
      { id: 1, type: 1, name: 'a', key: 'k', models: 'gpt-4o,__proto__,constructor', group: 'default,__proto__', model_mapping: '{"gpt-4o":"gpt-4o-2024"}' },
    ])
    expect(Object.getPrototypeOf(table.groups.default!.exact)).not.toEqual([])
    expect(candidatesFor(table, 'default', 'toString')).toEqual([])
    expect(candidatesFor(table, 'constructor', 'gpt-4o')).toEqual([])
    expect(candidatesFor(table, 'default', '__proto__').map((c) => c.id)).toEqual([1])
    expect(candidatesFor(table, '__proto__', 'gpt-4o').map((c) => c.id)).toEqual([1])
    // The JSON round trip through KV keeps them as plain own keys.
    const copy = JSON.parse(JSON.stringify(table))
    expect(candidatesFor(copy, 'default', 'valueOf')).toEqual([])
    expect(candidatesFor(copy, 'default', 'constructor').map((c) => c.id)).toEqual([1])
    // Mapping and freeze lookups: inherited names are not entries.
    const channel = copy.channels[1]
    expect(mapModel(channel, 'constructor')).toEqual({ upstream: 'constructor', billed: 'constructor' })
    expect(mapModel(channel, 'gpt-4o')).toEqual({ upstream: 'gpt-4o-2024', billed: 'gpt-4o-2024' })
    expect(isFrozen(1, 'constructor')).toBe(false)
  })

  it('answers prototype names as unknown models (never 500), on every relay path', async () => {
    await setupRoot()
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good', models: 'gpt-4o', mapping: { 'gpt-4o': 'gpt-4o' } })
    const { client, id } = await signedInUser('protouser')
    await walletOf(env, id).syncUser({ userId: id })
    const key = (await client.post('/api/token/', { name: 'k', unlimited_quota: true })).body.data.key as string
    const failures: string[] = []
    for (const model of NAMES) {
      for (const [path, json] of [
        ['/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }],
        ['/v1/embeddings', { model, input: 'x' }],
        ['/v1/completions', { model, prompt: 'x' }],
      ] as const) {
        // Exactly the answer of any model no channel serves (503 model_not_available), never a crash.
        const res = await send(path, { key, json })
        if (res.status !== 503 || res.json?.error?.code !== 'model_not_available') failures.push(`${path} ${model} → ${res.status} ${res.text}`)
      }
      const one = await send(`/v1/models/${model}`, { key })
      if (one.status >= 500) failures.push(`/v1/models/${model} → ${one.status}`)
    }
    expect(failures).toEqual([])
  })

  it('answers 400 for prototype sort fields on every list route that sorts, and caps pages', async () => {
    const root = await setupRoot()
    const failures: string[] = []
    // Lists that take `order`; the others ignore it (fixed order) and must simply not fail.
    const sorted = ['/api/token/', '/api/user/', '/api/channel/', '/api/redemption/', '/api/payment/', '/api/payment/order', '/api/user/order', '/api/option/telegram/']
    for (const path of [...sorted, '/api/log/', '/api/log/self', '/api/prices/', '/api/token/admin/search', '/api/log/dead-letters']) {
      for (const order of NAMES.flatMap((n) => [n, `-${n}`])) {
        const res = await root.get(`${path}?order=${order}`)
        if (res.status >= 500) failures.push(`${path}?order=${order} → ${res.status} ${res.body.message}`)
        if (sorted.includes(path) && res.status !== 400) failures.push(`${path}?order=${order} → ${res.status}, not 400`)
      }
      const far = await root.get(`${path}?p=100000000`)
      if (far.status !== 400 && far.status !== 404) failures.push(`${path}?p=100000000 → ${far.status}`)
    }
    expect(failures).toEqual([])
  })
})
