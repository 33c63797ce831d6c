/**
 * The signed suppliers end to end: channels of each type point at the mock's personalities, which
 * verify the real auth scheme (SigV4, TC3, Zhipu JWT, Vertex OAuth, Baidu access tokens, bearer keys) before answering
 * natively; the official `openai` SDK must get the same OpenAI-shaped answers (plain and streamed)
 * through the gateway, and a wrong credential must fail.
 */
import OpenAI from 'openai'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { relayFixture } from './support/api'

let fixture: Awaited<ReturnType<typeof relayFixture>>
let client: OpenAI

interface Supplier {
  label: string
  type: number
  model: string
  key: string | (() => Promise<string>)
  path: string
  other?: string
}

const mock = () => inject('mockUrl')
const serviceAccount = async () => JSON.stringify(await (await fetch(`${mock()}/vertex/service-account.json`)).json())

const SUPPLIERS: Supplier[] = [
  {
    label: 'Bedrock SigV4 + session token',
    type: 32,
    model: 'anthropic.claude-3-5-haiku-20241022-v1:0',
    key: 'us-east-1|AKIDMOCK|mock-bedrock-secret|mock-session',
    path: '/bedrock',
  },
  { label: 'Bedrock API key', type: 32, model: 'meta.llama3-1-8b-instruct-v1:0', key: 'us-east-1|ABSK-mock', path: '/bedrock' },
  { label: 'Hunyuan TC3', type: 40, model: 'hunyuan-lite', key: 'AKIDmock|SKmock', path: '/hunyuan' },
  { label: 'Zhipu JWT', type: 16, model: 'glm-4-flash', key: 'mockid.mocksecret', path: '/zhipu' },
  { label: 'Baidu Qianfan v2', type: 15, model: 'ernie-speed-128k', key: 'bce-v3/ALTAK-mock/0123456789abcdef', path: '/baidu' },
  { label: 'Baidu legacy APIKey|SecretKey', type: 15, model: 'ERNIE-3.5-8K', key: 'ak-mock|sk-mock', path: '/baidu' },
  { label: 'Cohere', type: 36, model: 'command-r-08-2024', key: 'co-mock', path: '/cohere' },
  { label: 'Vertex Gemini', type: 42, model: 'gemini-1.5-flash-002', key: serviceAccount, path: '/vertex', other: 'us-central1|mock-project' },
  { label: 'Vertex Claude', type: 42, model: 'claude-3-5-haiku@20241022', key: serviceAccount, path: '/vertex', other: 'us-east5|mock-project' },
]

/** Same suppliers with a credential the mock must refuse. */
const IMPOSTORS: Supplier[] = [
  { label: 'Bedrock wrong secret', type: 32, model: 'amazon.nova-micro-v1:0', key: 'us-east-1|AKIDMOCK|not-the-secret', path: '/bedrock' },
  { label: 'Hunyuan wrong key', type: 40, model: 'hunyuan-standard', key: 'AKIDmock|wrong', path: '/hunyuan' },
  { label: 'Zhipu wrong secret', type: 16, model: 'glm-4-air', key: 'mockid.wrongsecret', path: '/zhipu' },
  { label: 'Baidu wrong secret', type: 15, model: 'ERNIE-Lite-8K', key: 'ak-mock|not-the-secret', path: '/baidu' },
  { label: 'Cohere wrong key', type: 36, model: 'command-r-plus-08-2024', key: 'co-wrong', path: '/cohere' },
]

async function addChannel(s: Supplier, extraModels: string[] = []) {
  for (const model of [s.model, ...extraModels]) {
    await fixture.root.ok('POST', '/api/prices/single', { model, type: 'tokens', channel_type: s.type, input: 0.1, output: 0.2 })
  }
  await fixture.root.ok('POST', '/api/channel/', {
    type: s.type,
    name: `e2e ${s.label}`,
    key: typeof s.key === 'string' ? s.key : await s.key(),
    base_url: mock() + s.path,
    other: s.other ?? '',
    models: [s.model, ...extraModels],
    group: ['default'],
  })
}

beforeAll(async () => {
  fixture = await relayFixture({ username: 'suppliers' })
  for (const s of SUPPLIERS) await addChannel(s, s.type === 36 ? ['embed-v4.0', 'rerank-v3.5'] : [])
  for (const s of IMPOSTORS) await addChannel(s)
  client = new OpenAI({ apiKey: fixture.token.key, baseURL: `${inject('gatewayUrl')}/v1`, maxRetries: 0 })
})

describe.each(SUPPLIERS)('$label through the gateway', (s) => {
  it('answers a chat in OpenAI shape with usage', async () => {
    const res = await client.chat.completions.create({ model: s.model, messages: [{ role: 'user', content: 'Hello there gateway' }] })
    expect(res.object).toBe('chat.completion')
    expect(res.choices[0]!.message.content).toContain('mock upstream')
    expect(res.choices[0]!.finish_reason).toBe('stop')
    expect(res.usage!.prompt_tokens).toBeGreaterThan(0)
    expect(res.usage!.completion_tokens).toBeGreaterThan(0)
  })

  it('streams the same answer with usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: s.model,
      messages: [{ role: 'user', content: 'Stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    })
    let text = ''
    let usage: OpenAI.CompletionUsage | undefined
    let finish: string | null | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      if (chunk.usage) usage = chunk.usage
    }
    expect(text).toContain('mock upstream')
    expect(finish).toBe('stop')
    expect(usage!.completion_tokens).toBeGreaterThan(0)
  })
})

describe('tool calls through translating suppliers', () => {
  const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]

  it.each(['anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-5-haiku@20241022'])('%s returns a tool call, plain and streamed', async (model) => {
    const res = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
    const call = res.choices[0]!.message.tool_calls![0]!
    expect(call.type === 'function' && [call.function.name, JSON.parse(call.function.arguments)]).toEqual(['get_weather', { city: 'Paris' }])
    const stream = await client.chat.completions.create({ model, stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
    let args = ''
    for await (const chunk of stream) args += chunk.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments ?? ''
    expect(JSON.parse(args)).toEqual({ city: 'Paris' })
  })
})

describe('Cohere embeddings and rerank', () => {
  it('embeds through embed v2', async () => {
    const res = await client.embeddings.create({ model: 'embed-v4.0', input: ['hello world', 'bye'] })
    // The SDK asks for base64 (float32) by default, so the values come back at float32 precision.
    const f32 = [...new Float32Array([0.1, 0.2, 0.3, 0.4])]
    expect(res.data.map((d) => d.embedding)).toEqual([f32, f32])
    expect(res.usage.prompt_tokens).toBeGreaterThan(0)
  })

  it('reranks through rerank v2', async () => {
    const res = await fetch(`${inject('gatewayUrl')}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'], return_documents: true }),
    })
    expect(res.status).toBe(200)
    expect((await res.json()).results).toEqual([
      { index: 0, relevance_score: 1, document: { text: 'a' } },
      { index: 1, relevance_score: 0.5, document: { text: 'b' } },
    ])
  })
})

describe.each(IMPOSTORS)('$label', (s) => {
  it('is refused by the supplier and reported as an error', async () => {
    await expect(client.chat.completions.create({ model: s.model, messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(OpenAI.APIError)
  })
})
