/**
 * Token limits and budgets with the official `openai` SDK against the running gateway: a key with
 * rpm_limit 5 gets its 6th request in a minute refused with 429 and Retry-After; a key whose daily
 * budget covers 3 requests is refused the 4th with `budget_exceeded` and served again after the
 * period rolls (the server's test clock, root-only POST /api/test/clock, enabled by TEST_CLOCK=1 in
 * scripts/test-server.ts).
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture, rootSession } from './support/api'

const MODEL = 'e2e-limits-times'
let fixture: Awaited<ReturnType<typeof relayFixture>>

const setClock = (offsetMs: number) => fixture.root.ok('POST', '/api/test/clock', { offset_ms: offsetMs })

beforeAll(async () => {
  // A times price: every call costs exactly 100 units (its worst case too), so a budget of 300 covers 3.
  const root = await rootSession()
  await root.call('POST', '/api/prices/single', { model: MODEL, type: 'times', channel_type: 1, input: 0.1, output: 0 })
  fixture = await relayFixture({ username: 'limitsuser', model: MODEL })
})
afterAll(() => setClock(0))

const clientFor = (key: string) => new OpenAI({ apiKey: key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
const ask = (client: OpenAI) => client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 })

describe('token limits with the openai SDK', () => {
  it('rpm_limit 5: the 6th request in a minute is refused with 429, rate_limit_exceeded and Retry-After', async () => {
    const token = await fixture.user.ok<{ key: string; rpm_limit: number }>('POST', '/api/token/', { name: 'rpm5', unlimited_quota: true, rpm_limit: 5 })
    expect(token.rpm_limit).toBe(5)
    const client = clientFor(token.key)
    for (let i = 0; i < 5; i++) {
      const { data, response } = await ask(client).withResponse()
      expect(data.choices[0]!.message.content).toContain('mock upstream')
      expect(response.headers.get('x-ratelimit-limit-requests')).toBe('5')
      expect(response.headers.get('x-ratelimit-remaining-requests')).toBe(String(4 - i))
    }
    const err = await ask(client).catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.RateLimitError)
    expect(err.status).toBe(429)
    expect(err.code).toBe('rate_limit_exceeded')
    const retry = Number(err.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
  })

  it('a daily budget covering 3 requests refuses the 4th with budget_exceeded and serves it after the day rolls', async () => {
    const token = await fixture.user.ok<{ key: string }>('POST', '/api/token/', { name: 'budget3', unlimited_quota: true, budget_period: 'day', budget_quota: 300 })
    const client = clientFor(token.key)
    for (let i = 0; i < 3; i++) await ask(client)
    const err = await ask(client).catch((e) => e)
    expect(err).toBeInstanceOf(OpenAI.RateLimitError)
    expect(err.code).toBe('budget_exceeded')
    const retry = Number(err.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(86_400)

    // Past the next UTC midnight (BudgetTimezone defaults to UTC).
    const nextDay = new Date()
    nextDay.setUTCHours(24, 0, 1, 0)
    await setClock(nextDay.getTime() - Date.now())
    try {
      const res = await ask(client)
      expect(res.choices[0]!.message.content).toContain('mock upstream')
    } finally {
      await setClock(0)
    }
  })
})
