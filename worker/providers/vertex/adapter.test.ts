/** Vertex AI: the service-account JWT assertion, the cached token exchange, Gemini and Claude URLs/bodies, answers and streams. */
import { decodeProtectedHeader, exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { channel, chatCall, jsonResponse, runStream, stripVolatile } from '../../test/stream-harness'
import { channelType } from '../registry'
import { createVertexAdapter, vertexAdapter, vertexLocation } from './adapter'
import { CLOUD_PLATFORM_SCOPE, serviceAccountAssertion, serviceAccountProblem, tokenSource, type ServiceAccount } from './token'
import { keyProblemMessage } from '../../../shared/contract/key-format'
import geminiAnswer from '../gemini/__fixtures__/response.json?raw'
import geminiStream from '../gemini/__fixtures__/stream-text.sse?raw'
import claudeAnswer from '../anthropic/__fixtures__/message-text.json?raw'
import claudeStream from '../anthropic/__fixtures__/message-tools.sse?raw'

let sa: ServiceAccount
let publicPem: string

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  publicPem = await exportSPKI(publicKey)
  sa = {
    client_email: 'gateway@demo-project.iam.gserviceaccount.com',
    private_key: await exportPKCS8(privateKey),
    private_key_id: 'kid-123',
    project_id: 'demo-project',
    token_uri: 'https://oauth2.googleapis.com/token',
  }
})

/** A token endpoint that checks the assertion like Google does and counts its calls. */
function tokenEndpoint() {
  const calls: Request[] = []
  const fetcher = async (req: Request) => {
    calls.push(req.clone())
    const form = new URLSearchParams(await req.text())
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return jsonResponse('{"error":"unsupported_grant_type"}', 400)
    await jwtVerify(form.get('assertion')!, await importSPKI(publicPem, 'RS256'), { issuer: sa.client_email, audience: sa.token_uri })
    return jsonResponse(JSON.stringify({ access_token: `ya29.token-${calls.length}`, expires_in: 3599, token_type: 'Bearer' }))
  }
  return { calls, fetcher }
}

describe('service-account assertion', () => {
  it('is RS256 with the key id and the cloud-platform scope, valid one hour', async () => {
    const jwt = await serviceAccountAssertion(sa, 1_700_000_000)
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-123' })
    const { payload } = await jwtVerify(jwt, await importSPKI(publicPem, 'RS256'), { currentDate: new Date(1_700_000_100_000) })
    expect(payload).toEqual({
      iss: sa.client_email,
      aud: 'https://oauth2.googleapis.com/token',
      scope: CLOUD_PLATFORM_SCOPE,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    })
  })

  it('checks the key is a service-account JSON', () => {
    expect(serviceAccountProblem(JSON.stringify(sa))).toBeUndefined()
    expect(serviceAccountProblem('AIza...')).toBe('Vertex AI key is the service-account JSON file')
    expect(serviceAccountProblem('{"client_email":"x"}')).toBe('The service-account JSON needs client_email and private_key')
  })
})

describe('token exchange', () => {
  it('posts the JWT-bearer grant and caches the token until five minutes before expiry', async () => {
    const { calls, fetcher } = tokenEndpoint()
    // Real time: the endpoint checks the assertion's exp against its own clock.
    let now = Math.floor(Date.now() / 1000)
    const token = tokenSource(fetcher, () => now)
    expect(await token(sa)).toBe('ya29.token-1')
    expect(calls[0]!.url).toBe('https://oauth2.googleapis.com/token')
    expect(calls[0]!.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    now += 3000
    expect(await token(sa)).toBe('ya29.token-1')
    now += 400
    expect(await token(sa)).toBe('ya29.token-2')
    expect(calls).toHaveLength(2)
  })

  it('reports a refused exchange', async () => {
    const token = tokenSource(async () => jsonResponse('{"error":"invalid_grant","error_description":"Invalid JWT Signature."}', 400))
    await expect(token(sa)).rejects.toThrow('Vertex AI token request failed (400): Invalid JWT Signature.')
  })
})

describe('Vertex requests', () => {
  it('calls Gemini under publishers/google in the region host with the OAuth token', async () => {
    const adapter = createVertexAdapter(tokenEndpoint().fetcher)
    const req = await adapter.buildRequest(chatCall({ model: 'gemini-2.5-flash' }), channel({ type: 42, key: JSON.stringify(sa), other: 'europe-west4|my-proj' }))
    expect(req.url).toBe('https://europe-west4-aiplatform.googleapis.com/v1/projects/my-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:generateContent')
    expect(req.headers.get('authorization')).toBe('Bearer ya29.token-1')
    expect(await req.json()).toMatchObject({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] })
    const stream = await adapter.buildRequest(chatCall({ model: 'gemini-2.5-flash', stream: true }), channel({ key: JSON.stringify(sa), other: 'global' }))
    expect(stream.url).toBe('https://aiplatform.googleapis.com/v1/projects/demo-project/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
  })

  it('calls Claude under publishers/anthropic with the Vertex anthropic_version and no model field', async () => {
    const adapter = createVertexAdapter(tokenEndpoint().fetcher)
    const req = await adapter.buildRequest(
      chatCall({ model: 'claude-sonnet-4@20250514', stream: true, json: { model: 'x', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 } }),
      channel({ key: JSON.stringify(sa), other: 'us-east5|p1', baseUrl: 'http://127.0.0.1:3999' })
    )
    expect(req.url).toBe('http://127.0.0.1:3999/v1/projects/p1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict')
    expect(await req.json()).toEqual({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      max_tokens: 100,
      stream: true,
    })
  })

  it('needs a project id from other or the account', () => {
    expect(vertexLocation('', 'sa-proj')).toEqual({ region: 'us-central1', project: 'sa-proj' })
    expect(() => vertexLocation('us-central1', undefined)).toThrow(/project id/)
  })
})

describe('Vertex answers and streams', () => {
  it('parses Gemini and Claude answers by model family', async () => {
    const g = await vertexAdapter.parseResponse(chatCall({ model: 'gemini-2.5-pro' }), jsonResponse(geminiAnswer))
    const c = await vertexAdapter.parseResponse(chatCall({ model: 'claude-3-5-haiku@20241022' }), jsonResponse(claudeAnswer))
    expect(g.kind === 'json' && (g.body as any).choices[0].message.tool_calls[0].function.name).toBe('get_weather')
    expect(g.kind === 'json' && g.usage!.promptTokens).toBeGreaterThan(0)
    expect(c.kind === 'json' && (c.body as any).object).toBe('chat.completion')
    expect(c.kind === 'json' && c.usage!.completionTokens).toBeGreaterThan(0)
  })

  it('streams Gemini SSE and Claude SSE through their converters', () => {
    const g = vertexAdapter.createStream(chatCall({ model: 'gemini-2.5-flash', stream: true }))
    expect(stripVolatile(runStream(g, geminiStream)).length).toBeGreaterThan(0)
    expect(g.usage()).toBeDefined()
    const c = vertexAdapter.createStream(chatCall({ model: 'claude-sonnet-4@20250514', stream: true }))
    const chunks = stripVolatile(runStream(c, claudeStream))
    expect(chunks.some((x: any) => x.choices[0]?.delta?.tool_calls)).toBe(true)
    expect(c.usage()).toBeDefined()
  })

  it('is type 42 with a service-account key check', () => {
    expect(channelType(42)?.adapter).toBe(vertexAdapter)
    expect(keyProblemMessage(42, 'nope')).toBe('Vertex AI key is the service-account JSON file')
  })
})
