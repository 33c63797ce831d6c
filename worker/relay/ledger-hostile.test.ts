/**
 * Ledger invariants against hostile numbers: every /v1 operation gets non-finite, negative,
 * unsafe, fractional and wrongly typed values for each money field, and the mock supplier reports
 * hostile usage. After each round the next normal request is charged exactly its cost, every
 * stored number is a safe integer, and the D1 flush succeeds. A supplier overrun is charged in
 * full, logged, and refuses the user until the balance is positive again.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setPrice, wallet } from '../test/factories'
import { mockUpstream, REPLY } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
let usageOverride: string | undefined
beforeEach(async () => {
  usageOverride = undefined
  upstream = mockUpstream((req, body) => {
    if (usageOverride === undefined || !new URL(req.url).pathname.endsWith('/chat/completions')) return undefined
    // Raw JSON text, so values JSON cannot encode (1e309) reach the gateway as a supplier sends them.
    const answer = `{"id":"c","object":"chat.completion","created":1,"model":"${body.model}","choices":[{"index":0,"message":{"role":"assistant","content":"${REPLY}"},"finish_reason":"stop"}]${usageOverride}}`
    return new Response(answer, { headers: { 'content-type': 'application/json' } })
  })
  await setPrice('gpt-4o', 2, 4)
  await setPrice('gpt-3.5-turbo-instruct', 1, 1)
  await setPrice('text-embedding-3-small', 1, 0)
  await setPrice('omni-moderation-latest', 1, 0)
  await setPrice('dall-e-3', 20, 0, 'times')
  await setPrice('tts-1', 7.5, 0)
  await setPrice('rerank-1', 1, 0)
  await setPrice('whisper-1', 3, 0, 'times')
})
afterEach(() => upstream.restore())

const NORMAL = { model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 7 }
const COST = 12 * 2 + 7 * 4

/** Raw JSON texts of the hostile values (1e999 must be sent as text: JSON.stringify cannot write it). */
const HOSTILE = ['1e999', '"Infinity"', '"NaN"', '-1', String(2 ** 53), '1.5', '"10"', '[1]', '{"a":1}', '-1e999']
const FIELDS = ['max_tokens', 'max_completion_tokens', 'n', 'size', 'quality', 'temperature']

const JSON_OPS: { path: string; body: Record<string, unknown>; moneyFields: string[] }[] = [
  {
    path: '/v1/chat/completions',
    body: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
    moneyFields: ['max_tokens', 'max_completion_tokens', 'n', 'temperature'],
  },
  { path: '/v1/completions', body: { model: 'gpt-3.5-turbo-instruct', prompt: 'hi' }, moneyFields: ['max_tokens', 'n', 'temperature'] },
  { path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: 'hello world hello world' }, moneyFields: [] },
  { path: '/v1/moderations', body: { input: 'hello world hello world' }, moneyFields: [] },
  { path: '/v1/images/generations', body: { model: 'dall-e-3', prompt: 'a cat' }, moneyFields: ['n', 'size', 'quality'] },
  { path: '/v1/audio/speech', body: { model: 'tts-1', input: 'hello', voice: 'alloy' }, moneyFields: [] },
  { path: '/v1/rerank', body: { model: 'rerank-1', query: 'q', documents: ['a', 'b'] }, moneyFields: [] },
]

async function channelForAll() {
  await createChannel({
    key: 'good',
    models: 'gpt-4o,gpt-3.5-turbo-instruct,text-embedding-3-small,omni-moderation-latest,dall-e-3,tts-1,rerank-1,whisper-1',
  })
}

/** Send a body whose `field` holds a raw JSON value text. */
function rawBody(base: Record<string, unknown>, field: string, raw: string) {
  const text = JSON.stringify({ ...base, [field]: '__HOSTILE__' }).replace('"__HOSTILE__"', raw)
  return { body: text, headers: { 'content-type': 'application/json' } }
}

/** The invariants after a round: D1 flush succeeds, numbers are money, Σ logs = balance change. */
async function assertLedger(userId: number, start: number) {
  const l = await ledger(userId)
  for (const v of [l.quota, l.used_quota, l.request_count, l.loggedQuota]) expect(Number.isSafeInteger(v)).toBe(true)
  const all = await env.DB.prepare('SELECT quota FROM logs WHERE user_id = ?').bind(userId).all<{ quota: number }>()
  for (const r of all.results) expect(Number.isSafeInteger(r.quota)).toBe(true)
  expect(start - l.quota).toBe(l.loggedQuota)
  expect(l.used_quota).toBe(l.loggedQuota)
  const b = (await wallet(userId).balance({ userId }))!
  expect(b).toMatchObject({ quota: l.quota, reserved: 0, pendingLogs: 0 })
  return l
}

