/**
 * The MCP gateway endpoint `/mcp` (Streamable HTTP, the official SDK's web-standard server
 * transport): an API key sees the tools of every enabled tool server its group may use, named
 * `<server>__<tool>` and narrowed by the key's `mcp_tools` allowlist; `tools/call` is priced, held,
 * proxied to the tool's server with that server's stored headers, and settled with one log row
 * (mcp-charge.ts). A server's `notifications/tools/list_changed` during a call relists it and is passed
 * on to the client on the call's stream. Prompts and resources of the same servers are listed and
 * read through it too (mcp-catalog.ts). Sessions are signed ids (mcp-session.ts); GET (a server-to-client stream) is not
 * offered (405, as the spec allows), DELETE ends a session.
 */
import { Hono, type Context } from 'hono'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  isInitializeRequest,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { RelayAuth } from '../access/token-auth'
import { admit } from '../access/admit'
import { ApiError } from '../lib/errors'
import type { HonoEnv } from '../env'
import { runGatewayTool, visibleTools } from './mcp-call'
import { endSession, newSessionId, sessionValid } from './mcp-session'
import { getPrompt, listPrompts, listResources, readResource } from './mcp-catalog'

const SERVER_INFO = { name: 'edge-ai-gateway', version: '1.0.0' }

/** Run one `tools/call`: find the tool among those the key may see, then run it billed (mcp-call.ts). */
async function callTool(
  c: Context<HonoEnv>,
  auth: RelayAuth,
  call: { name: string; args: Record<string, unknown> | undefined; id: string | number },
  notify: () => Promise<void>
): Promise<CallToolResult> {
  const target = (await visibleTools(c, auth)).find((t) => t.name === call.name)
  if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown tool, or a tool this API key may not use: ${call.name}`)
  try {
    return await runGatewayTool(c, auth, target, call.args, call.id, notify)
  } catch (err) {
    if (err instanceof ApiError) throw new McpError(ErrorCode.InvalidRequest, err.message, { code: err.code, status: err.status })
    throw err
  }
}

/** An SDK server answering for `auth`, on a transport that issues `sessionId` (initialize) or checks none (already checked here). */
async function mcpServerFor(c: Context<HonoEnv>, auth: RelayAuth, sessionId?: string) {
  const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await visibleTools(c, auth)).map((t) => ({ ...t.tool, name: t.name })),
  }))
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) =>
    callTool(c, auth, { name: req.params.name, args: req.params.arguments, id: extra.requestId }, () => extra.sendNotification({ method: 'notifications/tools/list_changed' }))
  )
  server.setRequestHandler(ListPromptsRequestSchema, () => listPrompts(c.env, auth))
  server.setRequestHandler(GetPromptRequestSchema, (req) => getPrompt(c.env, auth, req.params.name, req.params.arguments))
  server.setRequestHandler(ListResourcesRequestSchema, () => listResources(c.env, auth))
  server.setRequestHandler(ReadResourceRequestSchema, (req) => readResource(c.env, auth, req.params.uri))
  const transport = new WebStandardStreamableHTTPServerTransport(sessionId ? { sessionIdGenerator: () => sessionId } : {})
  await server.connect(transport)
  return transport
}

const rpcError = (status: number, message: string) => Response.json({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message }, id: null }, { status })

/** The request's session: undefined when it is missing, false when it is not (or no longer) valid. */
async function requestSession(c: Context<HonoEnv>, auth: RelayAuth): Promise<string | false | undefined> {
  const id = c.req.header('mcp-session-id')
  if (!id) return undefined
  return (await sessionValid(c.env, auth.id, id)) ? id : false
}

export const mcpApp = new Hono<HonoEnv>()
  .post('/', async (c) => {
    const auth = await admit(c)
    const body = await c.req.json().catch(() => undefined)
    if (body === undefined) return rpcError(400, 'Parse error: the body must be JSON-RPC.')
    if (isInitializeRequest(body)) {
      const transport = await mcpServerFor(c, auth, await newSessionId(c.env, auth.id))
      return transport.handleRequest(c.req.raw, { parsedBody: body })
    }
    const session = await requestSession(c, auth)
    if (session === undefined) return rpcError(400, 'Bad Request: the Mcp-Session-Id header is required; send initialize first.')
    if (session === false) return rpcError(404, 'Session not found: initialize a new session.')
    const transport = await mcpServerFor(c, auth)
    return transport.handleRequest(c.req.raw, { parsedBody: body })
  })
  .get('/', async (c) => {
    await admit(c)
    return new Response(null, { status: 405, headers: { allow: 'POST, DELETE' } })
  })
  .delete('/', async (c) => {
    const auth = await admit(c)
    const session = await requestSession(c, auth)
    if (session === undefined) return rpcError(400, 'Bad Request: the Mcp-Session-Id header is required.')
    if (session === false) return rpcError(404, 'Session not found.')
    await endSession(c.env, session)
    return new Response(null, { status: 200 })
  })
