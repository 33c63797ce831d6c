/**
 * Accounts and their sessions. Field names follow one-hub's `users` table so data can be imported.
 * Balance columns (quota, used_quota, request_count) are written only by the user's wallet
 * Durable Object (worker/wallet/user-wallet.ts); everything else by the management API.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { limitColumns } from './limits'

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull().unique(),
    password: text('password').notNull().default(''),
    displayName: text('display_name').notNull().default(''),
    role: integer('role').notNull().default(1),
    status: integer('status').notNull().default(1),
    email: text('email').notNull().default(''),
    avatarUrl: text('avatar_url').notNull().default(''),
    githubId: text('github_id').notNull().default(''),
    oidcId: text('oidc_id').notNull().default(''),
    wechatId: text('wechat_id').notNull().default(''),
    larkId: text('lark_id').notNull().default(''),
    telegramId: integer('telegram_id').notNull().default(0),
    /** Send low-balance, payment and task notices to the bound Telegram chat (the user's choice). */
    telegramNotify: integer('telegram_notify', { mode: 'boolean' }).notNull().default(false),
    /** The user's own notices (worker/notify/user-notices.ts): the low-balance reminder mail, and key budget notices by mail and Telegram. */
    notifyBalanceEmail: integer('notify_balance_email', { mode: 'boolean' }).notNull().default(true),
    notifyBudgetEmail: integer('notify_budget_email', { mode: 'boolean' }).notNull().default(false),
    notifyBudgetTelegram: integer('notify_budget_telegram', { mode: 'boolean' }).notNull().default(false),
    /** SHA-256 of the personal access token (the token itself is shown once). */
    accessToken: text('access_token'),
    quota: integer('quota').notNull().default(0),
    usedQuota: integer('used_quota').notNull().default(0),
    requestCount: integer('request_count').notNull().default(0),
    group: text('group').notNull().default('default'),
    affCode: text('aff_code').unique(),
    affCount: integer('aff_count').notNull().default(0),
    affQuota: integer('aff_quota').notNull().default(0),
    inviterId: integer('inviter_id').notNull().default(0),
    lastLoginTime: integer('last_login_time').notNull().default(0),
    lastLoginIp: text('last_login_ip').notNull().default(''),
    createdTime: integer('created_time').notNull().default(0),
    /** Ceilings on the limits and budget of the user's tokens, set by an administrator (limits.ts). */
    ...limitColumns(),
  },
  (t) => [
    index('idx_users_email').on(t.email),
    index('idx_users_access_token').on(t.accessToken),
    index('idx_users_created_time').on(t.createdTime),
    index('idx_users_inviter').on(t.inviterId),
  ]
)

export const sessions = sqliteTable(
  'sessions',
  {
    /** SHA-256 of the session id held in the HttpOnly cookie. */
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** Last request seen on this session, refreshed at most every few minutes (0 = never since sign-in). */
    lastSeenAt: integer('last_seen_at').notNull().default(0),
    /** When the password (or a registered second factor) was last confirmed on this session. */
    stepUpAt: integer('step_up_at').notNull().default(0),
  },
  (t) => [index('idx_sessions_user').on(t.userId), index('idx_sessions_expires').on(t.expiresAt)]
)

export type User = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert
