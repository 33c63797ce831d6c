/**
 * API keys (relay tokens). `remain_quota` and `used_quota` are written only by the owner's wallet
 * Durable Object; the rest by the token API. `setting` keeps one-hub's JSON shape (limits, cache flag).
 */
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { limitColumns } from './limits'

export interface TokenSetting {
  limits?: {
    limit_model_setting?: { enabled: boolean; models: string[] }
    limits_ip_setting?: { enabled: boolean; whitelist: string[] }
  }
}

export const tokens = sqliteTable(
  'tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    key: text('key').notNull().unique(),
    status: integer('status').notNull().default(1),
    name: text('name').notNull(),
    createdTime: integer('created_time').notNull().default(0),
    accessedTime: integer('accessed_time').notNull().default(0),
    /** Unix seconds, or -1 for never. */
    expiredTime: integer('expired_time').notNull().default(-1),
    remainQuota: integer('remain_quota').notNull().default(0),
    unlimitedQuota: integer('unlimited_quota', { mode: 'boolean' }).notNull().default(false),
    usedQuota: integer('used_quota').notNull().default(0),
    group: text('group').notNull().default(''),
    chatCache: integer('chat_cache', { mode: 'boolean' }).notNull().default(false),
    /** Hidden tokens (the playground key) are not listed on the token page. */
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    setting: text('setting', { mode: 'json' }).$type<TokenSetting>().notNull().default({}),
    /** Imported from one-api/one-hub (scripts/import): accepted by lookup without this gateway's signature. */
    imported: integer('imported', { mode: 'boolean' }).notNull().default(false),
    /** MCP tool allowlist: a JSON list of patterns like `calc__*` ('' or [] = every tool of the key's group). */
    mcpTools: text('mcp_tools').notNull().default(''),
    ...limitColumns(),
  },
  (t) => [index('idx_tokens_user').on(t.userId, t.id), index('idx_tokens_name').on(t.name), index('idx_tokens_imported').on(t.imported).where(sql`${t.imported} = 1`)]
)

export type Token = typeof tokens.$inferSelect
