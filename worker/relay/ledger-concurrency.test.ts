/**
 * Ledger invariants under concurrency: 200 parallel requests against a balance that covers 50, for
 * chat with and without max_tokens (stream and non-stream), embeddings and images with n. Served
 * never exceeds what the balance affords, Σ log quota = balance decrease = Σ per-request cost
 * exactly, the balance never goes below zero, and every refusal is 429 insufficient_quota.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  // Images answer as many pictures as were asked for.
  upstream = mockUpstream((req, body) =>
    new URL(req.url).pathname.endsWith('/images/generations')
      ? Response.json({ created: 1, data: Array.from({ length: body.n ?? 1 }, () => ({ url: 'https://example.invalid/x.png' })) })
      : undefined
  )
  await setPrice('gpt-4o', 2, 4)
  await setPrice('text-embedding-3-small', 1, 0)
  await setPrice('dall-e-3', 20, 0, 'times')
  await createChannel({ key: 'good', models: 'gpt-4o,text-embedding-3-small,dall-e-3' })
})
afterEach(() => upstream.restore())

const chat = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }] }
const CHAT_COST = 12 * 2 + 7 * 4

const cases: { name: string; path: string; body: Record<string, unknown>; cost: number }[] = [
  { name: 'chat with max_tokens', path: '/v1/chat/completions', body: { ...chat, max_tokens: 7 }, cost: CHAT_COST },
  { name: 'chat with max_tokens, streamed', path: '/v1/chat/completions', body: { ...chat, max_tokens: 7, stream: true }, cost: CHAT_COST },
  { name: 'chat without max_tokens', path: '/v1/chat/completions', body: chat, cost: CHAT_COST },
  { name: 'chat without max_tokens, streamed', path: '/v1/chat/completions', body: { ...chat, stream: true }, cost: CHAT_COST },
  // The mock reports 5 prompt tokens; the estimate for this input is larger, so no overrun.
  { name: 'embeddings', path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hello world hello world' }, cost: 5 },
  { name: 'images with n = 2', path: '/v1/images/generations', body: { model: 'dall-e-3', prompt: 'a cat', n: 2, size: '1024x1792' }, cost: 2 * 2 * 20_000 },
]

describe('200 parallel requests against a balance that covers 50', () => {
  for (const c of cases) {
    it(`${c.name}: served ≤ affordable, Σ log quota = balance decrease = Σ costs`, async () => {
      // The balance is what refuses here, not the cap on open requests (bounded-debt.test.ts covers that).
      await setOptions({ MaxUserOpenRequests: '0' })
      const balance = 50 * c.cost
      const user = await createUser({ quota: balance })
      const token = await createToken(user.id)
      await wallet(user.id).balance({ userId: user.id })
      const results = await Promise.all(Array.from({ length: 200 }, () => send(c.path, { key: token.key, json: c.body })))
      const served = results.filter((r) => r.status === 200).length
      const refused = results.filter((r) => r.status !== 200)
      for (const r of refused) {
        expect(r.status).toBe(429)
        expect(r.json.error.code).toBe('insufficient_quota')
      }
      expect(served).toBeGreaterThan(0)
      expect(served).toBeLessThanOrEqual(50)

      const l = await ledger(user.id)
      expect(l.quota).toBeGreaterThanOrEqual(0)
      expect(l.consumeLogs).toBe(served)
      expect(l.loggedQuota).toBe(served * c.cost)
      expect(balance - l.quota).toBe(l.loggedQuota)
      expect(l.request_count).toBe(served)
      expect((await wallet(user.id).balance({ userId: user.id }))!).toMatchObject({ quota: l.quota, reserved: 0, pendingLogs: 0 })
    }, 60_000)
  }
})
