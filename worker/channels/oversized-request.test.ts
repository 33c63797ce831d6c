/**
 * A 429 that says the request itself is too large (issue 31, security finding 8): recognised in
 * OpenAI's and Anthropic's real wording (scripts/mock-rate-limits.mjs plays them), answered to the
 * client as its own error in its format, with one upstream call, no key or model frozen, no retry on
 * other keys or channels, and the hold refunded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'
import { oversizedMessage, oversizedRequest } from './oversized-request'
import { routingSnapshot } from './routing-table'

const OPENAI_TOO_LARGE =
  'Request too large for gpt-4o in organization org-AbC123 on tokens per min (TPM): Limit 30000, Requested 342389. The input or output tokens must be reduced in order to run successfully. Visit https://platform.openai.com/account/rate-limits to learn more.'
const OPENAI_WINDOW =
  'Rate limit reached for gpt-4o in organization org-AbC123 on tokens per min (TPM): Limit 30000, Used 29000, Requested 3000. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.'
const ANTHROPIC_ITPM =
  'This request would exceed the rate limit for your organization (6f0c2f43-0d5e-4b8e-9c1a-2b7d3e4f5a60) of 20,000 input tokens per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.'

describe('oversizedRequest', () => {
  it("recognises OpenAI's request-too-large 429 and not its window 429", () => {
    const too = oversizedRequest(429, { message: OPENAI_TOO_LARGE, type: 'tokens', code: 'rate_limit_exceeded' }, 0)
    expect(too).toEqual({ unit: 'tokens per minute', limit: 30000, requested: 342389 })
    expect(oversizedMessage(too!)).toBe(
      "Request too large: it needs 342389 tokens, more than the upstream's limit of 30000 tokens per minute, so no retry can succeed. Reduce the prompt or max_tokens and send it again."
    )
    expect(oversizedMessage(too!)).not.toContain('org-')
    expect(oversizedRequest(429, { message: OPENAI_WINDOW, type: 'tokens', code: 'rate_limit_exceeded' }, 100_000)).toBeUndefined()
    // The same wording on another status is not a rate limit.
    expect(oversizedRequest(400, { message: OPENAI_TOO_LARGE, type: 'tokens' }, 0)).toBeUndefined()
    // Type `tokens` with a request over the limit and no "Used": too large whatever the wording.
    expect(oversizedRequest(429, { message: 'On tokens per day (TPD): Limit 100, Requested 500.', type: 'tokens' }, 0)).toEqual({
      unit: 'tokens per day',
      limit: 100,
      requested: 500,
    })
  })

  it("counts Anthropic's input-tokens 429 as too large only when the prompt alone is surely over the limit", () => {
    const error = { message: ANTHROPIC_ITPM, type: 'rate_limit_error' }
    expect(oversizedRequest(429, error, 25_000)).toEqual({ unit: 'input tokens per minute', limit: 20000 })
    expect(oversizedMessage(oversizedRequest(429, error, 25_000)!)).toContain("larger than the upstream's limit of 20000 input tokens per minute")
    // A prompt under the limit: the key's window was full, another key may take it.
    expect(oversizedRequest(429, error, 5_000)).toBeUndefined()
    expect(oversizedRequest(429, { message: 'Number of request tokens has exceeded your per-minute rate limit', type: 'rate_limit_error' }, 90_000)).toBeUndefined()
  })
})

let upstream: ReturnType<typeof mockUpstream>
beforeEach(async () => {
  upstream = mockUpstream()
  await setPrice('gpt-4o', 2, 4)
  await setPrice('claude-sonnet-4-5', 3, 15)
  await setOptions({ RetryCooldownSeconds: '60', RetryTimes: '2', ChannelAffinityEnabled: 'false' })
})
afterEach(() => upstream.restore())

async function pool(keys: string[], extra: { type?: number; models?: string; priority?: number } = {}) {
  const id = await createChannel({ key: keys.join('\n'), ...extra })
  await env.DB.prepare("UPDATE channels SET key_mode = 'pool' WHERE id = ?").bind(id).run()
  await routingSnapshot.invalidate(env)
  return id
}

const QUOTA = 10_000_000
async function customer() {
  const user = await createUser({ quota: QUOTA })
  return { user, key: (await createToken(user.id)).key }
}

// About 10,000 tokens of prompt for keys allowing about 1,000 a minute (mock-tpm-<N>).
const HUGE = 'lorem ipsum dolor sit amet '.repeat(1500)
const TPM_KEYS = ['mock-tpm-1000', 'mock-tpm-1001', 'mock-tpm-1002', 'mock-tpm-1003']
const frozen = (id: number) => env.CHANNEL_HEALTH.getByName(`channel:${id}`).frozen()

describe('a request too large for every key', () => {
  it('is answered 429 after one upstream call, freezes nothing, tries no other key or channel and refunds the hold', async () => {
    const id = await pool(TPM_KEYS, { priority: 10 })
    const other = await createChannel({ key: 'k9', priority: 0 })
    const { user, key } = await customer()
    const res = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: HUGE }] } })
    expect(res.status).toBe(429)
    expect(res.json.error).toMatchObject({ code: 'request_too_large', type: 'invalid_request_error' })
    expect(res.json.error.message).toMatch(/^Request too large: it needs \d+ tokens, more than the upstream's limit of 100\d tokens per minute/)
    expect(res.text).not.toContain('org-mock')
    expect(upstream.calls).toHaveLength(1)
    expect(upstream.count('k9')).toBe(0)
    expect(await frozen(id)).toEqual({})
    expect(await frozen(other)).toEqual({})
    const l = await ledger(user.id)
    expect(l.quota).toBe(QUOTA)
    expect(l.consumeLogs).toBe(0)
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
    // The pool still serves a normal request on the key that refused the large one.
    const small = await send('/v1/chat/completions', { key, json: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] } })
    expect(small.status).toBe(200)
    expect(upstream.count('k9')).toBe(0)
  })

  it("answers an Anthropic client in Anthropic's envelope when every key of an Anthropic pool is too small", async () => {
    const id = await pool(TPM_KEYS, { type: 14, models: 'claude-sonnet-4-5' })
    const { user, key } = await customer()
    const res = await send('/v1/messages', {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      json: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: HUGE }] },
    })
    expect(res.status).toBe(429)
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } })
    expect(res.json.error.message).toMatch(/^Request too large: it is larger than the upstream's limit of 100\d input tokens per minute/)
    expect(upstream.calls).toHaveLength(1)
    expect(new URL(upstream.calls[0]!.url).pathname).toBe('/v1/messages')
    expect(await frozen(id)).toEqual({})
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })

  it("passes Anthropic's 413 request_too_large on as the client's 413, from one key, freezing nothing", async () => {
    upstream.restore()
    const tooLarge = { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } }
    upstream = mockUpstream(() => Response.json(tooLarge, { status: 413 }))
    const id = await pool(['sk-ant-1', 'sk-ant-2', 'sk-ant-3'], { type: 14, models: 'claude-sonnet-4-5' })
    const { user, key } = await customer()
    const res = await send('/v1/messages', {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      json: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
    })
    expect(res.status).toBe(413)
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'request_too_large' } })
    expect(upstream.calls).toHaveLength(1)
    expect(await frozen(id)).toEqual({})
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })
})
