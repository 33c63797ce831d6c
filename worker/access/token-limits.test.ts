/**
 * Per-token limits on the relay: RPM, TPM, concurrency, per-model limits and the user's ceilings, the
 * x-ratelimit-* headers and Retry-After, in the caller's envelope; and budgets per period on a fake
 * clock (day, week and month boundaries, a non-UTC time zone), with Σ log quota = budget used.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { setTestClockOffset, clockNow } from '../lib/clock'
import { periodBounds } from '../lib/budget-period'
import { effectiveLimits, formatReset, type OwnLimits } from './token-limits'
import { setupRoot, signedInUser } from '../test/client'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gpt-4o-mini', 0.1, 0, 'times')
  await createChannel({ key: 'good' })
})
afterEach(async () => {
  upstream.restore()
  setTestClockOffset({ TEST_CLOCK: '1' }, 0)
  await setOptions({ BudgetTimezone: 'UTC' })
})

const moveClockTo = (ms: number) => setTestClockOffset({ TEST_CLOCK: '1' }, ms - Date.now())
const chat = (model = 'gpt-4o') => ({ model, messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 5 })

async function limitedToken(limits: Record<string, unknown>, userLimits: Record<string, unknown> = {}) {
  const user = await createUser({ quota: 10_000_000 })
  const token = await createToken(user.id, { unlimited: true })
  const set = (table: string, id: number, values: Record<string, unknown>) => {
    const cols = Object.keys(values)
    if (cols.length === 0) return
    const vals = cols.map((c) => (typeof values[c] === 'object' ? JSON.stringify(values[c]) : values[c]))
    return env.DB.prepare(`UPDATE ${table} SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`)
      .bind(...vals, id)
      .run()
  }
  await set('tokens', token.id, limits)
  await set('users', user.id, userLimits)
  return { user, token }
}

describe('requests per minute', () => {
  it('refuses the request over rpm_limit with 429 rate_limit_exceeded and Retry-After; headers count down', async () => {
    const { user, token } = await limitedToken({ rpm_limit: 3 })
    const remaining: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe('3')
      expect(res.headers.get('x-ratelimit-reset-requests')).toMatch(/^(\d+ms|\d+s|1m0s)$/)
      remaining.push(res.headers.get('x-ratelimit-remaining-requests')!)
    }
    expect(remaining).toEqual(['2', '1', '0'])
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('rate_limit_exceeded')
    const retry = Number(refused.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0')
    expect(upstream.calls).toHaveLength(3)

    // The wallet counted the three lease-served requests from the reports: another isolate asking it is refused too.
    const spec = { rules: [{ key: `t:${token.id}`, kind: 'rpm' as const, limit: 3 }], tokens: 10 }
    const exact = await wallet(user.id).reserve({ userId: user.id, tokenId: token.id, reqId: 'other-isolate', amount: 10, limits: spec })
    expect(exact).toMatchObject({ ok: false, reason: 'rate_limit_exceeded' })

    // After the window (on the fake clock) the key works again.
    moveClockTo(clockNow() + retry * 1000 + 1000)
    expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
  })

  it('takes the owner’s value where the key sets none, and answers an Anthropic client in its own envelope', async () => {
    const { token } = await limitedToken({}, { rpm_limit: 1 })
    const ok = await send('/v1/messages', { key: token.key, json: { model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] } })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('x-ratelimit-limit-requests')).toBe('1')
    const refused = await send('/v1/messages', { key: token.key, json: { model: 'gpt-4o', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] } })
    expect(refused.status).toBe(429)
    expect(refused.json.type).toBe('error')
    expect(JSON.stringify(refused.json)).toContain('requests-per-minute')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
  })

  it('a failed answer carries the rate headers too', async () => {
    await env.DB.prepare('UPDATE channels SET status = 2').run()
    await createChannel({ key: 'mock-500' })
    const { token } = await limitedToken({ rpm_limit: 4 })
    const failed = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(failed.status).toBeGreaterThanOrEqual(500)
    expect(failed.headers.get('x-ratelimit-limit-requests')).toBe('4')
    expect(failed.headers.get('x-ratelimit-remaining-requests')).toBe('3')
  })

  it('applies a model_limits entry to its models only', async () => {
    const { token } = await limitedToken({ model_limits: { 'gpt-4o-mini': { rpm: 1, tpm: 0 } } })
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('rate_limit_exceeded')
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o') })).status).toBe(200)
  })
})

describe('tokens per minute', () => {
  it('counts prompt + completion tokens as settled and refuses with tokens_per_minute_exceeded once the window is full', async () => {
    // The mock reports 12 + 7 = 19 tokens per request.
    const { token } = await limitedToken({ tpm_limit: 30 })
    const first = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(first.status).toBe(200)
    expect(first.headers.get('x-ratelimit-limit-tokens')).toBe('30')
    expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('tokens_per_minute_exceeded')
    expect(refused.headers.get('x-ratelimit-remaining-tokens')).toBe('0')
    const retry = Number(refused.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    expect(retry).toBeLessThanOrEqual(60)
    moveClockTo(clockNow() + 61_000)
    expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
  })

  it('the group TPM counts every token of the user together', async () => {
    await env.DB.prepare("UPDATE user_groups SET tpm = 20 WHERE symbol = 'default'").run()
    const { groupLimitsSnapshot } = await import('./group-limits')
    await groupLimitsSnapshot.invalidate(env)
    try {
      const user = await createUser({ quota: 10_000_000 })
      const a = await createToken(user.id, { unlimited: true })
      const b = await createToken(user.id, { unlimited: true })
      expect((await send('/v1/chat/completions', { key: a.key, json: chat() })).status).toBe(200)
      expect((await send('/v1/chat/completions', { key: b.key, json: chat() })).status).toBe(200)
      const refused = await send('/v1/chat/completions', { key: b.key, json: chat() })
      expect(refused.status).toBe(429)
      expect(refused.json.error.code).toBe('tokens_per_minute_exceeded')
    } finally {
      await env.DB.prepare("UPDATE user_groups SET tpm = 0 WHERE symbol = 'default'").run()
      await groupLimitsSnapshot.invalidate(env)
    }
  })
})

describe('concurrency', () => {
  it('the wallet refuses a second request in flight and admits the next once the first settles', async () => {
    const user = await createUser({ quota: 1_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const spec = { rules: [], tokens: 10, concurrency: { key: `t:${token.id}`, limit: 1 } }
    const w = wallet(user.id)
    expect(await w.reserve({ userId: user.id, tokenId: token.id, reqId: 'c1', amount: 10, limits: spec })).toMatchObject({ ok: true })
    const second = await w.reserve({ userId: user.id, tokenId: token.id, reqId: 'c2', amount: 10, limits: spec })
    expect(second).toMatchObject({ ok: false, reason: 'concurrency_limit_exceeded' })
    await w.settle({ userId: user.id, reqId: 'c1', quota: 10, tokens: 5 })
    expect(await w.reserve({ userId: user.id, tokenId: token.id, reqId: 'c3', amount: 10, limits: spec })).toMatchObject({ ok: true })
    await w.refund({ userId: user.id, reqId: 'c3' })
  })
})

describe('budgets', () => {
  const used = async (userId: number, tokenId: number) => (await wallet(userId).balance({ userId, tokenId }))!.token!.budget!
  const loggedInPeriod = async (userId: number, tokenId: number, start: number, end: number) => {
    await ledger(userId)
    const row = await env.DB.prepare('SELECT COALESCE(SUM(quota), 0) AS q FROM logs WHERE user_id = ? AND token_id = ? AND created_at >= ? AND created_at < ?')
      .bind(userId, tokenId, Math.ceil(start / 1000), Math.ceil(end / 1000))
      .first<{ q: number }>()
    return row!.q
  }

  for (const [period, tz] of [
    ['day', 'UTC'],
    ['day', 'Asia/Shanghai'],
    ['week', 'America/New_York'],
    ['month', 'Asia/Tokyo'],
  ] as const) {
    it(`a ${period} budget in ${tz} refuses the request it cannot cover and allows it again after the period rolls`, async () => {
      await setOptions({ BudgetTimezone: tz })
      // Two minutes before the period ends (times price: 100 units a call, worst case = cost).
      const { end } = periodBounds(period, tz, Date.now())
      moveClockTo(end - 120_000)
      const { user, token } = await limitedToken({ budget_period: period, budget_quota: 300 })
      for (let i = 0; i < 3; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
      const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
      expect(refused.status).toBe(429)
      expect(refused.json.error.code).toBe('budget_exceeded')
      const retry = Number(refused.headers.get('retry-after'))
      expect(retry).toBeGreaterThan(60)
      expect(retry).toBeLessThanOrEqual(121)
      const before = await used(user.id, token.id)
      expect(before.used).toBe(300)
      expect(await loggedInPeriod(user.id, token.id, before.start, before.end)).toBe(300)

      moveClockTo(end + 1000)
      expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
      const after = await used(user.id, token.id)
      expect(after.start).toBe(end)
      expect(after.used).toBe(100)
      expect(await loggedInPeriod(user.id, token.id, after.start, after.end)).toBe(100)
      const l = await ledger(user.id)
      expect(l.loggedQuota).toBe(400)
      expect(l.quota).toBe(10_000_000 - 400)
    })
  }

  it('a budget set on a token that already spent starts from its log rows in the period', async () => {
    const { user, token } = await limitedToken({})
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    await ledger(user.id)
    await env.DB.prepare("UPDATE tokens SET budget_period = 'day', budget_quota = 150 WHERE id = ?").bind(token.id).run()
    const { forgetToken } = await import('./token-auth')
    await forgetToken(env, token.key.slice(3))
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('budget_exceeded')
    expect((await used(user.id, token.id)).used).toBe(100)
  })
})

describe("the user's limits are ceilings a key may only narrow (security finding 18)", () => {
  const none: OwnLimits = { rpm: 0, tpm: 0, concurrency: 0, budgetPeriod: '', budgetQuota: 0, models: {} }

  it('takes the smaller number set on either side, 0 being unset, and never widens a budget', () => {
    const own = { ...none, rpm: 100, tpm: 5, concurrency: 0, budgetPeriod: 'day' as const, budgetQuota: 1000 }
    const owner = { ...none, rpm: 10, tpm: 50, concurrency: 3, budgetPeriod: 'day' as const, budgetQuota: 300 }
    expect(effectiveLimits(own, owner)).toMatchObject({ rpm: 10, tpm: 5, concurrency: 3, budgetPeriod: 'day', budgetQuota: 300 })
    expect(effectiveLimits({ ...own, budgetQuota: 200 }, owner)).toMatchObject({ budgetPeriod: 'day', budgetQuota: 200 })
    // A key budget over another period cannot stand in for the owner's: the owner's holds.
    expect(effectiveLimits({ ...own, budgetPeriod: 'month', budgetQuota: 100_000 }, owner)).toMatchObject({ budgetPeriod: 'day', budgetQuota: 300 })
    expect(effectiveLimits(own, none)).toMatchObject({ rpm: 100, tpm: 5, concurrency: 0, budgetPeriod: 'day', budgetQuota: 1000 })
    expect(effectiveLimits(none, owner)).toMatchObject({ rpm: 10, tpm: 50, concurrency: 3, budgetPeriod: 'day', budgetQuota: 300 })
    expect(effectiveLimits(none, none)).toMatchObject({ rpm: 0, tpm: 0, concurrency: 0, budgetPeriod: '', budgetQuota: 0 })
  })

  it('a key with a higher rpm_limit is still held to its owner’s', async () => {
    const { token } = await limitedToken({ rpm_limit: 50 }, { rpm_limit: 2 })
    for (let i = 0; i < 2; i++) {
      const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
      expect(res.status).toBe(200)
      expect(res.headers.get('x-ratelimit-limit-requests')).toBe('2')
    }
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('rate_limit_exceeded')
  })

  it('a key budget larger than its owner’s stops at the owner’s, and the logs add up to what was spent', async () => {
    // Times price: 100 units a call.
    const { user, token } = await limitedToken({ budget_period: 'day', budget_quota: 100_000 }, { budget_period: 'day', budget_quota: 200 })
    for (let i = 0; i < 2; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('budget_exceeded')
    const l = await ledger(user.id)
    expect(l.loggedQuota).toBe(200)
    expect(l.quota).toBe(10_000_000 - 200)
  })

  it('the owner’s model_limits hold beside the key’s own', async () => {
    const { token } = await limitedToken({ model_limits: { 'gpt-4o*': { rpm: 100, tpm: 0 } } }, { model_limits: { 'gpt-4o-mini': { rpm: 1, tpm: 0 } } })
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    const refused = await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o-mini') })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('rate_limit_exceeded')
    expect((await send('/v1/chat/completions', { key: token.key, json: chat('gpt-4o') })).status).toBe(200)
  })
})

describe('limit fields on the API', () => {
  it('validates and stores token limits, user ceilings and the group TPM', async () => {
    const root = await setupRoot()
    const { client, id } = await signedInUser('limits-owner')
    const form = { name: 'k', remain_quota: 0, unlimited_quota: true, expired_time: -1 }
    const bad = await client.post('/api/token/', { ...form, rpm_limit: -1, tpm_limit: 1.5, budget_period: 'year', model_limits: { 'a*b': { rpm: 1, tpm: 0 } } })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.data.fields)).toEqual(expect.arrayContaining(['rpm_limit', 'tpm_limit', 'budget_period']))
    const created = await client.post('/api/token/', {
      ...form,
      rpm_limit: 5,
      concurrency_limit: 2,
      budget_period: 'week',
      budget_quota: 1000,
      model_limits: { 'gpt-4o*': { rpm: 2, tpm: 100 } },
    })
    expect(created.status).toBe(200)
    expect(created.body.data).toMatchObject({
      rpm_limit: 5,
      tpm_limit: 0,
      concurrency_limit: 2,
      budget_period: 'week',
      budget_quota: 1000,
      model_limits: { 'gpt-4o*': { rpm: 2, tpm: 100 } },
    })

    const user = (await root.get(`/api/user/${id}`)).body.data
    const updated = await root.put('/api/user/', {
      id,
      username: user.username,
      group: user.group,
      display_name: user.display_name,
      email: user.email,
      rpm_limit: 7,
      budget_period: 'day',
      budget_quota: 500,
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data).toMatchObject({ rpm_limit: 7, tpm_limit: 0, budget_period: 'day', budget_quota: 500 })
    const unbounded = await root.put('/api/user/', { id, username: user.username, group: user.group, tpm_limit: Number.MAX_SAFE_INTEGER + 2 })
    expect(unbounded.status).toBe(400)

    const groups = (await root.get('/api/user_group/')).body.data as any[]
    const g = groups.find((x) => x.symbol === 'default')
    const saved = await root.put('/api/user_group/', { ...g, tpm: 5000 })
    expect(saved.status).toBe(200)
    expect(saved.body.data.tpm).toBe(5000)
    expect((await root.put('/api/user_group/', { ...g, tpm: -3 })).status).toBe(400)
    await root.put('/api/user_group/', { ...g, tpm: 0 })
  })

  it('the token list shows each budget’s use in the current period', async () => {
    await setupRoot()
    const { client, id } = await signedInUser('budget-lister')
    await wallet(id).credit({ userId: id, amount: 100_000, key: `t:${id}`, log: { type: 1, createdAt: Math.floor(Date.now() / 1000) } })
    const t = (await client.post('/api/token/', { name: 'b', unlimited_quota: true, budget_period: 'month', budget_quota: 1000 })).body.data
    const plain = (await client.post('/api/token/', { name: 'p', unlimited_quota: true })).body.data
    expect((await send('/v1/chat/completions', { key: t.key, json: chat('gpt-4o-mini') })).status).toBe(200)
    await ledger(id)
    const list = (await client.get('/api/token/?p=1&page_size=10')).body.data.data as any[]
    expect(list.find((x) => x.id === t.id).budget_use).toMatchObject({ period: 'month', quota: 1000, used: 100 })
    expect(list.find((x) => x.id === plain.id).budget_use).toBeNull()
  })

  it('formats resets as OpenAI does', () => {
    expect(formatReset(20)).toBe('20ms')
    expect(formatReset(1000)).toBe('1s')
    expect(formatReset(360_000)).toBe('6m0s')
    expect(formatReset(3_723_000)).toBe('1h2m3s')
  })
})
