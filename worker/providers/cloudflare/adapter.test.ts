/** Workers AI: account-scoped OpenAI-compatible URLs, the token, a proxy base URL, model search and the key check. */
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse } from '../../test/stream-harness'
import { cloudflareAdapter, cloudflareKeyProblem } from './adapter'

const ACCOUNT = '0123456789abcdef0123456789abcdef'

describe('Cloudflare Workers AI', () => {
  it('calls the account-scoped chat and embeddings endpoints with the token', async () => {
    const chat = await cloudflareAdapter.buildRequest(chatCall({ model: '@cf/meta/llama-3.1-8b-instruct' }), channel({ type: 35, key: `${ACCOUNT}|cf-token` }))
    expect(chat.url).toBe(`https://api.cloudflare.com/client/v4/accounts/${ACCOUNT}/ai/v1/chat/completions`)
    expect(chat.headers.get('authorization')).toBe('Bearer cf-token')
    const embed = await cloudflareAdapter.buildRequest(
      chatCall({ json: { model: '@cf/baai/bge-m3', input: 'x' } }, 'embeddings'),
      channel({ key: `${ACCOUNT}|t`, baseUrl: 'https://proxy.example.com/cf' })
    )
    expect(embed.url).toBe(`https://proxy.example.com/cf/accounts/${ACCOUNT}/ai/v1/embeddings`)
    expect(cloudflareAdapter.supports('images.generations')).toBe(false)
  })

  it('lists text-generation models', () => {
    const req = cloudflareAdapter.modelsRequest!(channel({ key: `${ACCOUNT}|t` }))
    expect(req.url).toBe(`https://api.cloudflare.com/client/v4/accounts/${ACCOUNT}/ai/models/search?per_page=1000&task=Text%20Generation`)
    expect(cloudflareAdapter.parseModels!({ success: true, result: [{ name: '@cf/meta/llama-3.1-8b-instruct' }, { name: '@cf/qwen/qwq-32b' }] })).toEqual([
      '@cf/meta/llama-3.1-8b-instruct',
      '@cf/qwen/qwq-32b',
    ])
  })

  it('parses answers like OpenAI and reads Cloudflare errors', async () => {
    const parsed = await cloudflareAdapter.parseResponse(
      chatCall(),
      jsonResponse(
        '{"id":"id-1","object":"chat.completion","model":"@cf/meta/llama-3.1-8b-instruct","choices":[{"index":0,"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":14}}'
      )
    )
    expect(parsed.kind === 'json' && parsed.usage).toEqual({ promptTokens: 12, completionTokens: 2 })
    expect(cloudflareAdapter.parseError(401, '{"errors":[{"message":"Authentication error","code":10000}],"success":false}').message).toContain('Authentication error')
  })

  it('checks the key', () => {
    expect(cloudflareKeyProblem(`${ACCOUNT}|token`)).toBeUndefined()
    expect(cloudflareKeyProblem('token')).toBe('Workers AI key is ACCOUNT_ID|API_TOKEN')
    expect(cloudflareKeyProblem('acct|token')).toBe('The account id is 32 hexadecimal characters')
  })
})
