/**
 * The warm hot path does no D1 work: after one request has warmed the isolate caches (settings,
 * prices, routing table, token), further relay requests never touch the D1 binding of the Worker
 * (balances live in the wallet Durable Object, which writes D1 behind, off the request).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { createChannel, createToken, createUser, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

function countingEnv() {
  const counts = { prepare: 0, batch: 0, exec: 0 }
  const db = new Proxy(env.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (prop === 'prepare' || prop === 'batch' || prop === 'exec') {
        return (...args: unknown[]) => {
          counts[prop]++
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      }
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { env: { ...env, DB: db } as Env, counts }
}

async function call(e: Env, key: string, stream = false) {
  const ctx = createExecutionContext()
  const res = await worker.fetch(
    new Request('http://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], stream }),
    }),
    e,
    ctx
  )
  await res.text()
  await waitOnExecutionContext(ctx)
  return res.status
}

describe('warm hot path', () => {
  it('makes zero D1 calls per relay request once warm (stream and non-stream)', async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const { env: counted, counts } = countingEnv()
    expect(await call(counted, token.key)).toBe(200)
    const afterWarmup = { ...counts }
    // The cold request looked the token up in D1: the counter sees the binding.
    expect(afterWarmup.prepare).toBeGreaterThan(0)
    for (let i = 0; i < 20; i++) expect(await call(counted, token.key, i % 2 === 1)).toBe(200)
    expect(counts).toEqual(afterWarmup)
  })
})
