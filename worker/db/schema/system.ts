/**
 * Site options (key/value settings), the Telegram bot menu and asynchronous tasks
 * (Midjourney-proxy tasks and Suno/Kling-style tasks).
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'

export const options = sqliteTable('options', {
  key: text('key').primaryKey(),
  value: text('value').notNull().default(''),
})

export const telegramMenus = sqliteTable('telegram_menus', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  command: text('command').notNull().unique(),
  description: text('description').notNull().default(''),
  parseMode: text('parse_mode').notNull().default('MarkdownV2'),
  replyMessage: text('reply_message').notNull().default(''),
})

export const midjourneys = sqliteTable(
  'midjourneys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    code: integer('code').notNull().default(0),
    userId: integer('user_id').notNull(),
    action: text('action').notNull().default(''),
    mjId: text('mj_id').notNull().default(''),
    prompt: text('prompt').notNull().default(''),
    promptEn: text('prompt_en').notNull().default(''),
    description: text('description').notNull().default(''),
    state: text('state').notNull().default(''),
    submitTime: integer('submit_time').notNull().default(0),
    startTime: integer('start_time').notNull().default(0),
    finishTime: integer('finish_time').notNull().default(0),
    imageUrl: text('image_url').notNull().default(''),
    status: text('status').notNull().default(''),
    progress: text('progress').notNull().default(''),
    failReason: text('fail_reason').notNull().default(''),
    channelId: integer('channel_id').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    buttons: text('buttons').notNull().default(''),
    properties: text('properties').notNull().default(''),
    mode: text('mode').notNull().default(''),
    tokenId: integer('token_id').notNull().default(0),
    /** SHA-256 (hex) of the per-task secret in the gateway notify URL given to the upstream. */
    notifySecret: text('notify_secret').notNull().default(''),
    /** The client's own notifyHook, to which updates are forwarded (MjNotifyEnabled). */
    notifyHook: text('notify_hook').notNull().default(''),
    /** What the submit drew from when a subscription covered it (JSON, worker/tasks/task-charge.ts); '' = the balance. */
    planCharge: text('plan_charge').notNull().default(''),
  },
  (t) => [index('idx_mj_user').on(t.userId, t.submitTime), index('idx_mj_mjid').on(t.mjId)]
)

export const tasks = sqliteTable(
  'tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    taskId: text('task_id').notNull(),
    platform: text('platform').notNull(),
    userId: integer('user_id').notNull(),
    channelId: integer('channel_id').notNull().default(0),
    quota: integer('quota').notNull().default(0),
    action: text('action').notNull().default(''),
    status: text('status').notNull().default(''),
    failReason: text('fail_reason').notNull().default(''),
    submitTime: integer('submit_time').notNull().default(0),
    startTime: integer('start_time').notNull().default(0),
    finishTime: integer('finish_time').notNull().default(0),
    progress: text('progress').notNull().default(''),
    properties: text('properties').notNull().default(''),
    data: text('data').notNull().default(''),
    notifyHook: text('notify_hook').notNull().default(''),
    tokenId: integer('token_id').notNull().default(0),
    createdAt: integer('created_at').notNull().default(0),
    updatedAt: integer('updated_at').notNull().default(0),
    /** What the submit drew from when a subscription covered it (JSON, worker/tasks/task-charge.ts); '' = the balance. */
    planCharge: text('plan_charge').notNull().default(''),
  },
  (t) => [index('idx_tasks_user').on(t.userId, t.submitTime), index('idx_tasks_task_id').on(t.taskId)]
)