describe('hostile numbers on every /v1 operation', () => {
  for (const op of JSON_OPS) {
    it(`${op.path}: every hostile value of every field is refused or dropped, and the next request is charged exactly`, async () => {
      await channelForAll()
      const start = 10_000_000
      const user = await createUser({ quota: start })
      const token = await createToken(user.id)
      for (const field of FIELDS) {
        const results = await Promise.all(HOSTILE.map((raw) => send(op.path, { key: token.key, method: 'POST', ...rawBody(op.body, field, raw) })))
        for (const [i, r] of results.entries()) {
          const what = `${op.path} ${field}=${HOSTILE[i]}`
          expect([200, 400], what).toContain(r.status)
          if (r.status === 400) expect(r.json.error.type, what).toBe('invalid_request_error')
          // A money field an operation uses never gets through with a hostile value (1.5 is a fine temperature).
          if (op.moneyFields.includes(field) && !(field === 'temperature' && HOSTILE[i] === '1.5')) expect(r.status, what).toBe(400)
        }
        for (const call of upstream.calls) {
          for (const f of ['max_tokens', 'max_completion_tokens', 'n']) {
            const v = call.body?.[f]
            if (v !== undefined) expect(Number.isSafeInteger(v) && v > 0, `${op.path} sent ${f}=${JSON.stringify(v)}`).toBe(true)
          }
        }
        const before = (await ledger(user.id)).quota
        const normal = await send('/v1/chat/completions', { key: token.key, json: NORMAL })
        expect(normal.status).toBe(200)
        const after = await assertLedger(user.id, start)
        expect(before - after.quota).toBe(COST)
      }
    }, 60_000)
  }

  it('multipart image edits and transcriptions check n, size, quality and temperature', async () => {
    await channelForAll()
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id)
    const form = (field: string, value: string, path: string) => {
      const f = new FormData()
      f.set('model', path.includes('audio') ? 'whisper-1' : 'dall-e-3')
      f.set(path.includes('audio') ? 'file' : 'image', new File([new Uint8Array(16)], 'x.png'))
      f.set('prompt', 'edit')
      f.set(field, value)
      return f
    }
    for (const path of ['/v1/images/edits', '/v1/images/variations', '/v1/audio/transcriptions']) {
      for (const field of ['n', 'size', 'quality', 'temperature']) {
        for (const value of ['1e999', 'Infinity', 'NaN', '-1', String(2 ** 53), '1.5', 'abc', '11']) {
          const r = await send(path, { key: token.key, body: form(field, value, path) })
          expect(r.status, `${path} ${field}=${value}`).toBe(400)
        }
      }
    }
    await assertLedger(user.id, 10_000_000)
  }, 60_000)
})

describe('hostile supplier usage', () => {
  const cases: [string, string][] = [
    ['a string count', ',"usage":{"prompt_tokens":"100","completion_tokens":7}'],
    ['a negative count', ',"usage":{"prompt_tokens":12,"completion_tokens":-5}'],
    ['null counts', ',"usage":{"prompt_tokens":null,"completion_tokens":null}'],
    ['an infinite count', ',"usage":{"prompt_tokens":12,"completion_tokens":1e309}'],
    ['a fractional count', ',"usage":{"prompt_tokens":12.5,"completion_tokens":7}'],
    ['no usage', ''],
  ]
  for (const [name, usage] of cases) {
    it(`${name}: billed from the tokenizer count, a safe integer`, async () => {
      await channelForAll()
      const start = 1_000_000
      const user = await createUser({ quota: start })
      const token = await createToken(user.id)
      usageOverride = usage
      expect((await send('/v1/chat/completions', { key: token.key, json: NORMAL })).status).toBe(200)
      usageOverride = undefined
      const l = await assertLedger(user.id, start)
      const row = await env.DB.prepare('SELECT quota, prompt_tokens, completion_tokens FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
      expect(Number.isSafeInteger(row.prompt_tokens) && row.prompt_tokens > 0).toBe(true)
      expect(Number.isSafeInteger(row.completion_tokens) && row.completion_tokens > 0).toBe(true)
      expect(row.quota).toBe(row.prompt_tokens * 2 + row.completion_tokens * 4)
      // The next normal request is charged exactly its cost.
      expect((await send('/v1/chat/completions', { key: token.key, json: NORMAL })).status).toBe(200)
      expect(l.quota - (await assertLedger(user.id, start)).quota).toBe(COST)
    })
  }
})

describe('supplier overrun', () => {
  it('is charged in full, logged, and refuses the user until the balance is positive again', async () => {
    await channelForAll()
    const user = await createUser({ quota: 100 })
    const token = await createToken(user.id)
    // max_tokens 7 reserves 12 × 2 + 7 × 4 = 52 at most; the supplier answers 1,000 completion tokens.
    usageOverride = ',"usage":{"prompt_tokens":12,"completion_tokens":1000}'
    expect((await send('/v1/chat/completions', { key: token.key, json: NORMAL })).status).toBe(200)
    usageOverride = undefined
    const cost = 12 * 2 + 1000 * 4
    const l = await assertLedger(user.id, 100)
    expect(l.quota).toBe(100 - cost)
    const row = await env.DB.prepare('SELECT quota, metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(row.quota).toBe(cost)
    // The overrun is what the hold did not cover: the request's 52, or the credit lease (the whole 100) it spent from.
    const meta = JSON.parse(row.metadata)
    expect(meta).toMatchObject({ balance_after: 100 - cost })
    expect([cost - 52, cost - 100]).toContain(meta.overrun)
    const refused = await send('/v1/chat/completions', { key: token.key, json: NORMAL })
    expect(refused.status).toBe(429)
    expect(refused.json.error.code).toBe('insufficient_quota')
    expect(upstream.calls).toHaveLength(1)
  })
})
