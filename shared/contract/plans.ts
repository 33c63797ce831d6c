/**
 * Subscription plans (issue 33), shared by the worker and the console: the plan body the admin API
 * takes, the plan and subscription views it answers, and the terms a subscription copies from its
 * plan (which the wallet reads to cover requests). Allowances are counted in quota units or in
 * requests; windows roll at period starts in the BudgetTimezone setting.
 */
import { z } from 'zod'

export const PLAN_PERIODS = ['hour', 'day', 'week', 'month'] as const
export type PlanPeriod = (typeof PLAN_PERIODS)[number]
export const PLAN_DURATION_UNITS = ['hour', 'day', 'week', 'month', 'year', 'unlimited'] as const
export type PlanDurationUnit = (typeof PLAN_DURATION_UNITS)[number]

/** How many channel tags a plan may name. */
export const PLAN_CHANNEL_TAGS_MAX = 16

const allowance = z.number().int().positive().max(Number.MAX_SAFE_INTEGER)

/** A usage window: an allowance that renews at each period start, in quota units or in requests. */
export const planWindowSchema = z.union([
  z.object({ period: z.enum(PLAN_PERIODS), quota: allowance }).strict(),
  z.object({ period: z.enum(PLAN_PERIODS), requests: allowance }).strict(),
])
export type PlanWindow = z.infer<typeof planWindowSchema>

/**
 * A per-model item: requests for models matching `pattern` (`*` wildcards; `*` alone is the "other
 * models" line) count against this allowance per window period of the plan's first window, or are
 * not covered at all (`excluded`). Models matching no item are covered by the windows alone.
 */
export const planModelItemSchema = z.union([
  z.object({ pattern: z.string().min(1).max(128), quota: allowance }).strict(),
  z.object({ pattern: z.string().min(1).max(128), requests: allowance }).strict(),
  z.object({ pattern: z.string().min(1).max(128), excluded: z.literal(true) }).strict(),
])
export type PlanModelItem = z.infer<typeof planModelItemSchema>

/** POST/PUT /api/plan/ body. `price` is USD (converted like top-ups for CNY gateways). */
export const planBodySchema = z
  .object({
    name: z.string().trim().min(1).max(64),
    description: z.string().max(2000).default(''),
    /** USD with at most two decimals (stored as integer cents). */
    price: z
      .number()
      .finite()
      .min(0)
      .max(100_000)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'must have at most two decimals'),
    duration_unit: z.enum(PLAN_DURATION_UNITS),
    duration_count: z.number().int().min(1).max(1000).default(1),
    windows: z.array(planWindowSchema).max(8).default([]),
    models: z.array(planModelItemSchema).max(64).default([]),
    group: z.string().max(32).default(''),
    /**
     * The channel tags the plan's traffic is limited to (none: any channel): the plan covers a
     * request only when a channel with one of these tags serves it (worker/wallet/wallet-plans.ts).
     */
    channel_tags: z
      .array(z.string().trim().min(1).max(100))
      .max(PLAN_CHANNEL_TAGS_MAX)
      .refine((tags) => new Set(tags).size === tags.length, 'channel_tags: each tag once')
      .default([]),
    allow_balance_fallback: z.boolean().default(true),
    max_per_user: z.number().int().min(0).max(1_000_000).default(0),
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
    published: z.boolean().default(false),
  })
  .strict()
export type PlanBody = z.infer<typeof planBodySchema>

/** A plan as the API answers it. */
export interface Plan extends PlanBody {
  id: number
  created_at: number
  updated_at: number
}

/** What a subscription bought: the plan's terms when it started (a later plan edit changes nothing). */
export interface PlanTerms {
  name: string
  windows: PlanWindow[]
  models: PlanModelItem[]
  group: string
  channel_tags: string[]
  allow_balance_fallback: boolean
  priority: number
  /** The plan's price in US cents when the subscription started (a revoke's pro-rata refund is a share of it). */
  price_cents?: number
}

/**
 * What a plan order bought, frozen when it was placed (orders.plan_terms): the terms its
 * subscription copies and the duration it runs for, so that a plan edited before the payment
 * arrives does not change them.
 */
export interface OrderedPlanTerms {
  terms: PlanTerms
  duration_unit: PlanDurationUnit
  duration_count: number
  /** The buyer asked for auto-renew (a Stripe order then pays by a recurring Subscription). */
  auto_renew?: boolean
}

/** One window of a subscription as GET /api/user/subscription answers it. */
export interface SubscriptionWindowView {
  period: PlanPeriod
  /** The allowance: quota units or requests (exactly one is set). */
  quota?: number
  requests?: number
  used: number
  /** Unix ms of the next window start. */
  resets_at: number
}

/** A renewal order to pay (POST /api/user/subscription/:id/renew pays it through `gateway`). */
export interface RenewalDue {
  trade_no: string
  /** Cents of `currency`. */
  amount_cents: number
  currency: string
  gateway: string
  /** The gateway's type (the QR dialog's title). */
  gateway_type: string
}

/** One subscription as GET /api/user/subscription (and the admin's user view) answers it. */
export interface SubscriptionView {
  id: number
  plan_id: number
  name: string
  /** SUBSCRIPTION_STATUS. */
  status: number
  source: string
  starts_at: number
  /** 0 = never expires. */
  expires_at: number
  auto_renew: boolean
  /** Renewed by a live Stripe Subscription (switching auto-renew off cancels it at the period's end). */
  stripe_recurring: boolean
  /** The renewal order waiting to be paid before this expiry (auto-renew without Stripe); null when none. */
  renewal_due: RenewalDue | null
  terms: PlanTerms
  windows: SubscriptionWindowView[]
}

/** POST /api/plan/grant body: a plan given without payment (`key` makes a retry change nothing). */
export const planGrantSchema = z
  .object({
    user_id: z.number().int().positive(),
    plan_id: z.number().int().positive(),
    key: z.string().min(1).max(128).optional(),
  })
  .strict()

/** POST /api/plan/subscribe body: a plan order through an enabled payment gateway (its uuid); answers a PlacedOrder like a top-up order. */
export const planSubscribeSchema = z
  .object({
    plan_id: z.number('must be a plan id').int('must be a plan id').positive('must be a plan id'),
    uuid: z.string().trim().min(1, 'Choose a payment method').max(64),
    /** Renew at each expiry: a recurring Stripe Subscription, or renewal orders on other gateways. */
    auto_renew: z.boolean().default(false),
  })
  .strict()
export type PlanSubscribeBody = z.input<typeof planSubscribeSchema>

/** PUT /api/user/subscription/:id body: switch the caller's subscription's auto-renew on or off. */
export const subscriptionAutoRenewSchema = z.object({ auto_renew: z.boolean() }).strict()

/** POST /api/plan/revoke body: end an active subscription, optionally refunding its unused share to the balance. */
export const planRevokeSchema = z.object({ subscription_id: z.number().int().positive(), refund: z.boolean().default(false) }).strict()

/** POST /api/plan/extend body: push an active subscription's expiry (`unlimited`: it never expires). */
export const planExtendSchema = z
  .object({
    subscription_id: z.number().int().positive(),
    duration_unit: z.enum(PLAN_DURATION_UNITS),
    duration_count: z.number().int().min(1).max(1000).default(1),
  })
  .strict()

/** POST /api/plan/revoke answer: the ended subscription and the quota units refunded to the balance (0: none). */
export interface PlanRevokeResult {
  subscription: SubscriptionView
  refunded: number
}
