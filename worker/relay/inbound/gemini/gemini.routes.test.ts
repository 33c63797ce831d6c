/**
 * The Gemini native API (/v1beta) through the real relay on an OpenAI channel (fetch-level upstream
 * mock): generateContent, streamGenerateContent?alt=sse, function calling, countTokens, embeddings,
 * the model list, Google error envelopes, and the balance moving by exactly the logged quota.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { createChannel, createToken, createUser, ledger, send, setPrice } from '../../../test/factories'
import { mockUpstream, REPLY, USAGE } from '../../../test/upstream-mock'
import { decodeSse } from '../../../test/stream-harness'
import nativeAnswer from '../../../providers/gemini/__fixtures__/response.json?raw'
import nativeStream from '../../../providers/gemini/__fixtures__/stream-text.sse?raw'

let upstream: ReturnType<typeof mockUpstream>
const QUOTA = 1_000_000

beforeEach(async () => {
  upstream = mockUpstream((req, body) => {
    if (!req.url.endsWith('/chat/completions') || !body.tools) return undefined
    const message = { role: 'assistant', content: null, tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }
    return Response.json({
      id: 'chatcmpl-t',
      object: 'chat.completion',
      created: 1,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: 'tool_calls' }],
      usage: USAGE,
    })
  })
  await setPrice('gpt-4o', 2, 4)
  await setPrice('text-embedding-3-small', 0.01, 0)
  await createChannel({ key: 'good', models: 'gpt-4o,text-embedding-3-small' })
})
afterEach(() => upstream.restore())

async function customer() {
  const user = await createUser({ quota: QUOTA })
  const token = await createToken(user.id)
  return { user, token }
}
const post = (key: string, path: string, json: unknown) => send(`/v1beta/models/${path}`, { headers: { 'x-goog-api-key': key }, json })
const hello = {
  systemInstruction: { parts: [{ text: 'Be brief.' }] },
  contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }],
  generationConfig: { temperature: 0.4, maxOutputTokens: 64, stopSequences: ['END'] },
}

describe('/v1beta generateContent', () => {
  it('answers with candidates and usageMetadata, billed like chat with the format logged', async () => {
    const { user, token } = await customer()
    const res = await post(token.key, 'gpt-4o:generateContent', hello)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: REPLY }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
      modelVersion: 'gpt-4o',
    })
    expect(upstream.calls[0]!.body).toMatchObject({
      model: 'gpt-4o',
      temperature: 0.4,
      max_tokens: 64,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hello' },
      ],
    })
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    expect(l.loggedQuota).toBe(12 * 2 + 7 * 4)
    const log = await env.DB.prepare('SELECT metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(JSON.parse(log.metadata).inbound_format).toBe('gemini')
  })

  it('streams with alt=sse and ?key=, the last frame carrying finishReason and usage', async () => {
    const { user, token } = await customer()
    const res = await send(`/v1beta/models/gpt-4o:streamGenerateContent?alt=sse&key=${token.key}`, { json: hello })
    expect(res.status).toBe(200)
    const frames = decodeSse(res.text).map((e) => JSON.parse(e.data))
    expect(frames.map((f) => f.candidates[0].content.parts.map((p: any) => p.text).join('')).join('')).toBe(REPLY)
    expect(frames.slice(0, -1).every((f) => !f.candidates[0].finishReason && !f.usageMetadata)).toBe(true)
    expect(frames.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7 } })
    expect(res.text).not.toContain('[DONE]')
    const l = await ledger(user.id)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    expect((await send(`/v1beta/models/gpt-4o:streamGenerateContent?key=${token.key}`, { json: hello })).status).toBe(400)
  })

  it('round-trips function calling', async () => {
    const { token } = await customer()
    const tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } }] }]
    const first = await post(token.key, 'gpt-4o:generateContent', {
      contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }],
      tools,
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    })
    expect(first.json.candidates[0].content.parts).toEqual([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }])
    expect(upstream.calls[0]!.body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } })
    const second = await post(token.key, 'gpt-4o:generateContent', {
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
    })
    expect(second.status).toBe(200)
    expect(upstream.calls[1]!.body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":18}' },
    ])
  })

  it("counts tokens without billing and lists the key's models", async () => {
    const { user, token } = await customer()
    const counted = await post(token.key, 'gpt-4o:countTokens', { contents: hello.contents })
    expect(counted.json.totalTokens).toBeGreaterThan(0)
    const list = await send('/v1beta/models', { headers: { 'x-goog-api-key': token.key } })
    expect(list.json.models.map((m: any) => m.name)).toEqual(['models/gpt-4o', 'models/text-embedding-3-small'])
    expect((await send('/v1beta/models/gpt-4o', { headers: { 'x-goog-api-key': token.key } })).json.name).toBe('models/gpt-4o')
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })

  it('embeds one content and a batch through the embeddings op', async () => {
    const { user, token } = await customer()
    const one = await post(token.key, 'text-embedding-3-small:embedContent', { content: { parts: [{ text: 'hello' }] }, outputDimensionality: 2 })
    expect(one.json).toEqual({ embedding: { values: [0.1, 0.2] } })
    expect(upstream.calls[0]!.body).toMatchObject({ model: 'text-embedding-3-small', input: ['hello'], dimensions: 2 })
    const batch = await post(token.key, 'text-embedding-3-small:batchEmbedContents', {
      requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }],
    })
    expect(batch.status).toBe(200)
    expect(batch.json.embeddings[0]).toEqual({ values: [0.1, 0.2] })
    expect(upstream.calls[1]!.body.input).toEqual(['a', 'b'])
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(2)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
  })

  it.each([
    ['no key', 401, 'UNAUTHENTICATED', () => ({ json: hello })],
    ['empty contents', 400, 'INVALID_ARGUMENT', (k: string) => ({ headers: { 'x-goog-api-key': k }, json: { contents: [] } })],
    ['topP 2', 400, 'INVALID_ARGUMENT', (k: string) => ({ headers: { 'x-goog-api-key': k }, json: { ...hello, generationConfig: { topP: 2 } } })],
    ['a googleSearch tool', 400, 'INVALID_ARGUMENT', (k: string) => ({ headers: { 'x-goog-api-key': k }, json: { ...hello, tools: [{ googleSearch: {} }] } })],
  ])('renders %s as %d %s', async (_name, status, code, init) => {
    const { user, token } = await customer()
    const res = await send('/v1beta/models/gpt-4o:generateContent', init(token.key))
    expect(res.status).toBe(status)
    expect(res.json).toMatchObject({ error: { code: status, status: code } })
    expect(upstream.calls).toHaveLength(0)
    expect((await ledger(user.id)).quota).toBe(QUOTA)
  })
})

describe('/v1beta on a Gemini channel (native pass-through)', () => {
  beforeEach(async () => {
    upstream.restore()
    upstream = mockUpstream((req) => {
      const path = new URL(req.url).pathname
      if (path === '/v1beta/models/gemini-2.5-pro:generateContent') return new Response(nativeAnswer, { headers: { 'content-type': 'application/json' } })
      if (path === '/v1beta/models/gemini-2.5-pro:streamGenerateContent') return new Response(nativeStream, { headers: { 'content-type': 'text/event-stream' } })
      return undefined
    })
    await setPrice('gemini-2.5-pro', 1.25, 10)
    await createChannel({ key: 'AIza-good', type: 25, models: 'gemini-2.5-pro' })
  })

  it('sends the client body as is (safetySettings, thinkingConfig) and returns the native answer, billing its usageMetadata', async () => {
    const { user, token } = await customer()
    const body = {
      ...hello,
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
      generationConfig: { maxOutputTokens: 64, thinkingConfig: { thinkingBudget: 128 } },
    }
    const res = await post(token.key, 'gemini-2.5-pro:generateContent', body)
    expect(res.status).toBe(200)
    expect(res.json).toEqual(JSON.parse(nativeAnswer))
    expect(upstream.calls[0]!.body).toEqual(body)
    const l = await ledger(user.id)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
    const log = await env.DB.prepare('SELECT prompt_tokens, completion_tokens, metadata FROM logs WHERE user_id = ? AND type = 2').bind(user.id).first<any>()
    expect(log).toMatchObject({ prompt_tokens: 1290, completion_tokens: 24 + 161 })
    expect(JSON.parse(log.metadata).inbound_format).toBe('gemini')
  })

  it("streams the channel's frames unchanged", async () => {
    const { user, token } = await customer()
    const res = await post(token.key, 'gemini-2.5-pro:streamGenerateContent?alt=sse', hello)
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.url).toContain(':streamGenerateContent?alt=sse')
    expect(upstream.calls[0]!.body.generationConfig.maxOutputTokens).toBe(64)
    expect(decodeSse(res.text).map((e) => JSON.parse(e.data))).toEqual(decodeSse(nativeStream).map((e) => JSON.parse(e.data)))
    const l = await ledger(user.id)
    expect(l.consumeLogs).toBe(1)
    expect(QUOTA - l.quota).toBe(l.loggedQuota)
  })
})
