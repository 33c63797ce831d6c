/** Wire types of the MCP tool servers API (/api/mcp/server/): header values never leave the server. */

export interface McpServerView {
  id: number
  name: string
  url: string
  /** Names of the stored auth headers (their values are write-only). */
  header_names: string[]
  groups: string[]
  enabled: boolean
  timeout_ms: number
  free: boolean
  created_time: number
  updated_time: number
}

export interface McpToolView {
  name: string
  /** The name a client of /mcp calls it by: `<server>__<tool>`. */
  gateway_name: string
  description: string
  input_schema: unknown
}

/** The answer of test and refresh: the tools just listed, and when (ms). */
export interface McpToolList {
  ok: boolean
  listed_at: number
  tools: McpToolView[]
}

/** GET /api/mcp/tools: a tool a key of the asked group could call through /mcp, by its gateway name. */
export interface McpGroupTool {
  name: string
  description: string
}

/** Body of POST /api/mcp/server/ and PUT /api/mcp/server/:id. */
export interface McpServerBody {
  name: string
  url: string
  /** Left out: the stored headers stay. */
  headers?: Record<string, string>
  groups: string[]
  enabled: boolean
  timeout_ms: number
  free: boolean
}
