/**
 * MCP tool servers behind an OAuth client-credentials grant: a mock token endpoint (client_secret_basic,
 * form-encoded) and the SDK's own server accepting only the tokens it issued. The token is fetched
 * once and reused, refreshed once after the server answers 401, bad credentials end a call with a
 * clear tool error, and the client secret never appears in an admin answer.
 */
import { env } from 'cloudflare:workers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createToken, createUser } from '../test/factories'
import { setupRoot, type TestClient } from '../test/client'
import { CALC, gatewayClient, mockMcpServers } from '../test/mcp-mock'
import { mcpServerSnapshot } from './mcp-servers'

const TOKEN_URL = 'https://auth.test/oauth/token'
const SECRET = 'the-client-secret'

interface TokenRequest {
  authorization: string | null
  contentType: string | null
  form: Record<string, string>
}

let tokenRequests: TokenRequest[]
let valid: Set<string>
let refuseAll: boolean
let mock: ReturnType<typeof mockMcpServers>
let root: TestClient

/** The token endpoint: client "gw" with SECRET gets `tok-<n>` (an hour); anyone else invalid_client. */
async function tokenEndpoint(req: Request): Promise<Response | undefined> {
  if (req.url !== TOKEN_URL) return undefined
  const form = Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer())))
  tokenRequests.push({ authorization: req.headers.get('authorization'), contentType: req.headers.get('content-type'), form })
  if (req.headers.get('authorization') !== `Basic ${btoa(`gw:${SECRET}`)}` || form.grant_type !== 'client_credentials') {
    return Response.json({ error: 'invalid_client', error_description: 'Client authentication failed' }, { status: 401 })
  }
  const token = `tok-${tokenRequests.length}`
  valid.add(token)
  return Response.json({ access_token: token, token_type: 'Bearer', expires_in: 3600 })
}

beforeEach(async () => {
  tokenRequests = []
  valid = new Set()
  refuseAll = false
  mock = mockMcpServers({ 'https://calc.mcp.test': { ...CALC, accepts: (a) => !refuseAll && valid.has(a?.replace(/^Bearer /, '') ?? '') } }, tokenEndpoint)
  root = await setupRoot()
})
afterEach(() => mock.restore())

const OAUTH = { token_url: TOKEN_URL, client_id: 'gw', client_secret: SECRET, scope: 'tools:call' }

async function register(oauth: Record<string, unknown> = OAUTH) {
  const res = await root.post('/api/mcp/server/', { name: 'calc', url: 'https://calc.mcp.test/mcp', oauth, free: true })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body.data as { id: number }
}

async function client() {
  const user = await createUser({ quota: 1_000_000 })
  return gatewayClient((await createToken(user.id)).key)
}

const add = (c: Awaited<ReturnType<typeof client>>) => c.callTool({ name: 'calc__add', arguments: { a: 2, b: 3 } })

describe('MCP servers with OAuth client credentials', () => {
  it('fetches one token with client_secret_basic and reuses it for every request', async () => {
    await register()
    const c = await client()
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(['calc__add'])
    expect((await add(c)).content).toEqual([{ type: 'text', text: '5' }])
    expect((await add(c)).content).toEqual([{ type: 'text', text: '5' }])
    expect(tokenRequests).toEqual([
      { authorization: `Basic ${btoa(`gw:${SECRET}`)}`, contentType: 'application/x-www-form-urlencoded', form: { grant_type: 'client_credentials', scope: 'tools:call' } },
    ])
    expect(mock.calls.length).toBeGreaterThan(3)
    expect(mock.calls.every((call) => call.authorization === 'Bearer tok-1')).toBe(true)
  })

  it('refreshes the token once after the server answers 401, then retries', async () => {
    await register()
    const c = await client()
    expect((await add(c)).isError).toBeFalsy()
    valid.delete('tok-1')
    const res = await add(c)
    expect(res.content).toEqual([{ type: 'text', text: '5' }])
    expect(tokenRequests).toHaveLength(2)
    expect(mock.calls.at(-1)?.authorization).toBe('Bearer tok-2')
    // A server that refuses every token is retried only once per request.
    refuseAll = true
    const refused = await add(c)
    expect(refused.isError).toBe(true)
    expect(tokenRequests).toHaveLength(3)
  })

  it('ends a call with a clear tool error when the credentials are refused, never showing the secret', async () => {
    const { id } = await register()
    const c = await client()
    await c.listTools()
    // The secret changes behind the cached tool list: the next call needs a new token, which is refused.
    await env.DB.prepare('UPDATE mcp_servers SET oauth = ? WHERE id = ?')
      .bind(JSON.stringify({ ...OAUTH, client_secret: 'wrong' }), id)
      .run()
    await mcpServerSnapshot.invalidate(env)
    const res = await add(c)
    expect(res.isError).toBe(true)
    const text = (res.content as { text: string }[])[0]!.text
    expect(text).toContain('OAuth token request to auth.test was refused (HTTP 401, invalid_client: Client authentication failed)')
    expect(text).not.toContain('wrong')

    // The admin test button says the same.
    const test = await root.post(`/api/mcp/server/${id}/test`)
    expect(test.status).toBe(502)
    expect(test.body.message).toContain('invalid_client')
  })

  it('keeps the secret write-only: never in GET answers, kept when left out, typed again for a new token URL', async () => {
    const { id } = await register()
    const one = await root.get(`/api/mcp/server/${id}`)
    expect(one.body.data.oauth).toEqual({ token_url: TOKEN_URL, client_id: 'gw', scope: 'tools:call', has_secret: true })
    const list = await root.get('/api/mcp/server/')
    for (const body of [one.body, list.body]) expect(JSON.stringify(body)).not.toContain(SECRET)

    // Left out: the stored secret stays and still works.
    const kept = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc.mcp.test/mcp', free: true, oauth: { token_url: TOKEN_URL, client_id: 'gw' } })
    expect(kept.status, JSON.stringify(kept.body)).toBe(200)
    expect(JSON.stringify(kept.body)).not.toContain(SECRET)
    expect(kept.body.data.oauth).toMatchObject({ scope: '', has_secret: true })
    expect((await add(await client())).content).toEqual([{ type: 'text', text: '5' }])

    // A new token URL (or server URL) does not take the stored secret along; link-local token URLs are refused.
    const moved = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc.mcp.test/mcp', oauth: { token_url: 'https://other.test/token', client_id: 'gw' } })
    expect(moved.status).toBe(400)
    expect(moved.body.message).toContain('oauth.client_secret')
    const movedServer = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc2.mcp.test/mcp' })
    expect(movedServer.status).toBe(400)
    const metadata = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc.mcp.test/mcp', oauth: { ...OAUTH, token_url: 'http://169.254.169.254/token' } })
    expect(metadata.status).toBe(400)
    expect(metadata.body.message).toContain('oauth.token_url')

    // null removes the grant.
    const dropped = await root.put(`/api/mcp/server/${id}`, { name: 'calc', url: 'https://calc.mcp.test/mcp', oauth: null })
    expect(dropped.body.data.oauth).toBeNull()
    const audit = await env.DB.prepare(`SELECT content, metadata FROM logs WHERE content LIKE 'mcp_server.%'`).all<Record<string, string>>()
    expect(audit.results.length).toBeGreaterThan(0)
    expect(JSON.stringify(audit.results)).not.toContain(SECRET)
  })
})
