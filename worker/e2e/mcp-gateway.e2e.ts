/**
 * The MCP gateway end to end: a tool server started here with the official SDK (Streamable HTTP on
 * Node) exposing `add` and demanding its own bearer token, registered as `calc` through the admin
 * API; the SDK's client through the gateway's /mcp with an API key lists `calc__add`, calls it and
 * gets the sum; the call's log row and charge are exact; a key whose allowlist leaves the tool out
 * does not see it and is refused when it calls it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type ApiSession, rootSession, userSession } from './support/api'
import { startCalcServer } from './support/mcp-calc'

const SECRET = 'calc-server-secret'
const PRICE = 0.5 // a times price: 500 units a call at group ratio 1
const START = 1_000_000
let upstream: Awaited<ReturnType<typeof startCalcServer>>
let user: ApiSession

const gatewayClient = async (key: string) => {
  const client = new Client({ name: 'e2e', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${inject('gatewayUrl')}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  return client
}

beforeAll(async () => {
  upstream = await startCalcServer(SECRET)

  const root = await rootSession()
  await root.ok('POST', '/api/prices/single', { model: 'mcp/calc/add', type: 'times', channel_type: 1, input: PRICE, output: 0 })
  const server = await root.ok<{ id: number; header_names: string[] }>('POST', '/api/mcp/server/', {
    name: 'calc',
    url: upstream.url,
    headers: { authorization: `Bearer ${SECRET}` },
  })
  expect(server.header_names).toEqual(['authorization'])
  const tested = await root.ok<{ tools: { gateway_name: string }[] }>('POST', `/api/mcp/server/${server.id}/test`)
  expect(tested.tools.map((t) => t.gateway_name)).toEqual(['calc__add'])

  user = await userSession(`mcp${Date.now().toString(36)}`)
  const me = await user.ok<{ id: number; quota: number }>('GET', '/api/user/self')
  await root.ok('POST', `/api/user/quota/${me.id}`, { quota: START - me.quota, remark: 'e2e' })
})

afterAll(() => upstream?.close())

describe('the MCP gateway with the official SDK', () => {
  it('lists calc__add, calls it with the server’s own credentials, and charges exactly one log row', async () => {
    const token = await user.ok<{ key: string }>('POST', '/api/token/', { name: 'agent', unlimited_quota: true })
    const client = await gatewayClient(token.key)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('calc__add')
    const result = await client.callTool({ name: 'calc__add', arguments: { a: 2, b: 3 } })
    expect(result.content).toEqual([{ type: 'text', text: '5' }])
    await client.close()
    expect(upstream.seenAuth.every((a) => a === `Bearer ${SECRET}`)).toBe(true)

    let rows: { model_name: string; quota: number; type: number }[] = []
    let quota = START
    const end = Date.now() + 15_000
    while (Date.now() < end) {
      rows = (await user.ok<{ data: typeof rows }>('GET', '/api/log/self?page_size=100')).data.filter((r) => r.model_name.startsWith('mcp/'))
      quota = (await user.ok<{ quota: number }>('GET', '/api/user/self')).quota
      if (rows.length > 0 && quota === START - 500) break
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(rows).toEqual([expect.objectContaining({ model_name: 'mcp/calc/add', quota: 500, type: 2 })])
    expect(quota).toBe(START - 500)
  })

  it('suggests the group’s tools for a key’s allowlist, and refuses a group the user may not use', async () => {
    const tools = await user.ok<{ name: string; description: string }[]>('GET', '/api/mcp/tools')
    expect(tools).toContainEqual({ name: 'calc__add', description: expect.any(String) })
    const refused = await user.call('GET', '/api/mcp/tools?group=no-such-group')
    expect(refused.status).toBe(400)
  })

  it('hides the tool from a key whose allowlist leaves it out, and refuses the call', async () => {
    const token = await user.ok<{ key: string; mcp_tools: string[] }>('POST', '/api/token/', { name: 'narrow', unlimited_quota: true, mcp_tools: ['search__*'] })
    expect(token.mcp_tools).toEqual(['search__*'])
    const client = await gatewayClient(token.key)
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('calc__add')
    await expect(client.callTool({ name: 'calc__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/may not use/)
    await client.close()
  })
})
