/**
 * The ledger of every charge and event. Written in batches by the wallet Durable Objects (together
 * with the balance change they explain) and by the management API for non-balance events.
 * Indexed for every filter of the log page; `metadata` holds the price breakdown.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'

export const logs = sqliteTable(
  'logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull().default(0),
    createdAt: integer('created_at').notNull(),
    type: integer('type').notNull(),
    content: text('content').notNull().default(''),
    username: text('username').notNull().default(''),
    tokenName: text('token_name').notNull().default(''),
    tokenId: integer('token_id').notNull().default(0),
    modelName: text('model_name').notNull().default(''),
    upstreamModel: text('upstream_model').notNull().default(''),
    quota: integer('quota').notNull().default(0),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    channelId: integer('channel_id').notNull().default(0),
    /** Total duration in milliseconds. */
    requestTime: integer('request_time').notNull().default(0),
    /** Time to first byte of the answer in milliseconds (streams). */
    firstResponseTime: integer('first_response_time').notNull().default(0),
    isStream: integer('is_stream', { mode: 'boolean' }).notNull().default(false),
    sourceIp: text('source_ip').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** The subscription the row drew from (0: the balance; migration 0030). */
    subscriptionId: integer('subscription_id').notNull().default(0),
  },
  (t) => [
    index('idx_logs_created').on(t.createdAt),
    index('idx_logs_user_created').on(t.userId, t.createdAt),
    index('idx_logs_type_created').on(t.type, t.createdAt),
    index('idx_logs_token_created').on(t.tokenName, t.createdAt),
    index('idx_logs_model_created').on(t.modelName, t.createdAt),
    index('idx_logs_channel_created').on(t.channelId, t.createdAt),
    index('idx_logs_username_created').on(t.username, t.createdAt),
  ]
)

/** Daily rollup of consume logs per user × channel × model; dashboards read this, never raw logs. */
export const statistics = sqliteTable(
  'statistics',
  {
    /** YYYY-MM-DD (UTC). */
    date: text('date').notNull(),
    userId: integer('user_id').notNull(),
    channelId: integer('channel_id').notNull(),
    modelName: text('model_name').notNull(),
    requestCount: integer('request_count').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    requestTime: integer('request_time').notNull().default(0),
    /** Prompt tokens read from the supplier's prompt cache (filled by the rollup from log metadata). */
    cachedTokens: integer('cached_tokens').notNull().default(0),
    /** Quota the response cache saved (cache hits' `saved_quota`; migration 0028). */
    savedQuota: integer('saved_quota').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.date, t.userId, t.channelId, t.modelName] }),
    index('idx_statistics_user_date').on(t.userId, t.date),
    // Covers the admin analytics (range by date, grouped by date, model or user) without table lookups.
    index('idx_statistics_date_cover').on(t.date, t.modelName, t.userId, t.requestCount, t.quota, t.promptTokens, t.completionTokens, t.requestTime),
  ]
)

/**
 * Day × model sums of `statistics` (migration 0022: kept by triggers on every write to `statistics`);
 * the admin analytics' time series, top models and cache-hit share read it.
 */
export const statisticsModels = sqliteTable(
  'statistics_models',
  {
    date: text('date').notNull(),
    modelName: text('model_name').notNull(),
    requestCount: integer('request_count').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    requestTime: integer('request_time').notNull().default(0),
    cachedTokens: integer('cached_tokens').notNull().default(0),
    savedQuota: integer('saved_quota').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.date, t.modelName] })]
)

/** Day × user sums of `statistics` (same triggers); the admin analytics' top users read it. */
export const statisticsUsers = sqliteTable(
  'statistics_users',
  {
    date: text('date').notNull(),
    userId: integer('user_id').notNull(),
    requestCount: integer('request_count').notNull().default(0),
    quota: integer('quota').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.date, t.userId] }), index('idx_statistics_users_cover').on(t.date, t.userId, t.quota, t.requestCount)]
)

/**
 * The archive manifest: one row per gzip NDJSON object of log rows in the LOG_ARCHIVE R2 bucket,
 * written in the same batch that deletes those rows from `logs` (logs/log-archive.ts).
 */
export const logArchives = sqliteTable(
  'log_archives',
  {
    key: text('key').primaryKey(),
    /** Oldest and newest `created_at` of the object's rows (Unix seconds). */
    fromTs: integer('from_ts').notNull(),
    toTs: integer('to_ts').notNull(),
    minId: integer('min_id').notNull(),
    maxId: integer('max_id').notNull(),
    rows: integer('rows').notNull(),
    /** Compressed size in bytes. */
    bytes: integer('bytes').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('idx_log_archives_to').on(t.toTs, t.fromTs)]
)

export type Log = typeof logs.$inferSelect
export type NewLog = typeof logs.$inferInsert

/**
 * Idempotency markers of wallet write-behind batches: a batch whose marker already exists was
 * applied before (the wallet crashed before forgetting it), so it is not applied twice.
 */
export const walletFlushes = sqliteTable(
  'wallet_flushes',
  {
    userId: integer('user_id').notNull(),
    seq: integer('seq').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.seq] })]
)

/**
 * Log rows a wallet could not write after repeated attempts while D1 itself answered: parked here
 * (the row as JSON) so they never block the write-behind queue or disappear; root lists and
 * re-inserts them (admin/logs/dead-letters.routes.ts).
 */
export const walletDeadLetters = sqliteTable(
  'wallet_dead_letters',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    walletKey: text('wallet_key').notNull(),
    payload: text('payload').notNull(),
    error: text('error').notNull().default(''),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('wallet_dead_letters_key').on(t.userId, t.walletKey)]
)
