import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import wranglerToml from '../../wrangler.toml?raw'
import { DO_BINDINGS, withDelayedDurableObjects } from './do-latency'
import { config } from './env'

const vars = (v: Record<string, string>) => ({ ...env, ...v }) as unknown as Env

describe('test-only Durable Object latency', () => {
  it('is off unless the test flag is set', () => {
    expect(config(vars({ DO_LATENCY_MS: '50' })).doLatencyMs).toBe(0)
    expect(config(vars({ DO_LATENCY_MS: '50', DO_LATENCY_TEST: '1' })).doLatencyMs).toBe(50)
    expect(() => config(vars({ DO_LATENCY_MS: 'x', DO_LATENCY_TEST: '1' }))).toThrow(/DO_LATENCY_MS/)
  })

  it('makes every stub call wait, and still answers', async () => {
    const delayed = withDelayedDurableObjects(env, 60)
    const plain = env.RATE_LIMITER.getByName('do-latency-test-plain')
    const slow = delayed.RATE_LIMITER.getByName('do-latency-test-slow')
    let started = Date.now()
    await plain.hit(100, 60_000)
    const fast = Date.now() - started
    started = Date.now()
    const result = await slow.hit(100, 60_000)
    expect(Date.now() - started).toBeGreaterThanOrEqual(55)
    expect(fast).toBeLessThan(55)
    expect(result).toMatchObject({ allowed: true, remaining: 99 })
  })

  it('covers every Durable Object binding of wrangler.toml', () => {
    const names = [...wranglerToml.matchAll(/\[\[durable_objects\.bindings\]\]\s*\nname\s*=\s*"([^"]+)"/g)].map((m) => m[1]!)
    expect(names.length).toBeGreaterThan(0)
    expect([...names].sort()).toEqual([...DO_BINDINGS].sort())
  })

  it('leaves the other bindings alone', () => {
    const delayed = withDelayedDurableObjects(env, 60)
    expect(delayed.DB).toBe(env.DB)
    expect(delayed.ASSETS).toBe(env.ASSETS)
  })
})
