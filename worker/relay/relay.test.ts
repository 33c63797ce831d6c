/**
 * The OpenAI chat relay through the real Worker (fetch-level upstream mock): exact charges and their
 * log rows, authentication and refusals, retries, freezes and auto-disable. The models list, the
 * legacy billing endpoints and embeddings are in relay-endpoints-billing.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice, wallet } from '../test/factories'
import { mockUpstream, REPLY, USAGE } from '../test/upstream-mock'

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

describe('chat completions', () => {
  it('relays a non-stream chat, charges exactly the formula and explains it in the log row', async () => {
    await createChannel({ key: 'good' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat({ max_tokens: 100, unknown_param: 'kept' }) })
    expect(res.status).toBe(200)
    expect(res.json.choices[0].message.content).toBe(REPLY)
    expect(res.json.usage).toEqual(USAGE)
    expect(upstream.calls[0]!.body.unknown_param).toBe('kept')

    const expected = Math.ceil(USAGE.prompt_tokens * 2 + USAGE.completion_tokens * 4)
    const l = await ledger(user.id)
    expect(l.quota).toBe(1_000_000 - expected)
    expect(l.used_quota).toBe(expected)
    expect(l.request_count).toBe(1)
    expect(l.consumeLogs).toBe(1)
    expect(l.loggedQuota).toBe(expected)
    const log = await env.DB.prepare('SELECT * FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(log).toMatchObject({ model_name: 'gpt-4o', prompt_tokens: 12, completion_tokens: 7, is_stream: 0, token_name: 'test-token', quota: expected })
    // The answer names the request its log row was written under, and is marked nosniff.
    expect(res.headers.get('x-request-id')).toBe(log.request_id)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(JSON.parse(log.metadata)).toMatchObject({ type: 'tokens', input_ratio: 2, output_ratio: 4, group_ratio: 1, quota: expected })
    const tok = await env.DB.prepare('SELECT used_quota FROM tokens WHERE id = ?').bind(token.id).first<any>()
    expect(tok.used_quota).toBe(expected)
    const ch = await env.DB.prepare('SELECT used_quota FROM channels').first<any>()
    expect(ch.used_quota).toBe(expected)
  })

  it('streams without buffering, hides the usage chunk unless asked, and bills from it', async () => {
    await createChannel({ key: 'good' })
    const { user, token } = await customer()
    const plain = await send('/v1/chat/completions', { key: token.key, json: chat({ stream: true }) })
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toMatch(/text\/event-stream/)
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    expect(plain.text).toContain('"content":"Hello "')
    expect(plain.text).not.toContain('"usage"')
    expect(plain.text.trim().endsWith('data: [DONE]')).toBe(true)
    // Upstream was asked for usage even though the client did not ask.
    expect(upstream.calls[0]!.body.stream_options).toEqual({ include_usage: true })

    const withUsage = await send('/v1/chat/completions', { key: token.key, json: chat({ stream: true, stream_options: { include_usage: true } }) })
    const usageLine = withUsage.text.split('\n\n').find((l) => l.includes('"usage"'))!
    expect(JSON.parse(usageLine.slice(6)).usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 })
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(l.loggedQuota).toBe(2 * (12 * 2 + 7 * 4))
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
  })

  it('counts tokens itself when the upstream reports no usage', async () => {
    await createChannel({ key: 'mock-nousage' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat({ stream: true, stream_options: { include_usage: true } }) })
    expect(res.status).toBe(200)
    const usageLine = res.text.split('\n\n').find((l) => l.includes('"usage"'))!
    const usage = JSON.parse(usageLine.slice(6)).usage
    expect(usage.completion_tokens).toBeGreaterThan(3)
    expect(usage.prompt_tokens).toBeGreaterThan(3)
    const l = await ledger(user.id)
    expect(l.loggedQuota).toBe(usage.prompt_tokens * 2 + usage.completion_tokens * 4)
  })

  it('relays tools, vision content and response_format untouched to OpenAI channels', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer()
    const body = chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is here?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
      response_format: { type: 'json_object' },
    })
    expect((await send('/v1/chat/completions', { key: token.key, json: body })).status).toBe(200)
    expect(upstream.calls[0]!.body).toMatchObject({ tools: body.tools, response_format: body.response_format, messages: body.messages })
  })

  it('applies the channel model mapping and bills the mapped model', async () => {
    await createChannel({ key: 'good', models: 'gpt-4o', mapping: { 'gpt-4o': 'gpt-4o-mini' } })
    const { user, token } = await customer()
    expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
    expect(upstream.calls[0]!.body.model).toBe('gpt-4o-mini')
    const l = await ledger(user.id)
    expect(l.loggedQuota).toBe(Math.ceil(12 * 0.1 + 7 * 0.2))
  })
})

describe('authentication and refusals', () => {
  it('refuses missing, forged and unknown keys with 401 in the OpenAI envelope', async () => {
    await createChannel({ key: 'good' })
    const none = await send('/v1/chat/completions', { json: chat() })
    expect(none.status).toBe(401)
    expect(none.json.error).toMatchObject({ type: 'authentication_error' })
    const forged = await send('/v1/chat/completions', { key: 'sk-' + 'A'.repeat(48), json: chat() })
    expect(forged.status).toBe(401)
    expect(forged.json.error.code).toBe('invalid_api_key')
    expect(upstream.calls).toHaveLength(0)
  })

  it('enforces the model whitelist (403), expiry (401) and the IP whitelist (403)', async () => {
    await createChannel({ key: 'good' })
    const user = await createUser({ quota: 100000 })
    const limited = await createToken(user.id, { models: ['gpt-4o-mini'] })
    const denied = await send('/v1/chat/completions', { key: limited.key, json: chat() })
    expect(denied.status).toBe(403)
    expect(denied.json.error.code).toBe('model_not_allowed')
    const expired = await createToken(user.id, { expired: Math.floor(Date.now() / 1000) - 10 })
    expect((await send('/v1/chat/completions', { key: expired.key, json: chat() })).status).toBe(401)
    const ipLocked = await createToken(user.id, { ips: ['10.0.0.0/8'] })
    const fromOutside = await send('/v1/chat/completions', { key: ipLocked.key, json: chat(), headers: { 'cf-connecting-ip': '192.0.2.7' } })
    expect(fromOutside.status).toBe(403)
    const fromInside = await send('/v1/chat/completions', { key: ipLocked.key, json: chat(), headers: { 'cf-connecting-ip': '10.1.2.3' } })
    expect(fromInside.status).toBe(200)
  })

  it('lets only admins pin (#id) or exclude (#!id) a channel', async () => {
    const a = await createChannel({ key: 'a' })
    const b = await createChannel({ key: 'b' })
    const user = await createUser({ quota: 100000 })
    const userToken = await createToken(user.id)
    expect((await send('/v1/chat/completions', { key: `${userToken.key}#${a}`, json: chat() })).status).toBe(403)
    const admin = await createUser({ quota: 100000, role: 10 })
    const adminToken = await createToken(admin.id)
    for (let i = 0; i < 5; i++) expect((await send('/v1/chat/completions', { key: `${adminToken.key}#${b}`, json: chat() })).status).toBe(200)
    expect(upstream.count('b')).toBe(5)
    for (let i = 0; i < 5; i++) await send('/v1/chat/completions', { key: `${adminToken.key}#!${b}`, json: chat() })
    expect(upstream.count('b')).toBe(5)
    expect(upstream.count('a')).toBe(5)
  })

  it('refuses with 429 insufficient_quota when the worst case of max_tokens does not fit, and reserves nothing', async () => {
    await createChannel({ key: 'good' })
    const { user, token } = await customer(100)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat({ max_tokens: 1000 }) })
    expect(res.status).toBe(429)
    expect(res.json.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' })
    expect((await wallet(user.id).balance({ userId: user.id }))!.quota).toBe(100)
    expect(upstream.calls).toHaveLength(0)
  })

  it('without max_tokens the answer is capped at what the balance pays, like OpenRouter', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer(100)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(res.status).toBe(200)
    // Prompt estimate ceil(13 characters / 3) + 4 + 3 = 12 tokens × 2 = 24 units; 76 units left at 4 per token = 19 tokens.
    expect(upstream.calls[0]!.body.max_tokens).toBe(19)
    const rich = await customer(10_000_000)
    await send('/v1/chat/completions', { key: rich.token.key, json: chat() })
    // A balance that pays for everything gets the model's output limit (gpt-4o: 16,384), which admins may change.
    expect(upstream.calls[1]!.body.max_tokens).toBe(16_384)
    await setOptions({ ModelOutputLimits: JSON.stringify({ 'gpt-4o': 1000 }) })
    await send('/v1/chat/completions', { key: rich.token.key, json: chat() })
    expect(upstream.calls[2]!.body.max_tokens).toBe(1000)
  })

  it('holds PreConsumedQuota on top of the worst case, spends none of it on output, and settles it back', async () => {
    await createChannel({ key: 'good' })
    await setOptions({ PreConsumedQuota: '600' })
    // 100 units cover the 24-unit prompt but not the 600-unit margin on top of it.
    const poor = await customer(100)
    const refused = await send('/v1/chat/completions', { key: poor.token.key, json: chat() })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('insufficient_quota')
    expect(upstream.calls).toHaveLength(0)
    // 700 units: the margin is held and the remaining 100 pay for the output cap (76 / 4 = 19 tokens, as without a margin).
    const { user, token } = await customer(700)
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.max_tokens).toBe(19)
    const l = await ledger(user.id)
    expect(l.quota).toBe(700 - (12 * 2 + 7 * 4))
    expect(l.loggedQuota).toBe(12 * 2 + 7 * 4)
  })

  it('refuses an exhausted token even when the user has balance', async () => {
    await createChannel({ key: 'good' })
    const { token } = await customer(1_000_000, { unlimited: false, remain: 10 })
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(res.status).toBe(429)
  })

  it('refuses unpriced models clearly (400) and unknown models with 503 naming group and model', async () => {
    await createChannel({ key: 'good', models: 'gpt-4o,free-model' })
    const { token } = await customer()
    const unpriced = await send('/v1/chat/completions', { key: token.key, json: chat({ model: 'free-model' }) })
    expect(unpriced.status).toBe(400)
    expect(unpriced.json.error.code).toBe('model_not_priced')
    const missing = await send('/v1/chat/completions', { key: token.key, json: chat({ model: 'nope' }) })
    expect(missing.status).toBe(503)
    expect(missing.json.error.message).toContain('"nope"')
    expect(missing.json.error.message).toContain('"default"')
  })

  it('answers bad bodies with 400 in the OpenAI envelope', async () => {
    const { token } = await customer()
    const notJson = await send('/v1/chat/completions', { key: token.key, body: '{oops', headers: { 'content-type': 'application/json' }, method: 'POST' })
    expect(notJson.status).toBe(400)
    expect(notJson.json.error.type).toBe('invalid_request_error')
    const noMessages = await send('/v1/chat/completions', { key: token.key, json: { model: 'gpt-4o' } })
    expect(noMessages.status).toBe(400)
    expect(noMessages.json.error.param).toBe('messages')
  })
})

describe('retries, freezing and auto-disable', () => {
  it('retries a 500 on another channel, refunds nothing extra, and freezes the failed channel', async () => {
    await setOptions({ RetryTimes: '2', RetryCooldownSeconds: '60' })
    await createChannel({ key: 'mock-500', priority: 10 })
    await createChannel({ key: 'good', priority: 0 })
    const { user, token } = await customer()
    for (let i = 0; i < 4; i++) expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
    // The failing higher-priority channel was tried once, then frozen for the cooldown.
    expect(upstream.count('mock-500')).toBe(1)
    expect(upstream.count('good')).toBe(4)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(4)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
  })

  it('fails with the mapped status and refunds the reservation when every channel fails', async () => {
    await setOptions({ RetryTimes: '1' })
    await createChannel({ key: 'mock-500' })
    await createChannel({ key: 'mock-429' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect([429, 502]).toContain(res.status)
    expect(res.json.error.message).toBeTruthy()
    const l = await ledger(user.id)
    expect(l.quota).toBe(1_000_000)
    expect((await wallet(user.id).balance({ userId: user.id }))!.reserved).toBe(0)
    const err = await env.DB.prepare('SELECT COUNT(*) AS n FROM logs WHERE type = 5').first<any>()
    expect(err.n).toBe(1)
  })

  it('never retries the client own 400', async () => {
    await setOptions({ RetryTimes: '3' })
    await createChannel({ key: 'mock-400' })
    await createChannel({ key: 'good' })
    const { token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    if (upstream.count('mock-400') === 1) {
      expect(res.status).toBe(400)
      expect(upstream.count('good')).toBe(0)
    }
  })

  it('auto-disables a channel whose key is rejected when the setting allows', async () => {
    await setOptions({ RetryTimes: '1', RetryCooldownSeconds: '0', AutomaticDisableChannelEnabled: 'true', AutoDisableFailureThreshold: '1' })
    const bad = await createChannel({ key: 'mock-401', priority: 5 })
    await createChannel({ key: 'good' })
    // Auth failures disable a shared channel only when two different users meet them.
    for (let i = 0; i < 2; i++) {
      const { token } = await customer()
      expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
    }
    const row = await env.DB.prepare('SELECT status, status_reason FROM channels WHERE id = ?').bind(bad).first<any>()
    expect(row.status).toBe(3)
    expect(row.status_reason).toContain('401')
  })

  it('fails over from a hanging upstream after the header timeout', async () => {
    await setOptions({ RetryTimes: '1', UpstreamTimeoutSeconds: '1' })
    await createChannel({ key: 'mock-hang', priority: 5 })
    await createChannel({ key: 'good' })
    const { token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat() })
    expect(res.status).toBe(200)
  })

  it('lets a stream run past the header timeout once its headers came', async () => {
    await setOptions({ UpstreamTimeoutSeconds: '1' })
    await createChannel({ key: 'good' })
    const { token } = await customer()
    upstream.restore()
    // Headers at once, the rest of the answer 1.5 s later; an abort of the fetch would cut it.
    upstream = mockUpstream((req, body) => {
      const frame = (delta: object, extra: object = {}) =>
        new TextEncoder().encode(
          `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: body.model, choices: [{ index: 0, delta }], ...extra })}\n\n`
        )
      const stream = new ReadableStream<Uint8Array>({
        async start(ctl) {
          ctl.enqueue(frame({ content: 'Hello ' }))
          await new Promise((r) => setTimeout(r, 1500))
          if (req.signal.aborted) return ctl.error(new DOMException('aborted', 'AbortError'))
          ctl.enqueue(frame({ content: 'late world' }, { usage: USAGE }))
          ctl.enqueue(new TextEncoder().encode('data: [DONE]\n\n'))
          ctl.close()
        },
      })
      return new Response(stream, { headers: { 'content-type': 'text/event-stream' } })
    })
    const res = await send('/v1/chat/completions', { key: token.key, json: chat({ stream: true }) })
    expect(res.status).toBe(200)
    expect(res.text).toContain('late world')
    expect(res.text.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it('retries a malformed JSON answer and a reset connection', async () => {
    await setOptions({ RetryTimes: '2' })
    await createChannel({ key: 'mock-badjson', priority: 9 })
    await createChannel({ key: 'mock-reset', priority: 5 })
    await createChannel({ key: 'good' })
    const { user, token } = await customer()
    expect((await send('/v1/chat/completions', { key: token.key, json: chat() })).status).toBe(200)
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
  })

  it('ends a stream cut mid-way with an error event and bills what was generated', async () => {
    await createChannel({ key: 'mock-cut' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', { key: token.key, json: chat({ stream: true }) })
    expect(res.status).toBe(200)
    expect(res.text).toContain('"error"')
    expect(res.text).not.toContain('[DONE]')
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(l.loggedQuota).toBeGreaterThan(0)
    expect(1_000_000 - l.quota).toBe(l.loggedQuota)
  })
})
