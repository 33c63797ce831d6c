/**
 * The gateway as an MCP client of one tool server: connect over Streamable HTTP with the server's
 * own stored headers (never a client's) and, when it has an OAuth client-credentials grant, its
 * bearer token (mcp-oauth.ts), list its tools, call one tool, list and get its prompts,
 * list and read its resources (empty when the server does not offer them), all within the server's
 * timeout; a `notifications/tools/list_changed` the server sends while answering a call is reported
 * with the result. Uses the official SDK's client (`@modelcontextprotocol/sdk`), which speaks through fetch.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import {
  type CallToolResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import type { McpOAuthConfig } from '../../shared/contract/mcp'
import { mcpAuthFetch } from './mcp-oauth'

/** What the client needs of a stored server. */
export interface McpUpstream {
  name: string
  url: string
  headers: Record<string, string>
  oauth?: McpOAuthConfig | null
  timeoutMs: number
}

/** A tool server that could not be reached, answered an error or ran out of time. */
export class McpUpstreamError extends Error {
  constructor(
    readonly server: string,
    message: string,
    readonly timedOut = false
  ) {
    super(`MCP server "${server}": ${message}`)
  }
}

/** At most this many pages of tools/list are read from one server. */
const MAX_TOOL_PAGES = 20

/** Connect to `server`, run `fn`, and close; every request shares one deadline. */
async function withClient<T>(server: McpUpstream, fn: (client: Client, opts: { signal: AbortSignal; timeout: number }) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(server.timeoutMs)
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers, signal }, fetch: mcpAuthFetch(server.oauth, signal) })
  const client = new Client({ name: 'edge-ai-gateway', version: '1.0.0' })
  const opts = { signal, timeout: server.timeoutMs }
  try {
    await client.connect(transport, opts)
    return await fn(client, opts)
  } catch (err) {
    const timedOut = signal.aborted || /timed? ?out/i.test(String((err as Error)?.message))
    throw new McpUpstreamError(server.name, timedOut ? `no answer within ${server.timeoutMs} ms` : String((err as Error)?.message ?? err).slice(0, 300), timedOut)
  } finally {
    await client.close().catch(() => undefined)
  }
}

/** Every item of a paginated list (following `nextCursor`, at most MAX_TOOL_PAGES pages). */
async function allPages<T>(page: (params: { cursor?: string }) => Promise<{ nextCursor?: string } & Record<string, unknown>>, field: string): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  for (let n = 0; n < MAX_TOOL_PAGES; n++) {
    const res = await page(cursor ? { cursor } : {})
    items.push(...(res[field] as T[]))
    cursor = res.nextCursor
    if (!cursor) break
  }
  return items
}

/** Every tool `server` offers (following tools/list pagination). */
export function listUpstreamTools(server: McpUpstream): Promise<Tool[]> {
  return withClient(server, (client, opts) => allPages<Tool>((p) => client.listTools(p, opts), 'tools'))
}

/** What a call answered, and whether the server said its tool list changed meanwhile. */
export interface UpstreamCall {
  result: CallToolResult
  toolsChanged: boolean
}

/** Call `tool` on `server` with `args`; a tool's own error comes back as a result with `isError`. */
export function callUpstreamTool(server: McpUpstream, tool: string, args: Record<string, unknown> | undefined): Promise<UpstreamCall> {
  return withClient(server, async (client, opts) => {
    let toolsChanged = false
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      toolsChanged = true
    })
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, opts)) as CallToolResult
    return { result, toolsChanged }
  })
}

/** Every prompt `server` offers; none when it has no prompts capability. */
export function listUpstreamPrompts(server: McpUpstream): Promise<Prompt[]> {
  return withClient(server, async (client, opts) => (client.getServerCapabilities()?.prompts ? allPages<Prompt>((p) => client.listPrompts(p, opts), 'prompts') : []))
}

export function getUpstreamPrompt(server: McpUpstream, name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  return withClient(server, (client, opts) => client.getPrompt({ name, arguments: args }, opts))
}

/** Every resource `server` offers; none when it has no resources capability. */
export function listUpstreamResources(server: McpUpstream): Promise<Resource[]> {
  return withClient(server, async (client, opts) => (client.getServerCapabilities()?.resources ? allPages<Resource>((p) => client.listResources(p, opts), 'resources') : []))
}

export function readUpstreamResource(server: McpUpstream, uri: string): Promise<ReadResourceResult> {
  return withClient(server, (client, opts) => client.readResource({ uri }, opts))
}
