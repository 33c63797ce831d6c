/**
 * An MCP tool server for e2e tests, built with the official SDK (Streamable HTTP on Node, a
 * stateless server per request as the SDK's example does): one tool, `add`, behind a bearer token
 * of its own. Records the Authorization header of every request.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'

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

/** Start the calculator on a free loopback port; requests without `Bearer <secret>` get 401. */
export async function startCalcServer(secret: string) {
  const seenAuth: (string | undefined)[] = []
  const http = createServer(async (req, res) => {
    seenAuth.push(req.headers.authorization)
    if (req.headers.authorization !== `Bearer ${secret}`) return void res.writeHead(401).end()
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    res.on('close', () => void transport.close())
    await calcServer().connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const port = (http.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    seenAuth,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  }
}
