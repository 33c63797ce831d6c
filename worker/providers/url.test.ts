/** joinUrl, errorFromBody and readCapped. */
import { describe, expect, it } from 'vitest'
import { errorFromBody, joinUrl, readCapped } from './url'

describe('joinUrl', () => {
  it.each([
    ['https://api.openai.com', '/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/', '/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1', '/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.openai.com/v1/', '/v1/chat/completions', 'https://api.openai.com/v1/chat/completions'],
    ['https://api.groq.com/openai', '/v1/models', 'https://api.groq.com/openai/v1/models'],
    ['https://openrouter.ai/api/v1', '/v1/embeddings', 'https://openrouter.ai/api/v1/embeddings'],
    ['https://relay.example.com/v1beta', '/v1/chat/completions', 'https://relay.example.com/v1beta/v1/chat/completions'],
    ['https://generativelanguage.googleapis.com/v1beta', '/v1beta/models', 'https://generativelanguage.googleapis.com/v1beta/models'],
    ['https://relay.example.com/x/v12', '/v1/messages', 'https://relay.example.com/x/v12/v1/messages'],
  ])('%s + %s', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected)
  })
})

describe('errorFromBody', () => {
  it('reads the OpenAI error object', () => {
    const body = JSON.stringify({
      error: { message: 'Rate limit reached for gpt-4o', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    })
    expect(errorFromBody(body)).toEqual({ message: 'Rate limit reached for gpt-4o', type: 'requests', code: 'rate_limit_exceeded' })
  })

  it('reads Google errors (numeric code, status as type), also wrapped in an array', () => {
    const err = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } }
    const expected = { message: 'Resource has been exhausted (e.g. check quota).', type: 'RESOURCE_EXHAUSTED', code: '429' }
    expect(errorFromBody(JSON.stringify(err))).toEqual(expected)
    expect(errorFromBody(JSON.stringify([err]))).toEqual(expected)
  })

  it('reads Anthropic errors', () => {
    const body = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'
    expect(errorFromBody(body)).toEqual({ message: 'Overloaded', type: 'overloaded_error', code: undefined })
  })

  it('reads {error:"text"}, {message}, {detail} and plain text', () => {
    expect(errorFromBody('{"error":"invalid api key"}')).toEqual({ message: 'invalid api key' })
    expect(errorFromBody('{"message":"Model not found","type":"invalid_request"}')).toEqual({ message: 'Model not found', type: 'invalid_request' })
    expect(errorFromBody('{"detail":"Not Found"}')).toEqual({ message: 'Not Found' })
    expect(errorFromBody('  502 Bad Gateway\n')).toEqual({ message: '502 Bad Gateway' })
    expect(errorFromBody('')).toEqual({ message: 'upstream error' })
  })

  it('caps a plain-text body at 500 characters', () => {
    expect(errorFromBody('x'.repeat(2000)).message).toHaveLength(500)
  })
})

describe('readCapped', () => {
  it('reads at most the limit', async () => {
    expect(await readCapped(new Response('a'.repeat(100)), 10)).toBe('a'.repeat(10))
    expect(await readCapped(new Response('short'))).toBe('short')
    expect(await readCapped(new Response(null))).toBe('')
  })
})
