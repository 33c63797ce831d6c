/**
 * The tokenizer loads each rank file once per isolate, however many requests need it at the same
 * moment (a burst of cancelled streams used to parse it once each and stall the isolate), and a
 * failed load is not remembered.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { resetIsolateState } from '../cache/isolate'
import { countTokens } from './tokenizer'

function countingEnv(fail = 0) {
  const calls = { n: 0 }
  const assets = {
    fetch: (req: Request) => {
      calls.n++
      if (calls.n <= fail) return Promise.resolve(new Response('gone', { status: 503 }))
      return env.ASSETS.fetch(req)
    },
  }
  return { env: { ...env, ASSETS: assets } as unknown as Env, calls }
}

describe('tokenizer', () => {
  it('loads the rank file once for concurrent first uses', async () => {
    resetIsolateState()
    const { env: e, calls } = countingEnv()
    const counts = await Promise.all(Array.from({ length: 16 }, () => countTokens(e, 'gpt-4o-mini', 'Hello there, tokenizer!', false)))
    expect(new Set(counts).size).toBe(1)
    expect(counts[0]).toBeGreaterThan(3)
    expect(calls.n).toBe(1)
  })

  it('loads again after a failed load', async () => {
    resetIsolateState()
    const { env: e, calls } = countingEnv(1)
    expect(await countTokens(e, 'gpt-4o-mini', 'Hello there, tokenizer!', false)).toBeGreaterThan(3)
    expect(calls.n).toBe(2)
  })
})
