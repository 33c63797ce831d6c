/** Bedrock Converse adapter: request (URL, signing, body), answers, the binary stream end to end, errors. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, decodeSse, jsonResponse, SPLITS, stripVolatile } from '../../test/stream-harness'
import { channelType } from '../registry'
import { bedrockAdapter } from './adapter'
import { toConverseRequest } from './request'
import { frameResponse, fromBase64 } from '../../test/bedrock-frames'
import toolsB64 from './__fixtures__/converse-stream-tools.b64?raw'
import throttledB64 from './__fixtures__/converse-stream-throttled.b64?raw'
import converseText from './__fixtures__/converse-text.json?raw'
import converseTools from './__fixtures__/converse-tools.json?raw'

const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0'
const bedrock = (overrides = {}) => channel({ type: 32, key: 'us-east-1|AKIAEXAMPLE|secretEXAMPLE', ...overrides })
const tools = [{ type: 'function' as const, function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]

describe('Bedrock request', () => {
  it('posts a SigV4-signed Converse request to the region host', async () => {
    const req = await bedrockAdapter.buildRequest(chatCall({ model: MODEL }), bedrock())
    expect(req.url).toBe('https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse')
    expect(req.method).toBe('POST')
    expect(req.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;host;x-amz-date, Signature=[0-9a-f]{64}$/
    )
    expect(await req.json()).toEqual({ messages: [{ role: 'user', content: [{ text: 'hi' }] }] })
  })

  it('streams through converse-stream and honours a base URL (proxy or mock)', async () => {
    const req = await bedrockAdapter.buildRequest(chatCall({ model: MODEL, stream: true }), bedrock({ baseUrl: 'http://127.0.0.1:3999/' }))
    expect(req.url).toBe('http://127.0.0.1:3999/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream')
  })

  it('uses a Bedrock API key as bearer', async () => {
    const req = await bedrockAdapter.buildRequest(chatCall({ model: MODEL }), bedrock({ key: 'eu-central-1|ABSKsecret' }))
    expect(req.url.startsWith('https://bedrock-runtime.eu-central-1.amazonaws.com/')).toBe(true)
    expect(req.headers.get('authorization')).toBe('Bearer ABSKsecret')
  })

  it('maps system, images, tools, tool calls and results, and inference settings', () => {
    const body = toConverseRequest(
      {
        model: MODEL,
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather here?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: 'Sunny, 21°C' },
          { role: 'user', content: 'Thanks' },
        ],
        tools,
        tool_choice: 'required',
        max_tokens: 300,
        temperature: 0.3,
        top_p: 0.9,
        top_k: 40,
        stop: 'END',
      },
      MODEL
    )
    expect(body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'Weather here?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Tokyo' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: 'Sunny, 21°C' }] } }, { text: 'Thanks' }] },
      ],
      inferenceConfig: { maxTokens: 300, temperature: 0.3, topP: 0.9, stopSequences: ['END'] },
      additionalModelRequestFields: { top_k: 40 },
      toolConfig: {
        tools: [{ toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } }],
        toolChoice: { any: {} },
      },
    })
  })

  it('drops tools for tool_choice "none" unless the history needs them, and top_k for non-Claude models', () => {
    const plain = toConverseRequest(
      { model: 'meta.llama3-1-70b-instruct-v1:0', messages: [{ role: 'user', content: 'x' }], tools, tool_choice: 'none', top_k: 5 },
      'meta.llama3-1-70b-instruct-v1:0'
    )
    expect(plain).toEqual({ messages: [{ role: 'user', content: [{ text: 'x' }] }] })
  })

  it('refuses image URLs (Converse takes bytes only)', () => {
    expect(() =>
      toConverseRequest({ model: MODEL, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] }, MODEL)
    ).toThrow(/data: URLs/)
  })
})

describe('Bedrock answers', () => {
  it('maps text and usage', async () => {
    const parsed = await bedrockAdapter.parseResponse(chatCall({ model: MODEL }), jsonResponse(converseText))
    if (parsed.kind !== 'json') throw new Error('expected json')
    expect(parsed.usage).toEqual({ promptTokens: 12, completionTokens: 8 })
    expect((parsed.body as any).choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help?' }, finish_reason: 'stop' }])
    expect((parsed.body as any).model).toBe(MODEL)
  })

  it('maps reasoning, tool calls and cache tokens', async () => {
    const parsed = await bedrockAdapter.parseResponse(chatCall({ model: MODEL }), jsonResponse(converseTools))
    if (parsed.kind !== 'json') throw new Error('expected json')
    expect(parsed.usage).toEqual({ promptTokens: 1220, completionTokens: 35, extra: { cached_read_tokens: 1000, cached_write_tokens: 200 } })
    const choice = (parsed.body as any).choices[0]
    expect(choice.finish_reason).toBe('tool_calls')
    expect(choice.message).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      reasoning_content: 'The user wants the weather.',
      tool_calls: [{ id: 'tooluse_xyz', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } }],
    })
    expect((parsed.body as any).usage).toEqual({ prompt_tokens: 1220, completion_tokens: 35, total_tokens: 1255, prompt_tokens_details: { cached_tokens: 1000 } })
  })

  it('reads AWS error bodies', () => {
    expect(bedrockAdapter.parseError(400, '{"message":"The provided model identifier is invalid."}')).toEqual({ message: 'The provided model identifier is invalid.' })
    expect(bedrockAdapter.parseError(403, '{"Message":"User is not authorized"}').message).toContain('not authorized')
  })
})

describe('Bedrock stream', () => {
  const run = async (b64: string, every: number) => {
    const call = chatCall({ model: MODEL, stream: true })
    const sse = await bedrockAdapter.toSseStream!(frameResponse(fromBase64(b64), every)).text()
    const transformer = bedrockAdapter.createStream(call)
    const out = decodeSse(sse, every).flatMap((e) => transformer.onEvent(e))
    return { transformer, chunks: stripVolatile(out) }
  }

  it.each(SPLITS)('turns text and tool-call frames into OpenAI chunks with usage (chunks of %s bytes)', async (every) => {
    const { transformer, chunks } = await run(toolsB64, every)
    const deltas = chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])
    expect(deltas).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: 'Checking 東京' }, null],
      [{ content: ' weather.' }, null],
      [{ tool_calls: [{ index: 0, id: 'tooluse_abc123', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '"Tokyo"}' } }] }, null],
      [{}, 'tool_calls'],
    ])
    expect(chunks.every((c: any) => c.model === MODEL && c.object === 'chat.completion.chunk')).toBe(true)
    expect(transformer.usage()).toEqual({ promptTokens: 812, completionTokens: 57, extra: { cached_read_tokens: 400 } })
    expect(transformer.text()).toBe('Checking 東京 weather.get_weather{"city":"Tokyo"}')
    expect(JSON.parse(transformer.usageChunk(transformer.usage()!)).usage).toEqual({
      prompt_tokens: 812,
      completion_tokens: 57,
      total_tokens: 869,
      prompt_tokens_details: { cached_tokens: 400 },
    })
    expect(transformer.error!()).toBeUndefined()
  })

  it.each(SPLITS)('reports an exception frame as a stream error (chunks of %s bytes)', async (every) => {
    const { transformer, chunks } = await run(throttledB64, every)
    expect(chunks.length).toBe(2)
    expect(transformer.error!()).toEqual({ message: 'Too many tokens, please wait before trying again.', type: 'throttlingException' })
    expect(transformer.usage()).toBeUndefined()
  })
})

describe('Bedrock registry entry', () => {
  it('is type 32 with chat only', () => {
    const type = channelType(32)!
    expect(type.adapter).toBe(bedrockAdapter)
    expect(type.adapter.supports('chat')).toBe(true)
    expect(type.adapter.supports('embeddings')).toBe(false)
  })
})
