/**
 * Wire types of the MCP tool servers API (/api/mcp/server/): header values and the OAuth
 * client_secret never leave the server.
 */

/** A server's OAuth client-credentials grant as stored (RFC 6749 §4.4, client_secret_basic). */
export interface McpOAuthConfig {
  token_url: string
  client_id: string
  client_secret: string
  scope?: string
}

/** The grant as the console sees it: everything but the secret. */
export interface McpOAuthView {
  token_url: string
  client_id: string
  scope: string
  has_secret: boolean
}

export interface McpServerView {
  id: number
  name: string
  url: string
  /** Names of the stored auth headers (their values are write-only). */
  header_names: string[]
  /** The OAuth client-credentials grant (its secret write-only), or null. */
  oauth: McpOAuthView | null
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
  /**
   * Left out: the stored grant stays; null: none. `client_secret` left out keeps the stored one,
   * unless the URL or the token URL changes (then it must be typed again).
   */
  oauth?: { token_url: string; client_id: string; client_secret?: string; scope?: string } | null
  groups: string[]
  enabled: boolean
  timeout_ms: number
  free: boolean
}
