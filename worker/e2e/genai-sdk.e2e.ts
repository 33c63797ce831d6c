/**
 * The official `@google/genai` SDK against the running gateway's /v1beta and the mock upstream, on
 * an OpenAI-type channel (converted through chat) and on a Gemini-type channel: generateContent,
 * generateContentStream, function calling and countTokens, and its ApiError on a bad key. The
 * balance moves by exactly the logged quota.
 */
import { ApiError, GoogleGenAI, Type } from '@google/genai'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

const GEMINI = 'gemini-mock-e2e'
let fixture: Awaited<ReturnType<typeof relayFixture>>
let ai: GoogleGenAI
let startQuota = 0

const client = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: inject('gatewayUrl'), retryOptions: { attempts: 1 } } })

beforeAll(async () => {
  fixture = await relayFixture({ username: `genai${Date.now().toString(36)}` })
  await fixture.root.call('POST', '/api/prices/single', { model: GEMINI, type: 'tokens', channel_type: 25, input: 0.15, output: 0.6 })
  await fixture.root.ok('POST', '/api/channel/', {
    type: 25,
    name: `mock-gemini-${Date.now()}`,
    key: 'AIza-mock-e2e',
    base_url: inject('mockUrl'),
    models: [GEMINI],
    group: ['default'],
  })
  ai = client(fixture.token.key)
  startQuota = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
})

const weather = { name: 'get_weather', description: 'Weather for a city', parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING } }, required: ['city'] } }

describe.each([
  ['an OpenAI-type channel', () => fixture.model],
  ['a Gemini-type channel', () => GEMINI],
])('official @google/genai on %s', (_name, model) => {
  it('generates content', async () => {
    const res = await ai.models.generateContent({ model: model(), contents: 'Hello there gateway', config: { systemInstruction: 'Be brief.', temperature: 0.3 } })
    expect(res.text).toContain('mock upstream')
    expect(res.candidates![0]!.finishReason).toBe('STOP')
    expect(res.usageMetadata!.totalTokenCount).toBeGreaterThan(0)
  })

  it('streams content', async () => {
    const pieces: string[] = []
    let usage: number | undefined
    for await (const chunk of await ai.models.generateContentStream({ model: model(), contents: 'Stream please' })) {
      if (chunk.text) pieces.push(chunk.text)
      if (chunk.usageMetadata?.totalTokenCount) usage = chunk.usageMetadata.totalTokenCount
    }
    expect(pieces.length).toBeGreaterThan(3)
    expect(pieces.join('')).toContain('mock upstream')
    expect(usage).toBeGreaterThan(0)
  })

  it('calls a function and takes its response back', async () => {
    const first = await ai.models.generateContent({ model: model(), contents: 'Weather in Paris?', config: { tools: [{ functionDeclarations: [weather] }] } })
    expect(first.functionCalls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })])
    const second = await ai.models.generateContent({
      model: model(),
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 18 } } }] },
      ],
    })
    expect(second.text).toContain('mock upstream')
  })

  it('counts tokens', async () => {
    const counted = await ai.models.countTokens({ model: model(), contents: 'How many tokens is this?' })
    expect(counted.totalTokens).toBeGreaterThan(3)
  })
})

describe('genai errors and billing', () => {
  it('raises ApiError with the status for a bad key and a bad request', async () => {
    const denied = await client('sk-wrong')
      .models.generateContent({ model: fixture.model, contents: 'x' })
      .catch((e) => e)
    expect(denied).toBeInstanceOf(ApiError)
    expect(denied.status).toBe(401)
    const invalid = await ai.models.generateContent({ model: fixture.model, contents: 'x', config: { topP: 3 } }).catch((e) => e)
    expect(invalid).toBeInstanceOf(ApiError)
    expect(invalid.status).toBe(400)
  })

  it('moved the balance by exactly the logged quota', async () => {
    // 2 channels × (generate + stream + 2 function-calling calls) = 8 billed requests.
    await expectBalanceMatchesLogs(fixture.user, startQuota, 8)
  })
})
