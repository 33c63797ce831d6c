/**
 * MCP tool servers: the Streamable HTTP servers the /mcp endpoint aggregates (channels/mcp-servers.ts).
 * `headers` are the admin's write-only auth headers, sent only to that server; `groups` the user
 * groups that may use it (empty = every group); `oauth` the optional client-credentials grant whose
 * token is sent as `Authorization: Bearer` (its client_secret write-only like the headers).
 */
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import type { McpOAuthConfig } from '../../../shared/contract/mcp'

export const mcpServers = sqliteTable('mcp_servers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  url: text('url').notNull(),
  headers: text('headers', { mode: 'json' }).$type<Record<string, string>>().notNull().default({}),
  oauth: text('oauth', { mode: 'json' }).$type<McpOAuthConfig>(),
  groups: text('groups', { mode: 'json' }).$type<string[]>().notNull().default([]),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  timeoutMs: integer('timeout_ms').notNull().default(30000),
  /** Calls are not priced (and not refused for want of a price). */
  free: integer('free', { mode: 'boolean' }).notNull().default(false),
  createdTime: integer('created_time').notNull().default(0),
  updatedTime: integer('updated_time').notNull().default(0),
})

export type McpServer = typeof mcpServers.$inferSelect
