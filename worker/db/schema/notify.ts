/**
 * Alerts (worker/notify/): notification channels (`secret` write-only: the API shows has_secret),
 * the (event, subject) cool-down marks that deduplicate notices, and the delivery log — one row per
 * notice and channel, retried by the frequent cron until delivered or out of attempts.
 */
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const notifyChannels = sqliteTable('notify_channels', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  type: text('type').notNull(),
  url: text('url').notNull().default(''),
  secret: text('secret').notNull().default(''),
  config: text('config', { mode: 'json' }).$type<Record<string, string>>().notNull().default({}),
  events: text('events', { mode: 'json' }).$type<string[]>().notNull().default([]),
  enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull().default(0),
  updatedAt: integer('updated_at').notNull().default(0),
})

export const notifyMarks = sqliteTable(
  'notify_marks',
  {
    event: text('event').notNull(),
    subject: text('subject').notNull(),
    sentAt: integer('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.event, t.subject] })]
)

export const notifyDeliveries = sqliteTable(
  'notify_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    channelId: integer('channel_id').notNull(),
    event: text('event').notNull(),
    subject: text('subject').notNull().default(''),
    /** The notice as sent (JSON): the cron's retries send it again. */
    payload: text('payload').notNull().default('{}'),
    /** pending (a retry is due at next_at) | delivered | failed (out of attempts). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    httpStatus: integer('http_status').notNull().default(0),
    /** The last attempt's error, secrets and URLs redacted. */
    error: text('error').notNull().default(''),
    nextAt: integer('next_at').notNull().default(0),
    createdAt: integer('created_at').notNull().default(0),
    updatedAt: integer('updated_at').notNull().default(0),
  },
  (t) => [index('notify_deliveries_channel').on(t.channelId, t.id), index('notify_deliveries_retry').on(t.status, t.nextAt)]
)

export type NotifyChannel = typeof notifyChannels.$inferSelect
export type NotifyDelivery = typeof notifyDeliveries.$inferSelect
