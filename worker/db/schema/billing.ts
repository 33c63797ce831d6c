/**
 * Money tables: model prices, user groups (ratio), redemption codes, payment gateways and orders,
 * and the mailboxes that released sign-up rewards.
 * All quota columns are integer units (500,000 units = $1 by default).
 */
import { sql } from 'drizzle-orm'
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import type { PriceTier } from '../../../shared/contract/pricing'
import type { OrderedPlanTerms } from '../../../shared/contract/plans'

export const prices = sqliteTable('prices', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  model: text('model').notNull().unique(),
  /** 'tokens' or 'times'. */
  type: text('type').notNull().default('tokens'),
  channelType: integer('channel_type').notNull().default(0),
  input: real('input').notNull().default(0),
  output: real('output').notNull().default(0),
  locked: integer('locked', { mode: 'boolean' }).notNull().default(false),
  extraRatios: text('extra_ratios', { mode: 'json' }).$type<Record<string, number>>(),
  /** Long-context tier: the input/output ratios above `threshold_tokens` prompt tokens (null: none). */
  tier: text('tier', { mode: 'json' }).$type<PriceTier>(),
  /** Fixed fee per request, quota units. */
  fee: integer('fee').notNull().default(0),
})

export const userGroups = sqliteTable('user_groups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  symbol: text('symbol').notNull().unique(),
  name: text('name').notNull(),
  ratio: real('ratio').notNull().default(1),
  apiRate: integer('api_rate').notNull().default(600),
  /** Tokens per minute per user of the group, prompt + completion (0 = none). */
  tpm: integer('tpm').notNull().default(0),
  public: integer('public', { mode: 'boolean' }).notNull().default(false),
  promotion: integer('promotion', { mode: 'boolean' }).notNull().default(false),
  min: integer('min').notNull().default(0),
  max: integer('max').notNull().default(0),
  enable: integer('enable', { mode: 'boolean' }).notNull().default(true),
})

export const redemptions = sqliteTable(
  'redemptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').notNull().default(0),
    key: text('key').notNull().unique(),
    /** 1 unused, 2 disabled, 3 used. */
    status: integer('status').notNull().default(1),
    name: text('name').notNull(),
    quota: integer('quota').notNull().default(0),
    createdTime: integer('created_time').notNull().default(0),
    redeemedTime: integer('redeemed_time').notNull().default(0),
    /** The administrator who created the code (0 before this was recorded); only root redeems its own codes. */
    createdBy: integer('created_by').notNull().default(0),
    /** A plan the code grants instead of quota (0: a quota code; migration 0031). */
    planId: integer('plan_id').notNull().default(0),
  },
  (t) => [index('idx_redemptions_name').on(t.name), index('idx_redemptions_status').on(t.status)]
)

/**
 * Payment gateways (one-hub's `payments`). Money is never a float here: `fixed_fee` is integer
 * cents of USD; `percent_fee` is a fraction (0.05 = 5 %). `config` is the gateway's JSON settings,
 * secrets included (the API never returns them). A deleted gateway keeps its row (`deleted_at`) so
 * its orders still name it.
 */
export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** stripe | alipay | wxpay | epay (worker/payments/gateways/registry.ts). */
    type: text('type').notNull(),
    /** Public id (32 hex characters): the user API and the notify URL name the gateway by it. */
    uuid: text('uuid').notNull().unique(),
    name: text('name').notNull(),
    icon: text('icon').notNull().default(''),
    notifyDomain: text('notify_domain').notNull().default(''),
    /** Integer cents of USD. */
    fixedFee: integer('fixed_fee').notNull().default(0),
    percentFee: real('percent_fee').notNull().default(0),
    /** USD or CNY: what the gateway charges in. */
    currency: text('currency').notNull().default('USD'),
    config: text('config').notNull().default('{}'),
    sort: integer('sort').notNull().default(0),
    enable: integer('enable', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at').notNull().default(0),
    updatedAt: integer('updated_at').notNull().default(0),
    /** 0 = live; otherwise when it was deleted (it then takes no orders and no notifies). */
    deletedAt: integer('deleted_at').notNull().default(0),
  },
  (t) => [index('idx_payments_sort').on(t.deletedAt, t.sort)]
)

