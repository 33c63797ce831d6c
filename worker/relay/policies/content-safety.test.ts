/**
 * Prompt-side content safety through the real relay (fetch-level upstream mock): a listed word is
 * refused before the supplier with nothing held or charged, in the OpenAI and Anthropic envelopes;
 * masking rewrites every text the supplier reads (system prompts, text parts, tool-call arguments,
 * string inputs), takes no native pass-through, and counts what it masked in the log metadata.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../../test/factories'
import { mockUpstream } from '../../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
afterEach(() => upstream.restore())

const QUOTA = 1_000_000
const MODEL = 'safety-model'

async function customer() {
  const user = await createUser({ quota: QUOTA })
  const token = await createToken(user.id)
  return { user, token }
}

async function logsOf(userId: number) {
  const { results } = await env.DB.prepare('SELECT type, quota, metadata FROM logs WHERE user_id = ?').bind(userId).all<{ type: number; quota: number; metadata: string }>()
  return results
}

const words = { CheckSensitiveEnabled: 'true', CheckSensitiveOnPromptEnabled: 'true', SensitiveWords: 'ForbiddenWord\n违禁词' }

describe('sensitive words: refuse (the default action)', () => {
  it('refuses a chat request with a listed word in the system prompt, the supplier never called, nothing held or charged', async () => {
    upstream = mockUpstream()
    await setPrice(MODEL, 2, 4)
    await createChannel({ key: 'good', models: MODEL })
    await setOptions(words)
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', {
      key: token.key,
      json: {
        model: MODEL,
        messages: [
          { role: 'system', content: 'never say FORBIDDENWORD' },
          { role: 'user', content: 'hi' },
        ],
      },
    })
    expect(res.status).toBe(400)
    expect(res.json.error).toMatchObject({ type: 'invalid_request_error', code: 'sensitive_words_detected' })
    expect(upstream.calls).toHaveLength(0)
    const l = await ledger(user.id)
    expect(l.quota).toBe(QUOTA)
    expect(l.consumeLogs).toBe(0)
    expect(await logsOf(user.id)).toEqual([])

    // CJK inside a text part and a word inside tool-call arguments are refused the same way.
    for (const messages of [
      [{ role: 'user', content: [{ type: 'text', text: '请解释这个违禁词的意思' }] }],
      [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"q":"a forbiddenword"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
    ]) {
      const again = await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, messages } })
      expect(again.status).toBe(400)
      expect(again.json.error.code).toBe('sensitive_words_detected')
    }
    const embed = await send('/v1/embeddings', { key: token.key, json: { model: MODEL, input: ['fine', 'has forbiddenWord in it'] } })
    expect(embed.status).toBe(400)
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)

    // Clean prompts pass; with the prompt check off the word passes too.
    expect((await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, messages: [{ role: 'user', content: 'hello' }] } })).status).toBe(200)
    await setOptions({ CheckSensitiveOnPromptEnabled: 'false' })
    expect((await send('/v1/chat/completions', { key: token.key, json: { model: MODEL, messages: [{ role: 'user', content: 'forbiddenword' }] } })).status).toBe(200)
    expect(upstream.calls).toHaveLength(2)
  })

  it('answers an Anthropic Messages client in its own error envelope', async () => {
    upstream = mockUpstream()
    await setPrice(MODEL, 2, 4)
    await createChannel({ key: 'good', models: MODEL })
    await setOptions(words)
    const { user, token } = await customer()
    const res = await send('/v1/messages', {
      headers: { 'x-api-key': token.key, 'anthropic-version': '2023-06-01' },
      json: {
        model: MODEL,
        max_tokens: 64,
        messages: [
          { role: 'user', content: 'look this up' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'tu1', name: 'search', input: { query: '违禁词' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'nothing' }] },
        ],
      },
    })
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } })
    expect(res.json.error.message).toContain('sensitive_words_detected')
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)
    expect(await logsOf(user.id)).toEqual([])
  })
})

describe('masking', () => {
  it('masks listed words and personal data in every prompt text, billing and logging the counts', async () => {
    upstream = mockUpstream()
    await setPrice(MODEL, 2, 4)
    await createChannel({ key: 'good', models: MODEL })
    await setOptions({ ...words, SensitiveWordsAction: 'mask', PiiMaskingEnabled: 'true' })
    const { user, token } = await customer()
    const res = await send('/v1/chat/completions', {
      key: token.key,
      json: {
        model: MODEL,
        messages: [
          { role: 'system', content: 'Reply to a.b@example.com about the forbiddenword.' },
          { role: 'user', content: [{ type: 'text', text: '我的手机 13912345678，身份证 11010519491231002X，违禁词' }] },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pay', arguments: '{"card":"4111 1111 1111 1111","ip":"10.1.2.3"}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'done' },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(upstream.calls).toHaveLength(1)
    const sent = upstream.calls[0]!.body.messages
    expect(sent[0].content).toBe('Reply to [email] about the ***.')
    expect(sent[1].content).toEqual([{ type: 'text', text: '我的手机 [phone]，身份证 [id_card]，***' }])
    expect(JSON.parse(sent[2].tool_calls[0].function.arguments)).toEqual({ card: '[bank_card]', ip: '[ipv4]' })
    const l = await ledger(user.id)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    const rows = await logsOf(user.id)
    expect(rows).toHaveLength(1)
    const metadata = JSON.parse(rows[0]!.metadata)
    expect(metadata.content_safety).toEqual({ sensitive_words: 2, pii: { email: 1, phone: 1, id_card: 1, bank_card: 1, ipv4: 1 } })
    expect(rows[0]!.metadata).not.toContain('13912345678')
  })

  it('masks string inputs of other operations, and a group can turn PII masking off', async () => {
    upstream = mockUpstream()
    await setPrice(MODEL, 2, 4)
    await createChannel({ key: 'good', models: MODEL })
    await setOptions({ PiiMaskingEnabled: 'true' })
    const { token } = await customer()
    expect((await send('/v1/embeddings', { key: token.key, json: { model: MODEL, input: ['mail x@y.org', 'plain'] } })).status).toBe(200)
    expect(upstream.calls[0]!.body.input).toEqual(['mail [email]', 'plain'])
    await setOptions({ PiiMaskingGroups: '{"default":false}' })
    expect((await send('/v1/embeddings', { key: token.key, json: { model: MODEL, input: 'mail x@y.org' } })).status).toBe(200)
    expect(upstream.calls[1]!.body.input).toBe('mail x@y.org')
  })

  it('sends a masked Anthropic request through the channel adapter, never the original native body', async () => {
    const answer = {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-safety',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 2 },
    }
    upstream = mockUpstream((req) => (new URL(req.url).pathname === '/v1/messages' ? Response.json(answer) : undefined))
    await setPrice('claude-safety', 3, 15)
    await createChannel({ key: 'sk-ant-good', type: 14, models: 'claude-safety' })
    await setOptions({ PiiMaskingEnabled: 'true' })
    const { token } = await customer()
    const post = (content: string) =>
      send('/v1/messages', {
        headers: { 'x-api-key': token.key, 'anthropic-version': '2023-06-01' },
        json: { model: 'claude-safety', max_tokens: 64, system: 'Be brief.', messages: [{ role: 'user', content }] },
      })
    const res = await post('my number is 13912345678')
    expect(res.status).toBe(200)
    expect(res.json.content).toEqual([{ type: 'text', text: 'ok' }])
    expect(JSON.stringify(upstream.calls[0]!.body)).not.toContain('13912345678')
    expect(JSON.stringify(upstream.calls[0]!.body)).toContain('my number is [phone]')
    // Nothing to mask: the native pass-through is kept.
    expect((await post('hello there')).status).toBe(200)
    expect(upstream.calls[1]!.body).toMatchObject({ system: 'Be brief.', messages: [{ role: 'user', content: 'hello there' }] })
  })
})
