/**
 * The MCP gateway end to end: a tool server started here with the official SDK (Streamable HTTP on
 * Node) exposing `add` and demanding its own bearer token, registered as `calc` through the admin
 * API; the SDK's client through the gateway's /mcp with an API key lists `calc__add`, calls it and
 * gets the sum; the call's log row and charge are exact; a key whose allowlist leaves the tool out
 * does not see it and is refused when it calls it.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type ApiSession, rootSession, userSession } from './support/api'

const SECRET = 'calc-server-secret'
const PRICE = 0.5 // a times price: 500 units a call at group ratio 1
const START = 1_000_000
let upstream: HttpServer
const seenAuth: (string | undefined)[] = []
let user: ApiSession

/** A stateless SDK server per request, as the SDK's stateless example does. */
function calcServer() {
  const server = new Server({ name: 'calc', version: '1.0.0' }, { capabilities: { tools: {} } })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'add', description: 'Add two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }],
  }))
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { a, b } = req.params.arguments as { a: number; b: number }
    return { content: [{ type: 'text', text: String(a + b) }] }
  })
  return server
}

const gatewayClient = async (key: string) => {
  const client = new Client({ name: 'e2e', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${inject('gatewayUrl')}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
  return client
}

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    seenAuth.push(req.headers.authorization)
    if (req.headers.authorization !== `Bearer ${SECRET}`) return void res.writeHead(401).end()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close())
    await calcServer().connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  const port = (upstream.address() as AddressInfo).port

  const root = await rootSession()
  await root.ok('POST', '/api/prices/single', { model: 'mcp/calc/add', type: 'times', channel_type: 1, input: PRICE, output: 0 })
  const server = await root.ok<{ id: number; header_names: string[] }>('POST', '/api/mcp/server/', {
    name: 'calc',
    url: `http://127.0.0.1:${port}/mcp`,
    headers: { authorization: `Bearer ${SECRET}` },
  })
  expect(server.header_names).toEqual(['authorization'])
  const tested = await root.ok<{ tools: { gateway_name: string }[] }>('POST', `/api/mcp/server/${server.id}/test`)
  expect(tested.tools.map((t) => t.gateway_name)).toEqual(['calc__add'])

  user = await userSession(`mcp${Date.now().toString(36)}`)
  const me = await user.ok<{ id: number; quota: number }>('GET', '/api/user/self')
  await root.ok('POST', `/api/user/quota/${me.id}`, { quota: START - me.quota, remark: 'e2e' })
})

afterAll(() => new Promise<void>((resolve) => upstream?.close(() => resolve())))

describe('the MCP gateway with the official SDK', () => {
  it('lists calc__add, calls it with the server’s own credentials, and charges exactly one log row', async () => {
    const token = await user.ok<{ key: string }>('POST', '/api/token/', { name: 'agent', unlimited_quota: true })
    const client = await gatewayClient(token.key)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toContain('calc__add')
    const result = await client.callTool({ name: 'calc__add', arguments: { a: 2, b: 3 } })
    expect(result.content).toEqual([{ type: 'text', text: '5' }])
    await client.close()
    expect(seenAuth.every((a) => a === `Bearer ${SECRET}`)).toBe(true)

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

  it('hides the tool from a key whose allowlist leaves it out, and refuses the call', async () => {
    const token = await user.ok<{ key: string; mcp_tools: string[] }>('POST', '/api/token/', { name: 'narrow', unlimited_quota: true, mcp_tools: ['search__*'] })
    expect(token.mcp_tools).toEqual(['search__*'])
    const client = await gatewayClient(token.key)
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('calc__add')
    await expect(client.callTool({ name: 'calc__add', arguments: { a: 1, b: 1 } })).rejects.toThrow(/may not use/)
    await client.close()
  })
})
