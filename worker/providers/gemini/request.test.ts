/** OpenAI chat request → Gemini generateContent request, tool schemas, and the URL/headers the adapter builds. */
import { describe, expect, it } from 'vitest'
import type { ChatRequest } from '../chat-types'
import { channel, chatCall } from '../../test/stream-harness'
import { geminiAdapter } from './adapter'
import { toGeminiRequest } from './request'
import { toGeminiSchema } from './schema'

const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/'
const convert = (req: Partial<ChatRequest>) => toGeminiRequest({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }], ...req } as ChatRequest)
const tool = (name: string, parameters?: Record<string, unknown>) => ({ type: 'function' as const, function: { name, description: `${name} tool`, parameters } })

describe('toGeminiRequest: contents', () => {
  it('builds systemInstruction and user/model turns', () => {
    const out = convert({
      messages: [
        { role: 'system', content: 'You are a poet.' },
        { role: 'developer', content: 'Use haiku form.' },
        { role: 'user', content: 'Spring?' },
        { role: 'assistant', content: 'Blossoms fall.' },
        { role: 'user', content: [{ type: 'text', text: 'Again' }] },
      ],
    })
    expect(out).toEqual({
      systemInstruction: { parts: [{ text: 'You are a poet.\n\nUse haiku form.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Spring?' }] },
        { role: 'model', parts: [{ text: 'Blossoms fall.' }] },
        { role: 'user', parts: [{ text: 'Again' }] },
      ],
    })
  })

  it('sends data URLs as inlineData and http URLs as fileData with a guessed MIME type', () => {
    const out = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${JPEG}` } },
            { type: 'image_url', image_url: { url: 'https://storage.googleapis.com/cloud-samples-data/generative-ai/image/scones.png?w=640' } },
            { type: 'image_url', image_url: 'https://example.com/photo' },
          ],
        },
      ],
    })
    expect(out.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is in these?' },
          { inlineData: { mimeType: 'image/jpeg', data: JPEG } },
          { fileData: { mimeType: 'image/png', fileUri: 'https://storage.googleapis.com/cloud-samples-data/generative-ai/image/scones.png?w=640' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/photo' } },
        ],
      },
    ])
  })

  it('maps tool calls to functionCall and tool results to functionResponse named after the call', () => {
    const out = convert({
      messages: [
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{"timezone":"Europe/Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_b', content: '14:05' },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp":18}' },
        { role: 'tool', tool_call_id: 'unknown', name: 'legacy_fn', content: 'x' },
      ],
    })
    expect(out.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: { timezone: 'Europe/Paris' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_time', response: { content: '14:05' } } },
          { functionResponse: { name: 'get_weather', response: { content: '{"temp":18}' } } },
          { functionResponse: { name: 'legacy_fn', response: { content: 'x' } } },
        ],
      },
    ])
  })
})

describe('toGeminiRequest: tools and generationConfig', () => {
  it('declares functions and maps tool_choice', () => {
    const params = { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] }
    const out = convert({ tools: [tool('get_weather', params), tool('now')] })
    expect(out.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'get_weather tool', parameters: params },
          { name: 'now', description: 'now tool' },
        ],
      },
    ])
    expect(out).not.toHaveProperty('toolConfig')
    const choices = [
      ['none', { functionCallingConfig: { mode: 'NONE' } }],
      ['required', { functionCallingConfig: { mode: 'ANY' } }],
      [{ type: 'function', function: { name: 'now' } }, { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['now'] } }],
    ] as const
    for (const [choice, config] of choices) expect(convert({ tools: [tool('now')], tool_choice: choice }).toolConfig).toEqual(config)
  })

  it('maps sampling, length and stop parameters', () => {
    const out = convert({ temperature: 1.4, top_p: 0.95, top_k: 64, max_tokens: 256, n: 2, stop: ['\n\n'] })
    expect(out.generationConfig).toEqual({ temperature: 1.4, topP: 0.95, topK: 64, maxOutputTokens: 256, candidateCount: 2, stopSequences: ['\n\n'] })
    expect(convert({ max_completion_tokens: 2048, max_tokens: 100 }).generationConfig).toEqual({ maxOutputTokens: 2048 })
    expect(convert({ stop: 'END' }).generationConfig).toEqual({ stopSequences: ['END'] })
    expect(convert({})).not.toHaveProperty('generationConfig')
  })

  it('maps JSON response formats', () => {
    expect(convert({ response_format: { type: 'json_object' } }).generationConfig).toEqual({ responseMimeType: 'application/json' })
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false }
    expect(convert({ response_format: { type: 'json_schema', json_schema: { schema } } }).generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    })
    expect(convert({ response_format: { type: 'text' } })).not.toHaveProperty('generationConfig')
  })

  it('treats explicit nulls as absent', () => {
    const out = convert({ temperature: null, top_p: null, top_k: null, n: null, stop: null, max_tokens: null, response_format: null, tools: null })
    expect(out).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })
  })
})

describe('toGeminiSchema', () => {
  it('drops JSON-Schema keywords Gemini rejects and rewrites nullable/const/$ref forms', () => {
    // What the OpenAI SDK's zod helpers and MCP servers typically send.
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1, format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        unit: { anyOf: [{ type: 'string', enum: ['c', 'f'] }, { type: 'null' }], description: 'Unit' },
        days: { type: ['integer', 'null'], exclusiveMinimum: 0, maximum: 7 },
        mode: { const: 'fast' },
        tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } }, additionalProperties: false } },
        place: { $ref: '#/$defs/Place' },
      },
      required: ['city'],
      additionalProperties: false,
      $defs: { Place: { type: 'object', properties: { lat: { type: 'number' } }, additionalProperties: false } },
    }
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 1 },
        when: { type: 'string', format: 'date-time' },
        unit: { type: 'string', enum: ['c', 'f'], nullable: true, description: 'Unit' },
        days: { type: 'integer', nullable: true, maximum: 7 },
        mode: { enum: ['fast'] },
        tags: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' } } } },
        place: { type: 'object', properties: { lat: { type: 'number' } } },
      },
      required: ['city'],
    })
  })

  it('keeps anyOf with several variants and cuts recursive refs', () => {
    const schema = {
      type: 'object',
      properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] }, root: { $ref: '#' }, tree: { $ref: '#/definitions/Tree' } },
      definitions: { Tree: { type: 'object', properties: { left: { $ref: '#/definitions/Tree' }, right: { $ref: '#/definitions/Tree' } } } },
    }
    const out = toGeminiSchema(schema) as any
    expect(out.properties.v).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] })
    expect(out.properties.root).toEqual({})
    expect(out.properties.tree).toEqual({ type: 'object', properties: { left: {}, right: {} } })
  })

  it('is applied to function parameters; argument-less tools get no parameters', () => {
    const out = convert({
      tools: [
        tool('f', { type: 'object', properties: { q: { type: 'string' } }, additionalProperties: false, $schema: 'x' }),
        tool('typeless', { properties: { q: { type: 'string' } } }),
        tool('no_args', { type: 'object', properties: {}, additionalProperties: false }),
        tool('map', { type: 'object', additionalProperties: { type: 'string' } }),
      ],
    })
    expect((out.tools as any)[0].functionDeclarations).toEqual([
      { name: 'f', description: 'f tool', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'typeless', description: 'typeless tool', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'no_args', description: 'no_args tool' },
      { name: 'map', description: 'map tool' },
    ])
  })

  it('drops empty nested property maps', () => {
    expect(toGeminiSchema({ type: 'object', properties: { meta: { type: 'object', properties: {} } } })).toEqual({
      type: 'object',
      properties: { meta: { type: 'object' } },
    })
  })
})

describe('geminiAdapter.buildRequest', () => {
  const gemini = (over: Parameters<typeof channel>[0] = {}) => channel({ type: 25, key: 'AIzaSyTestKey', ...over })

  it('calls generateContent on v1beta by default with the key in x-goog-api-key', async () => {
    const req = await geminiAdapter.buildRequest(chatCall({ model: 'gemini-2.5-flash' }), gemini())
    expect(req.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent')
    expect(req.headers.get('x-goog-api-key')).toBe('AIzaSyTestKey')
    expect(req.headers.get('authorization')).toBeNull()
    expect(req.url).not.toContain('key=')
    expect(await req.json()).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })
  })

  it('streams with streamGenerateContent?alt=sse and takes the version from "other"', async () => {
    const req = await geminiAdapter.buildRequest(chatCall({ model: 'gemini-2.5-pro', stream: true }), gemini({ other: ' v1 ' }))
    expect(req.url).toBe('https://generativelanguage.googleapis.com/v1/models/gemini-2.5-pro:streamGenerateContent?alt=sse')
  })

  it('does not double a version already in the base URL', async () => {
    const req = await geminiAdapter.buildRequest(chatCall({ model: 'gemini-2.0-flash' }), gemini({ baseUrl: 'https://gemini-proxy.example.com/v1beta/' }))
    expect(req.url).toBe('https://gemini-proxy.example.com/v1beta/models/gemini-2.0-flash:generateContent')
  })

  it('lists models and strips the models/ prefix', () => {
    const req = geminiAdapter.modelsRequest!(gemini())
    expect(req.url).toBe('https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000')
    expect(req.headers.get('x-goog-api-key')).toBe('AIzaSyTestKey')
    const body = {
      models: [
        { name: 'models/gemini-2.5-flash', version: '001', displayName: 'Gemini 2.5 Flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
        { name: 'models/text-embedding-004', version: '004' },
      ],
      nextPageToken: 'Ch5tb2RlbHMvZ2VtaW5p',
    }
    expect(geminiAdapter.parseModels!(body)).toEqual(['gemini-2.5-flash', 'text-embedding-004'])
    expect(geminiAdapter.parseModels!({})).toEqual([])
  })
})
