/** Every OpenAI endpoint besides chat goes through the same relay path: routing, billing and logs. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createChannel, createToken, createUser, ledger, send, setOptions, setPrice } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  upstream = mockUpstream()
})
afterEach(() => upstream.restore())

async function setup(model: string, price: [number, number, 'tokens' | 'times'] = [1, 1, 'tokens']) {
  await setPrice(model, price[0], price[1], price[2])
  await createChannel({ key: 'good', models: model })
  const user = await createUser({ quota: 1_000_000 })
  const token = await createToken(user.id)
  return { user, key: token.key }
}

describe('other endpoints', () => {
  it('legacy completions are relayed and billed from usage', async () => {
    const { user, key } = await setup('gpt-3.5-turbo-instruct')
    const res = await send('/v1/completions', { key, json: { model: 'gpt-3.5-turbo-instruct', prompt: 'Say hi' } })
    expect(res.status).toBe(200)
    expect(res.json.choices[0].text).toContain('mock')
    expect((await ledger(user.id)).loggedQuota).toBe(19)
  })

  it('moderations default the model and count the input when no usage comes back', async () => {
    const { user, key } = await setup('omni-moderation-latest')
    const res = await send('/v1/moderations', { key, json: { input: 'is this fine' } })
    expect(res.status).toBe(200)
    expect(upstream.calls[0]!.body.model).toBe('omni-moderation-latest')
    expect((await ledger(user.id)).loggedQuota).toBeGreaterThan(0)
  })

  it('image generations are billed per call', async () => {
    const { user, key } = await setup('dall-e-3', [20, 0, 'times'])
    const res = await send('/v1/images/generations', { key, json: { model: 'dall-e-3', prompt: 'a cat' } })
    expect(res.status).toBe(200)
    expect(res.json.data[0].url).toBeTruthy()
    expect((await ledger(user.id)).loggedQuota).toBe(20_000)
  })

  it('image prices follow size and quality (built-in table, then the ImagePriceRatios override)', async () => {
    const { user, key } = await setup('dall-e-3', [20, 0, 'times'])
    // dall-e-3 hd 1024x1792 is $0.12 = 3 × the $0.04 base.
    expect((await send('/v1/images/generations', { key, json: { model: 'dall-e-3', prompt: 'a cat', quality: 'hd', size: '1024x1792' } })).status).toBe(200)
    expect((await ledger(user.id)).loggedQuota).toBe(60_000)
    await setOptions({ ImagePriceRatios: JSON.stringify({ 'dall-e-3': { 'hd|1024x1792': 5 } }) })
    expect((await send('/v1/images/generations', { key, json: { model: 'dall-e-3', prompt: 'a cat', quality: 'hd', size: '1024x1792' } })).status).toBe(200)
    expect((await ledger(user.id)).loggedQuota).toBe(60_000 + 100_000)
  })

  it('audio speech passes the binary answer through and bills the input characters', async () => {
    const { user, key } = await setup('tts-1', [7.5, 0, 'tokens'])
    const res = await send('/v1/audio/speech', { key, json: { model: 'tts-1', input: 'hello there', voice: 'alloy' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    // 11 characters × 7.5 = 82.5 → 83 units (OpenAI prices TTS per character).
    expect((await ledger(user.id)).loggedQuota).toBe(83)
  })

  it('transcriptions bill the started minutes the supplier reports', async () => {
    upstream.restore()
    upstream = mockUpstream((req) => (new URL(req.url).pathname.endsWith('/audio/transcriptions') ? Response.json({ text: 'long talk', duration: 125.5 }) : undefined))
    await setPrice('whisper-1', 3, 0, 'times')
    await createChannel({ key: 'good', models: 'whisper-1' })
    const user = await createUser({ quota: 1_000_000 })
    const { key } = await createToken(user.id)
    const form = new FormData()
    form.set('model', 'whisper-1')
    form.set('response_format', 'verbose_json')
    form.set('file', new File([new Uint8Array(64)], 'talk.mp3', { type: 'audio/mpeg' }))
    expect((await send('/v1/audio/transcriptions', { key, body: form, method: 'POST' })).status).toBe(200)
    // 125.5 s = 3 started minutes × 3000.
    expect((await ledger(user.id)).loggedQuota).toBe(9000)
  })

  it('multipart transcriptions keep the file and swap the model', async () => {
    await setPrice('whisper-1', 3, 0, 'times')
    await createChannel({ key: 'good', models: 'whisper-1', mapping: { 'whisper-1': '+whisper-large' } })
    const user = await createUser({ quota: 1_000_000 })
    const { key } = await createToken(user.id)
    const form = new FormData()
    form.set('model', 'whisper-1')
    form.set('file', new File([new Uint8Array([1, 2, 3])], 'clip.mp3', { type: 'audio/mpeg' }))
    const res = await send('/v1/audio/transcriptions', { key, body: form, method: 'POST' })
    expect(res.status).toBe(200)
    expect(res.json.text).toBe('transcribed words here')
    expect(upstream.calls[0]!.body).toMatchObject({ model: 'whisper-large', file: 'file:clip.mp3' })
    expect((await ledger(user.id)).loggedQuota).toBe(3000)
  })

  it('multipart endpoints refuse a body without a file', async () => {
    const { key } = await setup('dall-e-2')
    const form = new FormData()
    form.set('model', 'dall-e-2')
    const res = await send('/v1/images/edits', { key, body: form, method: 'POST' })
    expect(res.status).toBe(400)
    expect(res.json.error.param).toBe('file')
  })

  it('rerank is relayed and billed from its usage', async () => {
    const { user, key } = await setup('bge-reranker')
    const res = await send('/v1/rerank', { key, json: { model: 'bge-reranker', query: 'q', documents: ['a', 'b'] } })
    expect(res.status).toBe(200)
    expect(res.json.results[0].relevance_score).toBe(0.9)
    expect((await ledger(user.id)).loggedQuota).toBe(8)
  })
})
