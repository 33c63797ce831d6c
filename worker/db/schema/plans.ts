/**
 * Subscription plans and the subscriptions users hold (issue 33; migration 0030). A subscription
 * copies the plan's terms when it starts, so a plan edit never changes what was bought. Window use
 * is the wallet's (its Durable Object holds and settles it); logs name the subscription they drew
 * from (`logs.subscription_id`), so Σ of a window's rows is its use.
 */
import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { PlanModelItem, PlanTerms, PlanWindow } from '../../../shared/contract/plans'

export const plans = sqliteTable('plans', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  /** US cents (the wire's `price` is USD). */
  priceCents: integer('price_cents').notNull().default(0),
  /** 'hour' | 'day' | 'week' | 'month' | 'year' | 'unlimited'. */
  durationUnit: text('duration_unit').notNull().default('month'),
  durationCount: integer('duration_count').notNull().default(1),
  windows: text('windows', { mode: 'json' }).notNull().$type<PlanWindow[]>(),
  models: text('models', { mode: 'json' }).notNull().$type<PlanModelItem[]>(),
  group: text('group').notNull().default(''),
  channelTags: text('channel_tags', { mode: 'json' }).notNull().$type<string[]>(),
  allowBalanceFallback: integer('allow_balance_fallback', { mode: 'boolean' }).notNull().default(true),
  maxPerUser: integer('max_per_user').notNull().default(0),
  priority: integer('priority').notNull().default(0),
  published: integer('published', { mode: 'boolean' }).notNull().default(false),
  deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull().default(0),
  updatedAt: integer('updated_at').notNull().default(0),
})

export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull(),
    planId: integer('plan_id').notNull(),
    /** The plan's terms when the subscription started. */
    terms: text('terms', { mode: 'json' }).notNull().$type<PlanTerms>(),
    /** SUBSCRIPTION_STATUS: 1 active, 2 expired, 3 revoked. */
    status: integer('status').notNull().default(1),
    /** 'grant' | 'order' | 'redemption' | 'default'. */
    source: text('source').notNull().default('grant'),
    /** Idempotency key of the grant or order that made it. */
    key: text('key').notNull(),
    startsAt: integer('starts_at').notNull(),
    /** Unix ms; 0 = never expires. */
    expiresAt: integer('expires_at').notNull().default(0),
    autoRenew: integer('auto_renew', { mode: 'boolean' }).notNull().default(false),
    /** The Stripe Subscription (`sub_…`) that renews it ('' for none; migration 0037). */
    stripeSubscriptionId: text('stripe_subscription_id').notNull().default(''),
    /** Stripe deleted that Subscription: it renews no more and cannot be switched back on. */
    stripeEnded: integer('stripe_ended', { mode: 'boolean' }).notNull().default(false),
    /** The user's group before the plan moved them (restored when it ends); '' when it did not. */
    previousGroup: text('previous_group').notNull().default(''),
    createdBy: integer('created_by').notNull().default(0),
    createdAt: integer('created_at').notNull().default(0),
    updatedAt: integer('updated_at').notNull().default(0),
  },
  (t) => [
    uniqueIndex('idx_subscriptions_key').on(t.key),
    index('idx_subscriptions_user_status').on(t.userId, t.status),
    index('idx_subscriptions_status_plan').on(t.status, t.planId, t.expiresAt),
    index('idx_subscriptions_stripe').on(t.stripeSubscriptionId).where(sql`${t.stripeSubscriptionId} <> ''`),
  ]
)
