/**
 * The registry of MCP tool servers: the enabled servers (a sealed snapshot, since it holds their
 * auth headers and OAuth client credentials), each server's tool list (cached in KV under the row's update time, listed from the
 * server on a miss or when an administrator asks), and the aggregation of a group's tools under
 * gateway names `<server>__<tool>`. Two servers can yield the same gateway name (`a__b` + `c` and
 * `a` + `b__c`): the server created first keeps it, the other tool is left out and reported.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { cacheKeys } from '../cache/keys'
import { Snapshot, type BackgroundCtx } from '../cache/versioned'
import { clockNow } from '../lib/clock'
import { listUpstreamTools, type McpUpstream } from './mcp-upstream'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'mcp-servers' })

export interface McpServerEntry extends McpUpstream {
  id: number
  groups: string[]
  free: boolean
  updatedTime: number
}

/** How long a listed tool list is trusted before the next use lists it again. */
const TOOLS_TTL_SECONDS = 3600

async function loadServers(env: Env): Promise<McpServerEntry[]> {
  const { results } = await env.DB.prepare('SELECT id, name, url, headers, oauth, groups, timeout_ms, free, updated_time FROM mcp_servers WHERE enabled = 1 ORDER BY id').all<
    Record<string, any>
  >()
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    url: r.url,
    headers: parseJson(r.headers, {}),
    oauth: parseJson(r.oauth, null),
    groups: parseJson(r.groups, []),
    timeoutMs: r.timeout_ms,
    free: Boolean(r.free),
    updatedTime: r.updated_time,
  }))
}

function parseJson<T>(raw: unknown, fallback: T): T {
  try {
    return raw ? (JSON.parse(String(raw)) as T) : fallback
  } catch {
    return fallback
  }
}

export const mcpServerSnapshot = new Snapshot('mcp-servers', loadServers, { sealed: true })

/** The enabled servers a user group may use (a server with no groups serves every group). */
export async function serversForGroup(env: Env, group: string, ctx?: BackgroundCtx): Promise<McpServerEntry[]> {
  const all = await mcpServerSnapshot.get(env, ctx)
  return all.filter((s) => s.groups.length === 0 || s.groups.includes(group))
}

interface CachedTools {
  tools: Tool[]
  listedAt: number
}

/** List `server`'s tools now and cache them (the test and refresh routes, and cache misses). */
export async function refreshTools(env: Env, server: McpServerEntry): Promise<CachedTools> {
  const entry = { tools: await listUpstreamTools(server), listedAt: clockNow() }
  await env.CACHE.put(cacheKeys.mcpTools(server.id, server.updatedTime), JSON.stringify(entry), { expirationTtl: TOOLS_TTL_SECONDS })
  return entry
}

/** `server`'s tools from KV, listed from the server on a miss. */
export async function toolsOf(env: Env, server: McpServerEntry): Promise<Tool[]> {
  const cached = await env.CACHE.get<CachedTools>(cacheKeys.mcpTools(server.id, server.updatedTime), 'json')
  return (cached ?? (await refreshTools(env, server))).tools
}

/** A tool as a client of /mcp sees it, and where it really lives. */
export interface GatewayTool {
  name: string
  server: McpServerEntry
  tool: Tool
}

export const gatewayToolName = (server: string, tool: string) => `${server}__${tool}`

/**
 * Name every server's tools `<server>__<tool>`; on a clash the earlier server (by id) keeps the
 * name and the later tool is listed in `clashes`.
 */
export function aggregateTools(lists: { server: McpServerEntry; tools: Tool[] }[]): { tools: GatewayTool[]; clashes: string[] } {
  const byName = new Map<string, GatewayTool>()
  const clashes: string[] = []
  for (const { server, tools } of [...lists].sort((a, b) => a.server.id - b.server.id)) {
    for (const tool of tools) {
      const name = gatewayToolName(server.name, tool.name)
      if (byName.has(name)) clashes.push(`${server.name}/${tool.name}`)
      else byName.set(name, { name, server, tool })
    }
  }
  return { tools: [...byName.values()], clashes }
}

/** Every tool a user group may reach through /mcp (a server that cannot list is left out, with a warning). */
export async function groupTools(env: Env, group: string, ctx?: BackgroundCtx): Promise<GatewayTool[]> {
  const servers = await serversForGroup(env, group, ctx)
  const lists = await Promise.all(
    servers.map(async (server) => {
      try {
        return { server, tools: await toolsOf(env, server) }
      } catch (err) {
        serverLog.warn('MCP server tool listing failed', { server: server.name, error: err })
        return { server, tools: [] }
      }
    })
  )
  const { tools, clashes } = aggregateTools(lists)
  if (clashes.length > 0) serverLog.warn('MCP tool names taken by an earlier server, left out', { tools: clashes })
  return tools
}
