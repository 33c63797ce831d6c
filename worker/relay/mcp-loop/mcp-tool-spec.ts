/**
 * The shape of a `{"type":"mcp", …}` tool in a Responses or chat request (OpenAI's remote MCP
 * tool), checked at the route edge; mcp-tools.ts resolves it against the registered servers.
 */
import { z } from 'zod'

/** One `{"type":"mcp", …}` tool as a client sends it. */
export const mcpToolSchema = z.looseObject({
  type: z.literal('mcp'),
  server_label: z.string().trim().min(1, 'server_label is required').max(64),
  server_url: z.string().trim().min(1).max(2048).nullish(),
  server_description: z.string().max(2000).nullish(),
  allowed_tools: z.union([z.array(z.string().min(1).max(200)).max(512), z.looseObject({ tool_names: z.array(z.string().min(1).max(200)).max(512).nullish() })]).nullish(),
  require_approval: z.unknown().optional(),
  headers: z.unknown().optional(),
  connector_id: z.unknown().optional(),
})
export type McpToolSpec = z.infer<typeof mcpToolSchema>
