/**
 * Prompts and resources through `/mcp`: the prompts and resources of every tool server the key's
 * group may use, listed live from the servers (a server that fails or offers none adds nothing).
 * Prompts are named `<server>__<prompt>` like tools; a resource's URI becomes
 * `mcp-gateway://<server>/<the server's URI, percent-encoded>` and its name `<server>__<name>`, so a
 * read finds its server again and never reaches one the key may not use. The key's `mcp_tools`
 * allowlist applies to these names as to tool names. Reading a prompt or a resource is not priced:
 * it runs no tool.
 */
import { ErrorCode, type GetPromptResult, McpError, type Prompt, type ReadResourceResult, type Resource } from '@modelcontextprotocol/sdk/types.js'
import type { RelayAuth } from '../access/token-auth'
import { mcpToolMatcher } from '../access/mcp-allowlist'
import { gatewayToolName, type McpServerEntry, serversForGroup } from '../channels/mcp-servers'
import { getUpstreamPrompt, listUpstreamPrompts, listUpstreamResources, McpUpstreamError, readUpstreamResource } from '../channels/mcp-upstream'
import { logger } from '../lib/logger'

const mcpLog = logger({ module: 'mcp-catalog' })

const SCHEME = 'mcp-gateway://'

export const gatewayResourceUri = (server: string, uri: string) => `${SCHEME}${server}/${encodeURIComponent(uri)}`

/** The server name and the server's own URI of a gateway resource URI, or undefined. */
export function parseGatewayResourceUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined
  const rest = uri.slice(SCHEME.length)
  const slash = rest.indexOf('/')
  if (slash <= 0) return undefined
  try {
    return { server: rest.slice(0, slash), uri: decodeURIComponent(rest.slice(slash + 1)) }
  } catch {
    return undefined
  }
}

/** `list` over every server of the group, the earlier server (by id) keeping a clashing name. */
async function eachServer<T>(env: Env, auth: RelayAuth, list: (server: McpServerEntry) => Promise<T[]>): Promise<{ server: McpServerEntry; items: T[] }[]> {
  const servers = (await serversForGroup(env, auth.group)).sort((a, b) => a.id - b.id)
  return Promise.all(
    servers.map(async (server) => {
      try {
        return { server, items: await list(server) }
      } catch (err) {
        mcpLog.warn('listing tools failed', { server: server.name, error: err })
        return { server, items: [] as T[] }
      }
    })
  )
}

/** The prompts `auth` may see, each with the server it lives on. */
async function visiblePrompts(env: Env, auth: RelayAuth): Promise<{ name: string; server: McpServerEntry; prompt: Prompt }[]> {
  const allowed = mcpToolMatcher(auth.mcpTools)
  const seen = new Map<string, { name: string; server: McpServerEntry; prompt: Prompt }>()
  for (const { server, items } of await eachServer(env, auth, listUpstreamPrompts)) {
    for (const prompt of items) {
      const name = gatewayToolName(server.name, prompt.name)
      if (!seen.has(name) && allowed(name)) seen.set(name, { name, server, prompt })
    }
  }
  return [...seen.values()]
}

export async function listPrompts(env: Env, auth: RelayAuth): Promise<{ prompts: Prompt[] }> {
  return { prompts: (await visiblePrompts(env, auth)).map((p) => ({ ...p.prompt, name: p.name })) }
}

export async function getPrompt(env: Env, auth: RelayAuth, name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const target = (await visiblePrompts(env, auth)).find((p) => p.name === name)
  if (!target) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt, or a prompt this API key may not use: ${name}`)
  try {
    return await getUpstreamPrompt(target.server, target.prompt.name, args)
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, err instanceof McpUpstreamError ? err.message : `MCP server "${target.server.name}" failed`)
  }
}

export async function listResources(env: Env, auth: RelayAuth): Promise<{ resources: Resource[] }> {
  const allowed = mcpToolMatcher(auth.mcpTools)
  const resources: Resource[] = []
  for (const { server, items } of await eachServer(env, auth, listUpstreamResources)) {
    for (const r of items) {
      const name = gatewayToolName(server.name, r.name)
      if (allowed(name)) resources.push({ ...r, name, uri: gatewayResourceUri(server.name, r.uri) })
    }
  }
  return { resources }
}

export async function readResource(env: Env, auth: RelayAuth, uri: string): Promise<ReadResourceResult> {
  const parsed = parseGatewayResourceUri(uri)
  const server = parsed && (await serversForGroup(env, auth.group)).find((s) => s.name === parsed.server)
  if (!parsed || !server) throw new McpError(ErrorCode.InvalidParams, `Unknown resource, or a resource this API key may not use: ${uri}`)
  const allowed = mcpToolMatcher(auth.mcpTools)
  if (auth.mcpTools.length > 0) {
    // The allowlist names resources by name: the read must be of a listed, allowed one.
    const listed = await listUpstreamResources(server).catch(() => [] as Resource[])
    const entry = listed.find((r) => r.uri === parsed.uri)
    if (!entry || !allowed(gatewayToolName(server.name, entry.name)))
      throw new McpError(ErrorCode.InvalidParams, `Unknown resource, or a resource this API key may not use: ${uri}`)
  }
  let result: ReadResourceResult
  try {
    result = await readUpstreamResource(server, parsed.uri)
  } catch (err) {
    throw new McpError(ErrorCode.InternalError, err instanceof McpUpstreamError ? err.message : `MCP server "${server.name}" failed`)
  }
  return { ...result, contents: result.contents.map((c) => ({ ...c, uri: gatewayResourceUri(server.name, c.uri) })) }
}
