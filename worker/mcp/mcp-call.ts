/**
 * One billed MCP tool call, shared by `/mcp` (mcp.routes.ts) and the relay's remote MCP tool loop
 * (relay/mcp-loop/): the tools an API key may see (its group's servers, narrowed by its `mcp_tools`
 * allowlist), and running one of them — priced and held (mcp-charge.ts; a refusal throws its
 * ApiError), proxied to the tool's server with that server's stored credentials, then settled, or
 * refunded with an error result when the server fails or times out. A server announcing
 * `notifications/tools/list_changed` during the call is relisted before `onToolsChanged` runs.
 */
import type { Context } from 'hono'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { RelayAuth } from '../access/token-auth'
import { mcpToolMatcher } from '../access/mcp-allowlist'
import { type GatewayTool, groupTools, refreshTools } from '../channels/mcp-servers'
import { callUpstreamTool, McpUpstreamError } from '../channels/mcp-upstream'
import type { HonoEnv } from '../env'
import { McpCharge } from './mcp-charge'
import { logger } from '../lib/logger'

const mcpLog = logger({ module: 'mcp-call' })

/** The tools `auth` may see: its group's servers' tools, narrowed by its allowlist. */
export async function visibleTools(c: Context<HonoEnv>, auth: RelayAuth): Promise<GatewayTool[]> {
  const allowed = mcpToolMatcher(auth.mcpTools)
  return (await groupTools(c.env, auth.group, c.executionCtx)).filter((t) => allowed(t.name))
}

/**
 * Run `target` with `args` for `auth`: hold its price (throws the refusal's ApiError, nothing
 * charged), call the server, settle (a tool's own error counts: it ran) or refund with an error
 * result. `callId` keys the charge: each call of one request needs its own.
 */
export async function runGatewayTool(
  c: Context<HonoEnv>,
  auth: RelayAuth,
  target: GatewayTool,
  args: Record<string, unknown> | undefined,
  callId: string | number,
  onToolsChanged?: () => Promise<void>
): Promise<CallToolResult> {
  const charge = new McpCharge(c, auth, target.server.name, target.tool.name, args ? new TextEncoder().encode(JSON.stringify(args)).length : 0, callId)
  await charge.open(target.server.free)
  try {
    const { result, toolsChanged } = await callUpstreamTool(target.server, target.tool.name, args)
    await charge.settle(result.isError ? 'tool_error' : 'ok')
    if (toolsChanged) {
      try {
        await refreshTools(c.env, target.server)
        await onToolsChanged?.().catch(() => undefined)
      } catch (err) {
        mcpLog.warn('relisting after list_changed failed', { server: target.server.name, error: err })
      }
    }
    return result
  } catch (err) {
    const failure = err instanceof McpUpstreamError ? err : new McpUpstreamError(target.server.name, String((err as Error)?.message ?? err))
    await charge.refund(failure.timedOut ? 'timeout' : 'error', failure.message)
    return { isError: true, content: [{ type: 'text', text: failure.message }] }
  }
}
