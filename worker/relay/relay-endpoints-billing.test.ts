/**
 * The relay's model list (the key's group and whitelist), the legacy OpenAI billing endpoints in USD
 * (the key's own quota or the account's, DisplayTokenStatEnabled) and embeddings billed by prompt tokens.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gpt-4o-mini', 0.1, 0.2)
})
afterEach(() => upstream.restore())

const chat = (extra: Record<string, unknown> = {}): Record<string, any> => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }], ...extra })

async function customer(quota = 1_000_000, tokenOpts: Parameters<typeof createToken>[1] = {}) {
  const user = await createUser({ quota })
  const token = await createToken(user.id, tokenOpts)
  return { user, token }
}

describe('models and billing endpoints', () => {
  it('lists only the models of the token group and whitelist', async () => {
    await createChannel({ key: 'good', models: 'gpt-4o,gpt-4o-mini,claude-*' })
    await createChannel({ key: 'vip', models: 'o3', group: 'vip' })
    const user = await createUser({ quota: 1000 })
    const all = await createToken(user.id)
    const some = await createToken(user.id, { models: ['gpt-4o-mini'] })
    const list = await send('/v1/models', { key: all.key })
    expect(list.json.data.map((m: any) => m.id)).toEqual(['gpt-4o', 'gpt-4o-mini'])
    const limited = await send('/v1/models', { key: some.key })
    expect(limited.json.data.map((m: any) => m.id)).toEqual(['gpt-4o-mini'])
    expect((await send('/v1/models/gpt-4o-mini', { key: some.key })).status).toBe(200)
    expect((await send('/v1/models/gpt-4o', { key: some.key })).status).toBe(404)
  })

  it('reports the legacy billing subscription and usage in USD', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer(1_000_000)
    await send('/v1/chat/completions', { key: token.key, json: chat() })
    const sub = await send('/dashboard/billing/subscription', { key: token.key })
    expect(sub.json.hard_limit_usd).toBe(2)
    const usage = await send('/v1/dashboard/billing/usage', { key: token.key })
    expect(usage.json.total_usage).toBeCloseTo(((12 * 2 + 7 * 4) / 500000) * 100, 4)
  })

  it('reports a limited key its own quota only while DisplayTokenStatEnabled is on', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer(1_000_000, { unlimited: false, remain: 250_000 })
    await send('/v1/chat/completions', { key: token.key, json: chat() })
    const spent = 12 * 2 + 7 * 4
    const keyView = await send('/v1/dashboard/billing/subscription', { key: token.key })
    expect(keyView.json.hard_limit_usd).toBe(0.5)
    await setOptions({ DisplayTokenStatEnabled: 'false' })
    const accountView = await send('/v1/dashboard/billing/subscription', { key: token.key })
    expect(accountView.json.hard_limit_usd).toBe(2)
    const usage = await send('/v1/dashboard/billing/usage', { key: token.key })
    expect(usage.json.total_usage).toBeCloseTo((spent / 500000) * 100, 4)
  })
})

describe('embeddings', () => {
  it('relays embeddings and bills prompt tokens', async () => {
    await setPrice('text-embedding-3-small', 0.01, 0)
    await createChannel({ key: 'good', models: 'text-embedding-3-small' })
    const { user, token } = await customer()
    const res = await send('/v1/embeddings', { key: token.key, json: { model: 'text-embedding-3-small', input: 'hello' } })
    expect(res.status).toBe(200)
    expect(res.json.data[0].embedding).toEqual([0.1, 0.2])
    expect((await ledger(user.id)).loggedQuota).toBe(1)
  })
})
