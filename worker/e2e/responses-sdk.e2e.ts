/**
 * The official `openai` SDK's Responses API against the running gateway and the mock upstream on
 * an OpenAI-type channel (converted through chat): create, stream, a function tool round trip,
 * retrieve/delete and previous_response_id. The balance moves by exactly the logged quota.
 */
import OpenAI from 'openai'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'
import { expectBalanceMatchesLogs } from './support/ledger'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI
let startQuota = 0

beforeAll(async () => {
  fixture = await relayFixture({ username: `resp${Date.now().toString(36)}` })
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
  startQuota = (await fixture.user.ok<{ quota: number }>('GET', '/api/user/self')).quota
})

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
}

describe('official openai SDK: Responses API', () => {
  it('creates a response, retrieves, continues and deletes it', async () => {
    const res = await client.responses.create({ model: fixture.model, instructions: 'Be brief.', input: 'Hello there gateway' })
    expect(res.status).toBe('completed')
    expect(res.output_text).toContain('mock upstream')
    expect(res.usage!.total_tokens).toBeGreaterThan(0)
    const got = await client.responses.retrieve(res.id)
    expect(got.id).toBe(res.id)
    expect(got.output_text).toBe(res.output_text)
    const next = await client.responses.create({ model: fixture.model, input: 'And again?', previous_response_id: res.id })
    expect(next.previous_response_id).toBe(res.id)
    await client.responses.delete(res.id)
    const gone = await client.responses.retrieve(res.id).catch((e) => e)
    expect(gone).toBeInstanceOf(OpenAI.NotFoundError)
  })

  it('streams events and the final response', async () => {
    const stream = client.responses.stream({ model: fixture.model, input: 'Stream please' })
    const deltas: string[] = []
    const types: string[] = []
    stream.on('response.output_text.delta', (e) => deltas.push(e.delta))
    stream.on('event', (e) => types.push(e.type))
    const final = await stream.finalResponse()
    expect(deltas.length).toBeGreaterThan(3)
    expect(final.output_text).toBe(deltas.join(''))
    expect(types[0]).toBe('response.created')
    expect(types.at(-1)).toBe('response.completed')
    expect(final.usage!.output_tokens).toBeGreaterThan(0)

    const raw = await client.responses.create({ model: fixture.model, input: 'Stream raw', stream: true })
    let completed: OpenAI.Responses.Response | undefined
    for await (const event of raw) if (event.type === 'response.completed') completed = event.response
    expect(completed!.output_text ?? completed!.output.length).toBeTruthy()
  })

  it('round-trips a function call', async () => {
    const first = await client.responses.create({ model: fixture.model, input: 'Weather in Paris?', tools: [weather] })
    const call = first.output.find((o) => o.type === 'function_call')
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' })
    expect(JSON.parse((call as OpenAI.Responses.ResponseFunctionToolCall).arguments)).toEqual({ city: 'Paris' })
    const second = await client.responses.create({
      model: fixture.model,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: (call as OpenAI.Responses.ResponseFunctionToolCall).call_id, output: '18°C and sunny' }],
    })
    expect(second.output_text).toContain('mock upstream')
  })

  it('raises the SDK error classes', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
    await expect(wrong.responses.create({ model: fixture.model, input: 'x' })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
    await expect(client.responses.create({ model: fixture.model, input: 'x', temperature: 5 })).rejects.toBeInstanceOf(OpenAI.BadRequestError)
  })

  it('moved the balance by exactly the logged quota', async () => {
    await expectBalanceMatchesLogs(fixture.user, startQuota, 6)
  })
})
