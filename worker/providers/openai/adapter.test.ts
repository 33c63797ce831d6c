/** OpenAI-compatible adapter: pass-through body, URLs, usage mapping, stream capture and error shapes. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream, SPLITS, stripVolatile } from '../../test/stream-harness'
import { MalformedUpstreamError } from '../../lib/upstream-error'
import { openAIBaseAdapter, OpenAIStream, upstreamJson } from './adapter'
import completion from './__fixtures__/chat-completion.json?raw'
import completionTools from './__fixtures__/chat-completion-tools.json?raw'
import toolStream from './__fixtures__/chat-stream-tools.sse?raw'
import deepseekStream from './__fixtures__/deepseek-stream.sse?raw'

const adapter = openAIBaseAdapter({ defaultBaseUrl: 'https://api.openai.com' })
const messages = [{ role: 'user', content: 'Weather in Tokyo?' }]

describe('OpenAI request', () => {
  it('passes the body through unchanged when not streaming', async () => {
    const json = { model: 'gpt-4o', messages, temperature: 0.2, logit_bias: { '50256': -100 }, seed: 7 }
    const req = await adapter.buildRequest(chatCall({ model: 'gpt-4o', json }), channel({ key: 'sk-abc' }))
    expect(req.method).toBe('POST')
    expect(req.url).toBe('https://api.openai.com/v1/chat/completions')
    expect(req.headers.get('authorization')).toBe('Bearer sk-abc')
    expect(req.headers.get('content-type')).toBe('application/json')
    expect(await req.json()).toEqual(json)
  })

  it('injects stream_options.include_usage for streams and keeps existing options', () => {
    const plain = JSON.parse(upstreamJson(chatCall({ stream: true, json: { model: 'm', messages, stream: true } })))
    expect(plain.stream_options).toEqual({ include_usage: true })
    const kept = JSON.parse(
      upstreamJson(chatCall({ stream: true, json: { model: 'm', messages, stream: true, stream_options: { include_usage: false, continuous_usage_stats: true } } }))
    )
    expect(kept.stream_options).toEqual({ include_usage: true, continuous_usage_stats: true })
    const completions = JSON.parse(upstreamJson(chatCall({ stream: true, json: { model: 'm', prompt: 'x', stream: true } }, 'completions')))
    expect(completions.stream_options).toEqual({ include_usage: true })
  })

  it('does not add stream_options to non-streaming or non-chat calls', () => {
    expect(JSON.parse(upstreamJson(chatCall({ json: { model: 'm', messages } })))).not.toHaveProperty('stream_options')
    expect(JSON.parse(upstreamJson(chatCall({ json: { model: 'e', input: 'x' } }, 'embeddings')))).toEqual({ model: 'e', input: 'x' })
  })

  it('does not mutate the caller body', () => {
    const json = { model: 'm', messages, stream: true }
    upstreamJson(chatCall({ stream: true, json }))
    expect(json).not.toHaveProperty('stream_options')
  })

  it.each([
    ['', 'https://api.openai.com/v1/chat/completions'],
    ['https://proxy.example.com', 'https://proxy.example.com/v1/chat/completions'],
    ['https://proxy.example.com/v1', 'https://proxy.example.com/v1/chat/completions'],
    ['https://proxy.example.com/v1/', 'https://proxy.example.com/v1/chat/completions'],
  ])('base URL %j', async (baseUrl, expected) => {
    expect((await adapter.buildRequest(chatCall(), channel({ baseUrl }))).url).toBe(expected)
  })

  it('maps every operation to its path', async () => {
    const embed = await adapter.buildRequest(chatCall({ json: { model: 'e', input: 'x' } }, 'embeddings'), channel())
    expect(embed.url).toBe('https://api.openai.com/v1/embeddings')
    const form = new FormData()
    form.set('model', 'whisper-1')
    form.set('file', new File(['RIFF'], 'a.wav', { type: 'audio/wav' }))
    const audio = await adapter.buildRequest(chatCall({ json: undefined, form }, 'audio.transcriptions'), channel())
    expect(audio.url).toBe('https://api.openai.com/v1/audio/transcriptions')
    expect(audio.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
  })

  it('builds the models request and parses the list', () => {
    const req = adapter.modelsRequest!(channel({ baseUrl: 'https://api.deepseek.com/v1', key: 'k' }))
    expect(req.url).toBe('https://api.deepseek.com/v1/models')
    expect(req.headers.get('authorization')).toBe('Bearer k')
    const body = {
      object: 'list',
      data: [
        { id: 'deepseek-chat', object: 'model', owned_by: 'deepseek' },
        { id: 'deepseek-reasoner', object: 'model' },
      ],
    }
    expect(adapter.parseModels!(body)).toEqual(['deepseek-chat', 'deepseek-reasoner'])
    expect(adapter.parseModels!({})).toEqual([])
  })
})

describe('OpenAI non-stream response', () => {
  it('maps usage details to extra kinds and keeps the body', async () => {
    const parsed = await adapter.parseResponse(chatCall(), jsonResponse(completion))
    expect(parsed.kind).toBe('json')
    if (parsed.kind !== 'json') return
    expect(parsed.body).toEqual(JSON.parse(completion))
    expect(parsed.usage).toEqual({ promptTokens: 2150, completionTokens: 340, extra: { cached_tokens: 1920, reasoning_tokens: 320 } })
    expect(parsed.text).toBe('Paris is the capital of France.')
  })

  it('counts tool-call names and arguments as completion text', async () => {
    const parsed = await adapter.parseResponse(chatCall(), jsonResponse(completionTools))
    if (parsed.kind !== 'json') throw new Error('expected json')
    expect(parsed.usage).toEqual({ promptTokens: 88, completionTokens: 15 })
    expect(parsed.text).toBe('get_weather{"city":"Paris"}')
  })

  it('reads embeddings usage and legacy completions text', async () => {
    const embed = await adapter.parseResponse(
      chatCall({}, 'embeddings'),
      jsonResponse('{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1]}],"model":"text-embedding-3-small","usage":{"prompt_tokens":5,"total_tokens":5}}')
    )
    expect(embed.kind === 'json' && embed.usage).toEqual({ promptTokens: 5, completionTokens: 0 })
    const legacy = await adapter.parseResponse(chatCall({}, 'completions'), jsonResponse('{"choices":[{"text":"Hello","index":0}]}'))
    expect(legacy.kind === 'json' && legacy.text).toBe('Hello')
    expect(legacy.kind === 'json' && legacy.usage).toBeUndefined()
  })

  it('returns audio as raw and plain-text transcriptions as raw', async () => {
    const speech = await adapter.parseResponse(chatCall({}, 'audio.speech'), new Response('ID3'))
    expect(speech.kind).toBe('raw')
    const srt = await adapter.parseResponse(
      chatCall({}, 'audio.transcriptions'),
      new Response('1\n00:00:00,000 --> 00:00:01,000\nhi', { headers: { 'content-type': 'text/plain' } })
    )
    expect(srt.kind).toBe('raw')
    if (srt.kind === 'raw') expect(await srt.response.text()).toContain('-->')
  })

  it('throws MalformedUpstreamError on a broken JSON answer', async () => {
    await expect(adapter.parseResponse(chatCall(), jsonResponse('{"id":"chatcmpl-x","choi'))).rejects.toBeInstanceOf(MalformedUpstreamError)
  })
})

describe('OpenAI stream', () => {
  const upstreamChunks = toolStream
    .split('\n\n')
    .map((e) => e.replace(/^data: /, ''))
    .filter((d) => d && d !== '[DONE]')

  it.each(SPLITS)('passes content chunks through byte-identical and captures usage (split %d)', (every) => {
    const t = adapter.createStream(chatCall({ stream: true, includeUsage: true, model: 'gpt-4o' }))
    const out = runStream(t, toolStream, every)
    // Everything except the usage-only chunk and [DONE], unchanged.
    expect(out).toEqual(upstreamChunks.slice(0, -1))
    expect(out.some((p) => p.includes('[DONE]'))).toBe(false)
    expect(t.usage()).toEqual({ promptTokens: 1210, completionTokens: 37, extra: { cached_tokens: 1024 } })
    expect(t.text()).toBe('Checking the weather in 東京 (°C)…get_weather{"city": "東京", "unit": "c"}')
    expect(t.usageChunk(t.usage()!)).toBe(upstreamChunks.at(-1))
  })

  it('synthesizes a usage chunk when the relay supplies its own usage', () => {
    const t = adapter.createStream(chatCall({ stream: true, includeUsage: true, model: 'gpt-4o' }))
    runStream(t, toolStream)
    const chunk = JSON.parse(t.usageChunk({ promptTokens: 10, completionTokens: 2, extra: { reasoning_tokens: 1 } }))
    expect(chunk).toMatchObject({
      id: 'chatcmpl-BzQ8kT1vJm2Xf0aLrP9cN4sWdEe7G',
      object: 'chat.completion.chunk',
      created: 1754469120,
      model: 'gpt-4o-2024-08-06',
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, completion_tokens_details: { reasoning_tokens: 1 } },
    })
  })

  it('keeps a final chunk that carries both a choice and usage (DeepSeek style)', () => {
    const t = new OpenAIStream(chatCall({ stream: true, model: 'deepseek-reasoner' }))
    const out = runStream(t, deepseekStream, 7)
    expect(out).toHaveLength(4)
    expect(JSON.parse(out[3]!).choices[0].finish_reason).toBe('stop')
    expect(t.usage()).toEqual({ promptTokens: 12, completionTokens: 9, extra: { reasoning_tokens: 6 } })
    expect(t.text()).toBe('Two plus two.4')
    // No usage-only chunk upstream: the trailer is synthesized with the stream's id and model.
    expect(stripVolatile([t.usageChunk(t.usage()!)])[0]).toEqual({
      object: 'chat.completion.chunk',
      model: 'deepseek-reasoner',
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21, completion_tokens_details: { reasoning_tokens: 6 } },
    })
  })

  it('reports no usage when the upstream sent none, and text for counting', () => {
    const t = new OpenAIStream(chatCall({ stream: true }))
    const raw = 'data: {"id":"x","object":"text_completion","created":1,"model":"m","choices":[{"text":"Once","index":0}]}\n\ndata: [DONE]\n\n'
    expect(runStream(t, raw)).toHaveLength(1)
    expect(t.usage()).toBeUndefined()
    expect(t.text()).toBe('Once')
    expect(JSON.parse(t.usageChunk({ promptTokens: 1, completionTokens: 1 })).object).toBe('chat.completion.chunk')
    const legacy = new OpenAIStream(chatCall({ stream: true }, 'completions'))
    expect(JSON.parse(legacy.usageChunk({ promptTokens: 1, completionTokens: 1 })).object).toBe('text_completion')
  })
})

describe('OpenAI parseError', () => {
  it.each([
    [
      '{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
      { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    ],
    ['{"error":"model_not_found"}', { message: 'model_not_found' }],
    ['{"message":"Insufficient Balance","type":"unknown_error"}', { message: 'Insufficient Balance', type: 'unknown_error' }],
    ['{"detail":"Authentication Fails (no such user)"}', { message: 'Authentication Fails (no such user)' }],
    ['<html><body>502 Bad Gateway</body></html>', { message: '<html><body>502 Bad Gateway</body></html>' }],
  ])('%s', (body, expected) => {
    expect(adapter.parseError(400, body)).toEqual(expected)
  })
})

describe('OpenAI stream errors', () => {
  it('reports an {"error": …} chunk sent mid-stream instead of passing it as content', () => {
    const s = new OpenAIStream(chatCall())
    expect(s.onEvent({ data: '{"id":"x","choices":[{"index":0,"delta":{"content":"Hi"}}]}' })).toHaveLength(1)
    expect(s.onEvent({ data: '{"error":{"message":"Provider returned error","code":502}}' })).toEqual([])
    expect(s.error()).toMatchObject({ message: 'Provider returned error', code: '502' })
  })
})
