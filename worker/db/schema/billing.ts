/**
 * Money tables: model prices, user groups (ratio), redemption codes, payment gateways and orders.
 * All quota columns are integer units (500,000 units = $1 by default).
 */
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'

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
})

export const userGroups = sqliteTable('user_groups', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  symbol: text('symbol').notNull().unique(),
  name: text('name').notNull(),
  ratio: real('ratio').notNull().default(1),
  apiRate: integer('api_rate').notNull().default(600),
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
  },
  (t) => [index('idx_redemptions_name').on(t.name), index('idx_redemptions_status').on(t.status)]
)

export const payments = sqliteTable('payments', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  type: text('type').notNull(),
  uuid: text('uuid').notNull().unique(),
  name: text('name').notNull(),
  icon: text('icon').notNull().default(''),
  notifyDomain: text('notify_domain').notNull().default(''),
  fixedFee: real('fixed_fee').notNull().default(0),
  percentFee: real('percent_fee').notNull().default(0),
  currency: text('currency').notNull().default('USD'),
  config: text('config').notNull().default('{}'),
  sort: integer('sort').notNull().default(0),
  enable: integer('enable', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at').notNull().default(0),
})

export const orders = sqliteTable(
  'orders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    gatewayId: integer('gateway_id').notNull(),
    userId: integer('user_id').notNull(),
    tradeNo: text('trade_no').notNull().unique(),
    gatewayNo: text('gateway_no').notNull().default(''),
    amount: integer('amount').notNull(),
    orderAmount: real('order_amount').notNull(),
    orderCurrency: text('order_currency').notNull().default('USD'),
    quota: integer('quota').notNull(),
    fee: real('fee').notNull().default(0),
    discount: real('discount').notNull().default(0),
    /** pending, success, failed, closed. */
    status: text('status').notNull().default('pending'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull().default(0),
  },
  (t) => [index('idx_orders_user').on(t.userId, t.createdAt), index('idx_orders_status').on(t.status)]
)

export type Price = typeof prices.$inferSelect
export type UserGroup = typeof userGroups.$inferSelect
