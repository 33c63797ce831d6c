/**
 * Upstream suppliers ("channels") and the group × model routing index (`abilities`), which is
 * rebuilt from the channel row on every channel write. `used_quota` is written behind by wallets.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const channels = sqliteTable(
  'channels',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    type: integer('type').notNull().default(1),
    key: text('key').notNull(),
    /** 1 enabled, 2 manually disabled, 3 auto-disabled, 4 disabled by a speed test. */
    status: integer('status').notNull().default(1),
    statusReason: text('status_reason').notNull().default(''),
    name: text('name').notNull(),
    weight: integer('weight').notNull().default(1),
    priority: integer('priority').notNull().default(0),
    /** Comma-separated user groups. */
    group: text('group').notNull().default('default'),
    /** Comma-separated model names; a trailing `*` is a wildcard. */
    models: text('models').notNull().default(''),
    tag: text('tag').notNull().default(''),
    baseUrl: text('base_url').notNull().default(''),
    /** Azure API version / region / supplier-specific parameter. */
    other: text('other').notNull().default(''),
    balance: real('balance').notNull().default(0),
    balanceUpdatedTime: integer('balance_updated_time').notNull().default(0),
    testTime: integer('test_time').notNull().default(0),
    responseTime: integer('response_time').notNull().default(0),
    testModel: text('test_model').notNull().default(''),
    usedQuota: integer('used_quota').notNull().default(0),
    modelMapping: text('model_mapping').notNull().default(''),
    modelHeaders: text('model_headers').notNull().default(''),
    customParameter: text('custom_parameter').notNull().default(''),
    proxy: text('proxy').notNull().default(''),
    onlyChat: integer('only_chat', { mode: 'boolean' }).notNull().default(false),
    /** Whether auto-disable may act on this channel (per-channel opt-out). */
    autoBan: integer('auto_ban', { mode: 'boolean' }).notNull().default(true),
    plugin: text('plugin').notNull().default(''),
    /** 'batch': one key (batch add made one channel per line); 'pool': several keys, one per line, rotated. */
    keyMode: text('key_mode').notNull().default('batch'),
    /** Auth/billing failures within the window before auto-disable; 0 = the global setting. */
    autoDisableThreshold: integer('auto_disable_threshold').notNull().default(0),
    /** Seconds of that window; 0 = the global setting. */
    autoDisableWindow: integer('auto_disable_window').notNull().default(0),
    createdTime: integer('created_time').notNull().default(0),
  },
  (t) => [index('idx_channels_tag').on(t.tag), index('idx_channels_status').on(t.status)]
)

export const abilities = sqliteTable(
  'abilities',
  {
    group: text('group').notNull(),
    model: text('model').notNull(),
    channelId: integer('channel_id').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    priority: integer('priority').notNull().default(0),
    weight: integer('weight').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.group, t.model, t.channelId] }), index('idx_abilities_channel').on(t.channelId), index('idx_abilities_model').on(t.model)]
)

/**
 * Auto-disabled keys of pool channels (key_hash = sha-256 prefix of the key) and the cron retest
 * schedule (exponential backoff); the row with key_hash '' schedules the retest of an
 * auto-disabled channel itself. A key without a row is enabled.
 */
export const channelKeyStates = sqliteTable(
  'channel_key_states',
  {
    channelId: integer('channel_id').notNull(),
    keyHash: text('key_hash').notNull(),
    status: integer('status').notNull().default(3),
    reason: text('reason').notNull().default(''),
    changedAt: integer('changed_at').notNull().default(0),
    retestAt: integer('retest_at').notNull().default(0),
    retests: integer('retests').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.keyHash] }), index('idx_channel_key_states_retest').on(t.retestAt)]
)

/** Every automatic or manual status change of a channel or one of its keys (key_hash '' = the channel). */
export const channelStatusHistory = sqliteTable(
  'channel_status_history',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channelId: integer('channel_id').notNull(),
    keyHash: text('key_hash').notNull().default(''),
    createdAt: integer('created_at').notNull(),
    status: integer('status').notNull(),
    reason: text('reason').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
  },
  (t) => [index('idx_channel_status_history_channel').on(t.channelId, t.createdAt)]
)

export type Channel = typeof channels.$inferSelect
