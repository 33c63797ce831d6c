/**
 * The warm hot path does no D1 work and waits on no Durable Object: after one request has warmed
 * the isolate caches (settings, prices, routing table, token) and taken a credit lease, further
 * relay requests never touch the D1 binding of the Worker and make no synchronous wallet call
 * (reserve, lease, settle); their costs reach the wallet in batched background reports. With every
 * Durable Object call slowed down by two seconds, a warm request still answers at once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import worker from '../index'
import { createChannel, createToken, createUser, ledger, setPrice } from '../test/factories'
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

/** Wrap a Durable Object namespace so every RPC of its stubs is counted (and optionally delayed). */
function countingNamespace<T extends DurableObjectNamespace<any>>(ns: T, counts: Record<string, number>, delayMs = 0): T {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop)
      if (prop !== 'getByName') return typeof value === 'function' ? value.bind(target) : value
      return (name: string) => {
        const stub = (value as (n: string) => any).call(target, name)
        return new Proxy(stub, {
          get(s, method) {
            if (typeof method !== 'string' || method === 'then') return Reflect.get(s, method)
            // RPC stubs answer every property name, so call through the stub (not Function.apply).
            return async (...args: unknown[]) => {
              counts[method] = (counts[method] ?? 0) + 1
              if (delayMs) await new Promise((r) => setTimeout(r, delayMs))
              return s[method](...args)
            }
          },
        })
      }
    },
  }) as T
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

  it('makes no synchronous wallet call once warm: requests spend from the credit lease, costs go in batches', async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const calls: Record<string, number> = {}
    const e = { ...env, WALLET: countingNamespace(env.WALLET, calls) } as Env
    expect(await call(e, token.key)).toBe(200)
    const warm = { ...calls }
    expect(warm.lease).toBe(1)
    for (let i = 0; i < 20; i++) expect(await call(e, token.key, i % 2 === 1)).toBe(200)
    expect(calls.reserve ?? 0).toBe(0)
    expect(calls.settle ?? 0).toBe(0)
    expect(calls.lease).toBe(warm.lease)
    // 21 requests reported in background batches (one per request here: each call waits for its own).
    expect(calls.settleLease).toBeLessThanOrEqual(21)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(21)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
  })

  it('with every Durable Object call slowed by two seconds, a warm request still answers at once', async () => {
    await setPrice('gpt-4o', 1, 1)
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const calls: Record<string, number> = {}
    const slow = {
      ...env,
      WALLET: countingNamespace(env.WALLET, calls, 2000),
      CHANNEL_HEALTH: countingNamespace(env.CHANNEL_HEALTH, calls, 2000),
      RATE_LIMITER: countingNamespace(env.RATE_LIMITER, calls, 2000),
    } as Env
    expect(await call(slow, token.key)).toBe(200)
    const pending: Promise<void>[] = []
    for (let i = 0; i < 5; i++) {
      const ctx = createExecutionContext()
      const started = Date.now()
      const res = await worker.fetch(
        new Request('http://gateway.test/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
        }),
        slow,
        ctx
      )
      await res.text()
      // A request that waited on any Durable Object call would take at least two seconds.
      expect(res.status).toBe(200)
      expect(Date.now() - started).toBeLessThan(1000)
      pending.push(waitOnExecutionContext(ctx))
    }
    await Promise.all(pending)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(6)
    expect(10_000_000 - l.quota).toBe(l.loggedQuota)
  }, 60_000)
})
