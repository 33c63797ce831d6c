/** Zhipu GLM: the JWT (checked with an independent HMAC and by jose), its cache, the v4 URLs and the bearer fallback. */
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse } from '../../test/stream-harness'
import { channelType } from '../registry'
import { zhipuAdapter, zhipuKeyProblem } from './adapter'
import { cachedZhipuJwt, zhipuJwt } from './jwt'

const KEY = 'a1b2c3d4e5f6.s3cr3tValue'
const NOW = 1_700_000_000_000

const b64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

describe('Zhipu JWT', () => {
  it('carries the one-hub header and millisecond claims, signed HS256 with the secret', async () => {
    const token = await zhipuJwt(KEY, NOW)
    const [header, payload, signature] = token.split('.')
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT', sign_type: 'SIGN' })
    expect(JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')))).toEqual({ api_key: 'a1b2c3d4e5f6', exp: NOW + 86_400_000, timestamp: NOW })
    // Independent HMAC-SHA256 over "header.payload".
    const k = await crypto.subtle.importKey('raw', new TextEncoder().encode('s3cr3tValue'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    expect(signature).toBe(b64url(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(`${header}.${payload}`))))
    // exp is in ms (far future for a seconds-based verifier), so check the signature only.
    await expect(jwtVerify(token, new TextEncoder().encode('s3cr3tValue'), { currentDate: new Date(NOW) })).resolves.toBeTruthy()
  })

  it('is cached per key until five minutes before expiry', async () => {
    const key = 'cacheid.cachesecret'
    const first = await cachedZhipuJwt(key, NOW)
    expect(await cachedZhipuJwt(key, NOW + 3600_000)).toBe(first)
    expect(await cachedZhipuJwt(key, NOW + 86_400_000 - 60_000)).not.toBe(first)
  })
})

describe('Zhipu adapter', () => {
  it('sends the JWT raw (no Bearer) to the v4 chat endpoint', async () => {
    const req = await zhipuAdapter.buildRequest(chatCall({ model: 'glm-4-plus' }), channel({ type: 16, key: KEY }))
    expect(req.url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions')
    const auth = req.headers.get('authorization')!
    expect(auth.split('.')).toHaveLength(3)
    expect(auth.startsWith('Bearer')).toBe(false)
    expect(decodeProtectedHeader(auth).sign_type).toBe('SIGN')
  })

  it('honours a base URL and maps embeddings and images under v4', async () => {
    const embed = await zhipuAdapter.buildRequest(
      chatCall({ json: { model: 'embedding-3', input: 'a' } }, 'embeddings'),
      channel({ key: KEY, baseUrl: 'http://127.0.0.1:3999/zhipu' })
    )
    expect(embed.url).toBe('http://127.0.0.1:3999/zhipu/v4/embeddings')
    const image = await zhipuAdapter.buildRequest(chatCall({ json: { model: 'cogview-3', prompt: 'cat' } }, 'images.generations'), channel({ key: KEY }))
    expect(image.url).toBe('https://open.bigmodel.cn/api/paas/v4/images/generations')
    expect(zhipuAdapter.supports('audio.speech')).toBe(false)
  })

  it('falls back to a bearer token for other key forms, and lists models with the key', async () => {
    const req = await zhipuAdapter.buildRequest(chatCall(), channel({ key: 'plain-token' }))
    expect(req.headers.get('authorization')).toBe('Bearer plain-token')
    expect(zhipuAdapter.modelsRequest!(channel({ key: KEY })).url).toBe('https://open.bigmodel.cn/api/paas/v4/models')
  })

  it('parses answers with cached tokens and errors', async () => {
    const parsed = await zhipuAdapter.parseResponse(
      chatCall(),
      jsonResponse(
        JSON.stringify({
          id: 'z1',
          model: 'glm-4-plus',
          choices: [{ index: 0, message: { role: 'assistant', content: '你好' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 30, completion_tokens: 4, total_tokens: 34, prompt_tokens_details: { cached_tokens: 16 } },
        })
      )
    )
    expect(parsed.kind === 'json' && parsed.usage).toEqual({ promptTokens: 30, completionTokens: 4, extra: { cached_tokens: 16 } })
    expect(zhipuAdapter.parseError(401, '{"error":{"code":"1000","message":"身份验证失败。"}}')).toEqual({ message: '身份验证失败。', code: '1000' })
  })

  it('is type 16 with an id.secret key check', () => {
    expect(channelType(16)?.adapter).toBe(zhipuAdapter)
    expect(zhipuKeyProblem(KEY)).toBeUndefined()
    expect(zhipuKeyProblem('nodot')).toMatch(/id\.secret/)
  })
})