/**
 * Top-up orders (one-hub's `orders`). `amount` is the whole USD the user asked for; `quota` what it
 * credits; `order_amount`, `fee` and `discount` are integer cents (fen for CNY) of `order_currency`
 * — except `fee`, which is USD cents before conversion, as in one-hub. Status moves pending →
 * success once (a conditional UPDATE), pending → closed by the cron, success → refunded by an admin;
 * a closed order that is paid later still becomes success.
 */
export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gatewayId: integer('gateway_id').notNull(),
    userId: integer('user_id').notNull(),
    tradeNo: text('trade_no').notNull().unique(),
    /** The gateway's transaction id, set when the payment is confirmed. */
    gatewayNo: text('gateway_no').notNull().default(''),
    /** The gateway's id of the checkout itself (Stripe session id), for status queries. */
    gatewayRef: text('gateway_ref').notNull().default(''),
    amount: integer('amount').notNull(),
    /** Integer cents (fen) of order_currency: what the user pays. */
    orderAmount: integer('order_amount').notNull(),
    orderCurrency: text('order_currency').notNull().default('USD'),
    quota: integer('quota').notNull(),
    /** Integer USD cents. */
    fee: integer('fee').notNull().default(0),
    /** The fee in integer cents of order_currency (NULL: a non-USD order placed before migration 0020). */
    orderFee: integer('order_fee'),
    /** Integer cents of order_currency: list price − what is paid (negative with a fixed fee). */
    discount: integer('discount').notNull().default(0),
    /** pending, success, failed, closed, refunded. */
    status: text('status').notNull().default('pending'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull().default(0),
    paidAt: integer('paid_at').notNull().default(0),
    /** The plan a plan order buys (NULL: a top-up; migration 0034). */
    planId: integer('plan_id'),
    /** A plan order's terms and duration when it was placed (NULL: a top-up, or placed before migration 0035). */
    planTerms: text('plan_terms', { mode: 'json' }).$type<OrderedPlanTerms>(),
    /** A renewal order: the subscription it extends by one duration (NULL: none; migration 0037). */
    subscriptionId: integer('subscription_id'),
    /** What makes a renewal order once (`stripe-invoice:<id>`, `renew:<subscription>:<expires_at>`). */
    renewalKey: text('renewal_key'),
    /** The expiry a paid renewal order extended (0: not applied yet). */
    renewedFrom: integer('renewed_from').notNull().default(0),
  },
  (t) => [
    index('idx_orders_user').on(t.userId, t.createdAt),
    index('idx_orders_status').on(t.status, t.createdAt),
    index('idx_orders_gateway').on(t.gatewayId, t.createdAt),
    uniqueIndex('idx_orders_gateway_no').on(t.gatewayId, t.gatewayNo).where(sql`${t.gatewayNo} <> ''`),
    index('idx_orders_plan_paid').on(t.status, t.paidAt, t.planId).where(sql`${t.planId} IS NOT NULL`),
    uniqueIndex('idx_orders_renewal_key').on(t.renewalKey),
    index('idx_orders_subscription').on(t.subscriptionId, t.status).where(sql`${t.subscriptionId} IS NOT NULL`),
  ]
)

export type Payment = typeof payments.$inferSelect
export type Order = typeof orders.$inferSelect
export type Price = typeof prices.$inferSelect
export type UserGroup = typeof userGroups.$inferSelect

/**
 * Mailboxes (normalised, worker/mail/mailbox.ts) that released sign-up rewards, and the account
 * they paid: a mailbox pays once, however often it is unbound and bound again (security finding 7).
 */
export const signupRewardEmails = sqliteTable('signup_reward_emails', {
  email: text('email').primaryKey(),
  userId: integer('user_id').notNull(),
  createdAt: integer('created_at').notNull(),
})
