/**
 * Upstream MCP tool servers for worker tests: every outbound fetch to a registered origin is
 * answered by the official SDK's own server (Streamable HTTP, stateless), so the gateway's client
 * speaks real MCP JSON-RPC. A tool may answer, fail as a tool (`isError`), or hang until the
 * caller gives up, or announce that the server's tool list changed; a server may offer prompts and
 * text resources; a server may also answer every
 * request with HTTP 500, or 401 when its `accepts` check refuses the Authorization header. Every request's
 * Authorization header and JSON-RPC method are recorded.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { vi } from 'vitest'
import worker from '../index'

export interface MockTool {
  name: string
  description?: string
  /** The tool's answer; a `hang` tool never answers. */
  run?: (args: Record<string, unknown>) => CallToolResult
  hang?: boolean
  /** Send `notifications/tools/list_changed` before the answer (the server then answers over SSE). */
  listChanged?: boolean
}

export interface MockMcpServer {
  tools: MockTool[]
  /** Prompts (each answers one user message with its text and the `topic` argument). */
  prompts?: { name: string; description?: string; text: string }[]
  /** Text resources. */
  resources?: { uri: string; name: string; text: string }[]
  /** Answer every request with HTTP 500. */
  broken?: boolean
  /** Answer HTTP 401 unless this accepts the request's Authorization header. */
  accepts?: (authorization: string | null) => boolean
}

export interface McpMockCall {
  origin: string
  authorization: string | null
  method: string
  params?: any
}

const textResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }] })

/** A calculator with `add`, the tool most tests use. */
export const CALC: MockServerSpec = {
  tools: [
    {
      name: 'add',
      description: 'Add two numbers',
      run: (a) => textResult(String(Number(a.a) + Number(a.b))),
    },
  ],
}

export type MockServerSpec = MockMcpServer

function answer(spec: MockMcpServer, req: Request): Promise<Response> {
  const capabilities = { tools: {}, ...(spec.prompts ? { prompts: {} } : {}), ...(spec.resources ? { resources: {} } : {}) }
  const server = new Server({ name: 'mock', version: '1.0.0' }, { capabilities, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  const prompts = spec.prompts
  if (prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({
      prompts: prompts.map((p) => ({ name: p.name, description: p.description, arguments: [{ name: 'topic', required: false }] })),
    }))
    server.setRequestHandler(GetPromptRequestSchema, async (r) => {
      const p = prompts.find((x) => x.name === r.params.name)
      if (!p) throw new McpError(ErrorCode.InvalidParams, `no prompt ${r.params.name}`)
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `${p.text} ${r.params.arguments?.topic ?? ''}`.trim() } }] }
    })
  }
  const resources = spec.resources
  if (resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resources.map((r) => ({ uri: r.uri, name: r.name, mimeType: 'text/plain' })) }))
    server.setRequestHandler(ReadResourceRequestSchema, async (r) => {
      const res = resources.find((x) => x.uri === r.params.uri)
      if (!res) throw new McpError(ErrorCode.InvalidParams, `no resource ${r.params.uri}`)
      return { contents: [{ uri: res.uri, mimeType: 'text/plain', text: res.text }] }
    })
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: spec.tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: { type: 'object' as const, properties: { a: { type: 'number' }, b: { type: 'number' } } },
    })),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (r, extra) => {
    const tool = spec.tools.find((t) => t.name === r.params.name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool ${r.params.name}`)
    if (tool.hang) await new Promise((_, reject) => extra.signal.addEventListener('abort', () => reject(new Error('aborted'))))
    const result = tool.run!(r.params.arguments ?? {})
    if (tool.listChanged) await extra.sendNotification({ method: 'notifications/tools/list_changed' })
    return result
  })
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: !spec.tools.some((t) => t.listChanged) })
  return server.connect(transport).then(() => transport.handleRequest(req))
}

/**
 * Serve `servers` (origin → server) to the Worker's outbound fetch; other fetches go to `other`
 * when it answers them (one spy serves both: a second spy on fetch would replace this one), else through.
 */
export function mockMcpServers(servers: Record<string, MockMcpServer>, other?: (req: Request) => Promise<Response | undefined>) {
  const calls: McpMockCall[] = []
  const real = globalThis.fetch
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    const origin = new URL(req.url).origin
    const spec = servers[origin]
    if (!spec) return (await other?.(req)) ?? real(input, init)
    const body: any =
      req.method === 'POST'
        ? await req
            .clone()
            .json()
            .catch(() => undefined)
        : undefined
    calls.push({ origin, authorization: req.headers.get('authorization'), method: body?.method ?? req.method, params: body?.params })
    if (spec.broken) return new Response('upstream exploded', { status: 500 })
    if (spec.accepts && !spec.accepts(req.headers.get('authorization'))) return Response.json({ error: 'invalid_token' }, { status: 401 })
    if (req.method !== 'POST') return new Response(null, { status: 405 })
    return answer(spec, req)
  })
  return { calls, restore: () => spy.mockRestore() }
}

/** The SDK's client connected to the gateway's /mcp with `key` (requests run through the Worker). */
export async function gatewayClient(key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const ctx = createExecutionContext()
      const res = await worker.fetch(new Request(url, init) as any, env, ctx)
      const body = await res.arrayBuffer()
      await waitOnExecutionContext(ctx)
      return new Response(res.status === 204 ? null : body, { status: res.status, headers: res.headers })
    },
  })
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  await client.connect(transport)
  return client
}
