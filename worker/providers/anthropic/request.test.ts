/** OpenAI chat request → Anthropic Messages request, and the HTTP request the adapter builds. */
import { describe, expect, it } from 'vitest'
import type { ChatRequest } from '../chat-types'
import { channel, chatCall } from '../../test/stream-harness'
import { ANTHROPIC_VERSION, anthropicAdapter } from './adapter'
import { CLAUDE_DEFAULT_MAX_TOKENS, toAnthropicRequest } from './request'

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  },
}
const convert = (req: Partial<ChatRequest>, stream = false) =>
  toAnthropicRequest({ model: 'claude', messages: [{ role: 'user', content: 'hi' }], ...req } as ChatRequest, 'claude-sonnet-4-5', stream)

describe('toAnthropicRequest: messages', () => {
  it('moves system and developer messages into system, in order', () => {
    const out = convert({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hello' },
      ],
    })
    expect(out.system).toBe('You are terse.\n\nAnswer in French.')
    expect(out.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }])
  })

  it('converts text and images (data URL → base64 source, http URL → url source)', () => {
    const out = convert({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'high' } },
            { type: 'image_url', image_url: { url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg' } },
            { type: 'image_url', image_url: 'https://example.com/cat.webp' },
          ],
        },
      ],
    })
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://upload.wikimedia.org/wikipedia/commons/a/a7/Camponotus_flavomarginatus_ant.jpg' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.webp' } },
        ],
      },
    ])
  })

  it('turns assistant tool_calls into tool_use blocks and tool messages into one user turn of tool_results', () => {
    const out = convert({
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":18}' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '{"temp":24}' }] },
        { role: 'user', content: 'Thanks, and tomorrow?' },
      ],
    })
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":18}' },
          { type: 'tool_result', tool_use_id: 'call_2', content: '{"temp":24}' },
          { type: 'text', text: 'Thanks, and tomorrow?' },
        ],
      },
    ])
  })

  it('keeps an assistant turn with only tool calls (null content) and merges consecutive same-role messages', () => {
    const out = convert({
      messages: [
        { role: 'user', content: 'a' },
        { role: 'user', content: 'b' },
        { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '[1,2]' } }] },
        { role: 'assistant', content: 'more' },
        { role: 'assistant', content: '' },
      ],
    })
    expect(out.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't', name: 'f', input: { value: [1, 2] } },
          { type: 'text', text: 'more' },
        ],
      },
    ])
  })
})

describe('toAnthropicRequest: parameters', () => {
  it('defaults max_tokens and sets stream only when streaming', () => {
    expect(convert({})).toEqual({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], max_tokens: CLAUDE_DEFAULT_MAX_TOKENS })
    expect(CLAUDE_DEFAULT_MAX_TOKENS).toBe(8192)
    expect(convert({}, true).stream).toBe(true)
  })

  it('honors max_tokens and max_completion_tokens', () => {
    expect(convert({ max_tokens: 300 }).max_tokens).toBe(300)
    expect(convert({ max_completion_tokens: 1200 }).max_tokens).toBe(1200)
  })

  it('clamps temperature to 0..1 and passes top_p/top_k, stop, user', () => {
    expect(convert({ temperature: 1.7 }).temperature).toBe(1)
    expect(convert({ temperature: -0.5 }).temperature).toBe(0)
    expect(convert({ temperature: 0.3 }).temperature).toBe(0.3)
    const out = convert({ top_p: 0.9, top_k: 40, stop: 'END', user: 'user-42' })
    expect(out).toMatchObject({ top_p: 0.9, top_k: 40, stop_sequences: ['END'], metadata: { user_id: 'user-42' } })
    expect(convert({ stop: ['\n\nHuman:', '###'] }).stop_sequences).toEqual(['\n\nHuman:', '###'])
  })

  it('treats explicit nulls as absent (OpenAI parameters are nullable)', () => {
    const out = convert({ temperature: null, top_p: null, top_k: null, stop: null, max_tokens: null, user: null, tools: null, tool_choice: null })
    expect(out).toEqual({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], max_tokens: 8192 })
  })

  it('maps tools to {name, description, input_schema}', () => {
    const out = convert({ tools: [weatherTool, { type: 'function', function: { name: 'now' } }] })
    expect(out.tools).toEqual([
      { name: 'get_weather', description: 'Current weather for a city', input_schema: weatherTool.function.parameters },
      { name: 'now', description: '', input_schema: { type: 'object', properties: {} } },
    ])
    expect(out).not.toHaveProperty('tool_choice')
  })

  it.each([
    ['auto', undefined],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [
      { type: 'function', function: { name: 'get_weather' } },
      { type: 'tool', name: 'get_weather' },
    ],
  ] as const)('tool_choice %j', (choice, expected) => {
    expect(convert({ tools: [weatherTool], tool_choice: choice }).tool_choice).toEqual(expected)
  })
})

describe('anthropicAdapter.buildRequest', () => {
  it('posts to /v1/messages with the key and version headers', async () => {
    const json = { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }], stream: true }
    const req = await anthropicAdapter.buildRequest(chatCall({ model: 'claude-sonnet-4-5', json, stream: true }), channel({ key: 'sk-ant-x' }))
    expect(req.url).toBe('https://api.anthropic.com/v1/messages')
    expect(req.headers.get('x-api-key')).toBe('sk-ant-x')
    expect(req.headers.get('anthropic-version')).toBe(ANTHROPIC_VERSION)
    expect(req.headers.get('authorization')).toBeNull()
    expect(await req.json()).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, max_tokens: 8192 })
  })

  it('does not double /v1 in a custom base URL', async () => {
    const req = await anthropicAdapter.buildRequest(chatCall(), channel({ baseUrl: 'https://claude-proxy.example.com/v1/' }))
    expect(req.url).toBe('https://claude-proxy.example.com/v1/messages')
  })

  it('lists models', () => {
    const req = anthropicAdapter.modelsRequest!(channel({ key: 'k' }))
    expect(req.url).toBe('https://api.anthropic.com/v1/models')
    expect(req.headers.get('x-api-key')).toBe('k')
    const body = { data: [{ type: 'model', id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' }], has_more: false }
    expect(anthropicAdapter.parseModels!(body)).toEqual(['claude-sonnet-4-5-20250929'])
  })

  it('supports chat only', () => {
    expect(anthropicAdapter.supports('chat')).toBe(true)
    expect(anthropicAdapter.supports('embeddings')).toBe(false)
  })
})

describe('toAnthropicRequest: what Anthropic refuses', () => {
  it('drops empty text blocks and empty string contents', () => {
    const out = convert({
      messages: [
        { role: 'user', content: '' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'real' },
          ],
        },
      ],
    })
    expect(out.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'real' }] }])
  })

  it('sends temperature without top_p when both are given', () => {
    expect(convert({ temperature: 0.3, top_p: 0.9 })).toMatchObject({ temperature: 0.3 })
    expect(convert({ temperature: 0.3, top_p: 0.9 })).not.toHaveProperty('top_p')
    expect(convert({ top_p: 0.9 })).toMatchObject({ top_p: 0.9 })
  })
})
