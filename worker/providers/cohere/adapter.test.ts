/** Cohere: chat v2 / embed v2 / rerank v2 requests, answers with billed usage, streams at every split, errors. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { channelType } from '../registry'
import { cohereAdapter } from './adapter'
import { toCohereChat } from './chat'
import chatText from './__fixtures__/chat-text.json?raw'
import chatTools from './__fixtures__/chat-tools.json?raw'
import streamText from './__fixtures__/stream-text.sse?raw'
import streamTools from './__fixtures__/stream-tools.sse?raw'
import embed from './__fixtures__/embed.json?raw'
import rerank from './__fixtures__/rerank.json?raw'

const cohere = (o = {}) => channel({ type: 36, key: 'co-key', ...o })

describe('Cohere requests', () => {
  it('posts chat v2 with the bearer key, honouring a base URL', async () => {
    const req = await cohereAdapter.buildRequest(chatCall({ model: 'command-r-plus', stream: true }), cohere())
    expect(req.url).toBe('https://api.cohere.com/v2/chat')
    expect(req.headers.get('authorization')).toBe('Bearer co-key')
    expect(await req.json()).toEqual({ model: 'command-r-plus', messages: [{ role: 'user', content: 'hi' }], stream: true })
    expect((await cohereAdapter.buildRequest(chatCall(), cohere({ baseUrl: 'http://127.0.0.1:3999/cohere' }))).url).toBe('http://127.0.0.1:3999/cohere/v2/chat')
  })

  it('renames settings and keeps OpenAI-shaped tools, tool calls and image parts', () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }]
    const calls = [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }]
    const image = [
      { type: 'text', text: 'what?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
    ]
    expect(
      toCohereChat(
        {
          model: 'm',
          messages: [
            { role: 'developer', content: 'sys' },
            { role: 'user', content: image },
            { role: 'assistant', content: null, tool_calls: calls },
            { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
          ],
          tools,
          tool_choice: 'required',
          max_tokens: 50,
          temperature: 0.1,
          top_p: 0.5,
          top_k: 3,
          stop: 'x',
          response_format: { type: 'json_object' },
        },
        'command-a-vision',
        false
      )
    ).toEqual({
      model: 'command-a-vision',
      stream: false,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: image },
        { role: 'assistant', tool_calls: calls },
        { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
      ],
      tools,
      tool_choice: 'REQUIRED',
      max_tokens: 50,
      temperature: 0.1,
      p: 0.5,
      k: 3,
      stop_sequences: ['x'],
      response_format: { type: 'json_object' },
    })
  })

  it('maps embeddings to embed v2 with an input type', async () => {
    const req = await cohereAdapter.buildRequest(
      chatCall({ model: 'embed-v4.0', json: { model: 'embed-v4.0', input: ['hello', 'goodbye'], dimensions: 256 } }, 'embeddings'),
      cohere()
    )
    expect(req.url).toBe('https://api.cohere.com/v2/embed')
    expect(await req.json()).toEqual({ model: 'embed-v4.0', texts: ['hello', 'goodbye'], input_type: 'search_document', embedding_types: ['float'], output_dimension: 256 })
  })

  it('maps rerank to rerank v2 (documents as text)', async () => {
    const req = await cohereAdapter.buildRequest(
      chatCall({ model: 'rerank-v3.5', json: { model: 'rerank-v3.5', query: 'q', documents: ['a', { text: 'b' }], top_n: 2 } }, 'rerank'),
      cohere()
    )
    expect(req.url).toBe('https://api.cohere.com/v2/rerank')
    expect(await req.json()).toEqual({ model: 'rerank-v3.5', query: 'q', documents: ['a', 'b'], top_n: 2 })
  })

  it('serves chat, embeddings and rerank only', () => {
    expect(['chat', 'embeddings', 'rerank'].every((op) => cohereAdapter.supports(op as never))).toBe(true)
    expect(cohereAdapter.supports('images.generations')).toBe(false)
    expect(channelType(36)?.adapter).toBe(cohereAdapter)
  })
})

describe('Cohere answers', () => {
  it('maps text with billed units and cached tokens', async () => {
    const p = await cohereAdapter.parseResponse(chatCall({ model: 'command-r' }), jsonResponse(chatText))
    if (p.kind !== 'json') throw new Error('json')
    expect(p.usage).toEqual({ promptTokens: 5, completionTokens: 9, extra: { cached_tokens: 48 } })
    expect((p.body as any).choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: 'Bonjour ! Comment puis-je vous aider ?' }, finish_reason: 'stop' })
  })

  it('maps the tool plan and tool calls', async () => {
    const p = await cohereAdapter.parseResponse(chatCall({ model: 'command-r' }), jsonResponse(chatTools))
    if (p.kind !== 'json') throw new Error('json')
    expect(p.usage).toEqual({ promptTokens: 37, completionTokens: 28 })
    expect((p.body as any).choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        reasoning_content: 'I will look up the weather in Toronto.',
        tool_calls: [{ id: 'get_weather_1byjy32y4hvq', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Toronto"}' } }],
      },
      finish_reason: 'tool_calls',
    })
  })

  it('maps embed v2 to the OpenAI list', async () => {
    const p = await cohereAdapter.parseResponse(chatCall({ model: 'embed-v4.0' }, 'embeddings'), jsonResponse(embed))
    if (p.kind !== 'json') throw new Error('json')
    expect(p.usage).toEqual({ promptTokens: 2, completionTokens: 0 })
    expect(p.body).toEqual({
      object: 'list',
      model: 'embed-v4.0',
      data: [
        { object: 'embedding', index: 0, embedding: [0.016296387, -0.008354187, -0.04699707] },
        { object: 'embedding', index: 1, embedding: [-0.0030670166, 0.029891968, 0.011375427] },
      ],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    })
  })

  it('encodes vectors as float32 base64 when the client asks (the SDK default)', async () => {
    const request = { model: 'embed-v4.0', input: ['hello', 'goodbye'], encoding_format: 'base64' }
    const p = await cohereAdapter.parseResponse(chatCall({ model: 'embed-v4.0', json: request }, 'embeddings'), jsonResponse(embed))
    if (p.kind !== 'json') throw new Error('json')
    const first = (p.body as any).data[0].embedding as string
    const decoded = new Float32Array(Uint8Array.from(atob(first), (c) => c.charCodeAt(0)).buffer)
    expect([...decoded]).toEqual([...new Float32Array([0.016296387, -0.008354187, -0.04699707])])
  })

  it('returns rerank results, echoing documents when asked', async () => {
    const request = { model: 'rerank-v3.5', query: 'q', documents: ['a', 'b', 'c'], return_documents: true }
    const p = await cohereAdapter.parseResponse(chatCall({ model: 'rerank-v3.5', json: request }, 'rerank'), jsonResponse(rerank))
    if (p.kind !== 'json') throw new Error('json')
    expect((p.body as any).results).toEqual([
      { index: 2, relevance_score: 0.999071, document: { text: 'c' } },
      { index: 0, relevance_score: 0.32713068, document: { text: 'a' } },
    ])
    expect(p.usage).toBeUndefined()
  })

  it('reads Cohere errors', () => {
    expect(cohereAdapter.parseError(401, '{"id":"x","message":"invalid api token"}')).toEqual({ message: 'invalid api token' })
  })
})

describe('Cohere stream', () => {
  it.each(SPLITS)('converts text deltas with usage (split %s)', (every) => {
    const t = cohereAdapter.createStream(chatCall({ model: 'command-r', stream: true }))
    const chunks = stripVolatile(runStream(t, streamText, every))
    expect(chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ content: 'Hello' }, null],
      [{ content: ' there — ça va?' }, null],
      [{}, 'length'],
    ])
    expect(t.usage()).toEqual({ promptTokens: 3, completionTokens: 4, extra: { cached_tokens: 64 } })
    expect(t.text()).toBe('Hello there — ça va?')
  })

  it.each(SPLITS)('converts the tool plan and tool-call deltas (split %s)', (every) => {
    const t = cohereAdapter.createStream(chatCall({ model: 'command-r', stream: true }))
    const chunks = stripVolatile(runStream(t, streamTools, every))
    expect(chunks.map((c: any) => [c.choices[0].delta, c.choices[0].finish_reason])).toEqual([
      [{ role: 'assistant', content: '' }, null],
      [{ reasoning_content: 'I will check ' }, null],
      [{ reasoning_content: 'the weather.' }, null],
      [{ tool_calls: [{ index: 0, id: 'get_weather_nsz5zm3w56q3', type: 'function', function: { name: 'get_weather', arguments: '' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"location":' } }] }, null],
      [{ tool_calls: [{ index: 0, function: { arguments: '"Montréal"}' } }] }, null],
      [{}, 'tool_calls'],
    ])
    expect(t.usage()).toEqual({ promptTokens: 37, completionTokens: 28 })
  })

  it('reports a stream that ends in ERROR', () => {
    const t = cohereAdapter.createStream(chatCall({ stream: true }))
    runStream(t, 'event: message-end\ndata: {"type":"message-end","delta":{"finish_reason":"ERROR","error":"model overloaded"}}\n\n')
    expect(t.error!()).toEqual({ message: 'model overloaded' })
  })
})
