/**
 * `admit(c)`: the key, its effective group and that group's limits come from one read of the group
 * snapshot, with no D1 read once the isolate is warm, and once per request however often a handler
 * asks; the refusals (missing, wrong, disabled, expired key, disabled owner, exhausted key) keep
 * their status and code in the relay's envelope.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { HonoEnv } from '../env'
import { errorHandler } from '../lib/error-handler'
import { openAIBody } from '../lib/errors'
import { requestLogger } from '../lib/logger'
import { createChannel, createToken, createUser, send, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { admit } from './admit'
import { groupLimitsSnapshot } from './group-limits'

const probe = new Hono<HonoEnv>()
  .use(async (c, next) => {
    c.set('requestId', 'rid-admit')
    c.set('log', requestLogger('rid-admit'))
    await next()
  })
  .get('/probe', async (c) => {
    const auth = await admit(c)
    const again = await admit(c)
    return c.json({ same: auth === again, tokenId: auth.id, group: auth.group, groupRates: auth.groupRates })
  })
probe.onError(errorHandler((e, c) => c.json(openAIBody(e), e.status)))

/** The env with its D1 prepares counted. */
function countingEnv() {
  const counter = { prepares: 0 }
  const db = new Proxy(env.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (prop === 'prepare') return (sql: string) => (counter.prepares++, target.prepare(sql))
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
  return { env: { ...env, DB: db } as Env, counter }
}

async function probeWith(key: string, target: Env = env) {
  const ctx = createExecutionContext()
  const res = await probe.request('/probe', { headers: { authorization: `Bearer ${key}` } }, target, ctx)
  const body = (await res.json()) as any
  await waitOnExecutionContext(ctx)
  return { status: res.status, body }
}

const setDefaultGroup = async (rpm: number, tpm: number) => {
  await env.DB.prepare("UPDATE user_groups SET api_rate = ?, tpm = ? WHERE symbol = 'default'").bind(rpm, tpm).run()
  await groupLimitsSnapshot.invalidate(env)
}

afterEach(() => vi.restoreAllMocks())

describe('admit', () => {
  it('returns the key, its effective group and the group limits from one snapshot read, without D1 when warm', async () => {
    await setDefaultGroup(7, 900)
    try {
      const user = await createUser({ quota: 1000 })
      // A group that does not exist (or is closed to the owner) falls back to the owner's group.
      const token = await createToken(user.id, { group: 'no-such-group' })
      expect((await probeWith(token.key)).status).toBe(200) // warms the key record and the snapshot
      const reads = vi.spyOn(groupLimitsSnapshot, 'get')
      const { env: counted, counter } = countingEnv()
      const warm = await probeWith(token.key, counted)
      expect(warm).toEqual({ status: 200, body: { same: true, tokenId: token.id, group: 'default', groupRates: { rpm: 7, tpm: 900 } } })
      expect(reads).toHaveBeenCalledTimes(1)
      expect(counter.prepares).toBe(0)
    } finally {
      await setDefaultGroup(600, 0)
    }
  })

  it('keeps every refusal: status, code and envelope', async () => {
    const user = await createUser({ quota: 1000 })
    const disabled = await createToken(user.id)
    await env.DB.prepare('UPDATE tokens SET status = 2 WHERE id = ?').bind(disabled.id).run()
    const expired = await createToken(user.id, { expired: Math.floor(Date.now() / 1000) - 10 })
    const owner = await createUser({ quota: 1000 })
    const ownerDisabled = await createToken(owner.id)
    await env.DB.prepare('UPDATE users SET status = 2 WHERE id = ?').bind(owner.id).run()
    const cases: [string | undefined, number, string][] = [
      [undefined, 401, 'missing_api_key'],
      ['sk-not-a-real-key', 401, 'invalid_api_key'],
      [disabled.key, 401, 'token_disabled'],
      [expired.key, 401, 'token_expired'],
      [ownerDisabled.key, 403, 'user_disabled'],
      [`${(await createToken(user.id)).key}#3`, 403, 'channel_pin_forbidden'],
    ]
    for (const [key, status, code] of cases) {
      const res = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
      expect({ key, status: res.status, code: res.json.error.code, type: res.json.error.type }).toEqual({
        key,
        status,
        code,
        type: status === 401 ? 'authentication_error' : 'permission_error',
      })
    }
  })

  it('an exhausted key is still refused by the wallet with 429 insufficient_quota', async () => {
    const upstream = mockUpstream()
    try {
      await setPrice('gpt-4o', 2, 4)
      await createChannel({ key: 'good' })
      const user = await createUser({ quota: 1_000_000 })
      const token = await createToken(user.id, { unlimited: false, remain: 10 })
      const res = await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 } })
      expect(res.status).toBe(429)
      expect(res.json.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' })
      expect(upstream.calls).toHaveLength(0)
    } finally {
      upstream.restore()
    }
  })
})
