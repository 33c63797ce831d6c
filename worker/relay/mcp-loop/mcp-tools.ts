/**
 * The `mcp` tools of a Responses or chat request, resolved against the registry: each names a
 * registered tool server (`server_url` as its name or its exact URL, else `server_label` as its
 * name) that the API key's group may use — never an arbitrary URL — and optionally the tools to
 * offer (`allowed_tools`). The offered tools are those the gateway catalog shows the key (its
 * allowlist applied), as function tools named `<server>__<tool>` with the tool's input schema.
 * Approvals are not supported: `require_approval` must be "never" (chat requests may omit it).
 */
import type { Context } from 'hono'
import type { RelayAuth } from '../../access/token-auth'
import type { GatewayTool } from '../../channels/mcp-servers'
import { serversForGroup } from '../../channels/mcp-servers'
import { ApiError } from '../../lib/errors'
import type { HonoEnv } from '../../env'
import { visibleTools } from '../../mcp/mcp-call'
import type { McpToolSpec } from './mcp-tool-spec'

/** A tool offered to the model: the function name it sees, the client's label, where it lives. */
export interface OfferedTool {
  fn: string
  label: string
  target: GatewayTool
}

export interface McpToolSet {
  /** Function name → tool. */
  offered: Map<string, OfferedTool>
  /** What was listed, per server label (the `mcp_list_tools` items). */
  lists: { label: string; tools: GatewayTool[] }[]
}

const refuse = (message: string, code = 'invalid_mcp_tool') => new ApiError(400, message, { code, param: 'tools' })

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '')
  } catch {
    return false
  }
}

function checkSpec(spec: McpToolSpec, approvalDefault: 'never' | undefined) {
  if (spec.connector_id != null) throw refuse('MCP connectors (connector_id) are not supported by this gateway; name a registered tool server in server_url.')
  if (spec.headers != null) throw refuse('mcp tools may not carry headers: the gateway calls a registered tool server with the credentials stored for it.')
  const approval = spec.require_approval ?? approvalDefault
  if (approval !== 'never')
    throw refuse('This gateway does not support MCP tool approvals: send "require_approval": "never" to let the gateway run the tools the model calls.', 'unsupported_approval')
}

/** Resolve every mcp tool of a request; refuses (400) anything that is not a registered server this key may use. */
export async function resolveMcpTools(c: Context<HonoEnv>, auth: RelayAuth, specs: McpToolSpec[], opts: { approvalDefault?: 'never' } = {}): Promise<McpToolSet> {
  const servers = await serversForGroup(c.env, auth.group, c.executionCtx)
  const visible = await visibleTools(c, auth)
  const offered = new Map<string, OfferedTool>()
  const lists: McpToolSet['lists'] = []
  const labels = new Set<string>()
  for (const spec of specs) {
    checkSpec(spec, opts.approvalDefault)
    if (labels.has(spec.server_label)) throw refuse(`server_label "${spec.server_label}" is used by two mcp tools.`)
    labels.add(spec.server_label)
    const ref = spec.server_url ?? spec.server_label
    const server = servers.find((s) => s.name === ref) ?? servers.find((s) => sameUrl(s.url, ref))
    if (!server) throw refuse(`"${ref}" is not a tool server registered on this gateway for this API key; server_url must be a registered server's name or URL.`)
    const names = Array.isArray(spec.allowed_tools) ? spec.allowed_tools : (spec.allowed_tools?.tool_names ?? undefined)
    const tools = visible.filter((t) => t.server.id === server.id && (!names || names.includes(t.tool.name) || names.includes(t.name)))
    for (const t of tools) if (!offered.has(t.name)) offered.set(t.name, { fn: t.name, label: spec.server_label, target: t })
    lists.push({ label: spec.server_label, tools })
  }
  return { offered, lists }
}

/** The offered tools as OpenAI chat function tools. */
export function functionTools(set: McpToolSet): Record<string, unknown>[] {
  return [...set.offered.values()].map(({ fn, target }) => ({
    type: 'function',
    function: { name: fn, ...(target.tool.description ? { description: target.tool.description } : {}), parameters: target.tool.inputSchema ?? { type: 'object', properties: {} } },
  }))
}
