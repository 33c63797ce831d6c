/**
 * The plan registry's rows (issue 33): plans as stored (price in integer US cents) ↔ the wire
 * `Plan` (price in USD), create, edit, soft delete (a deleted plan is unpublished and kept, so
 * subscriptions and logs still name it) and the lists admins and users read.
 */
import { and, asc, desc, eq } from 'drizzle-orm'
import { createDb } from '../db/client'
import { plans } from '../db/schema'
import { notFound } from '../lib/errors'
import { nowSeconds } from '../lib/time'
import type { OrderedPlanTerms, Plan, PlanBody, PlanDurationUnit, PlanTerms } from '../../shared/contract/plans'

export type PlanRow = typeof plans.$inferSelect

/** USD → integer cents (the body schema allows at most two decimals, so rounding only drops float noise). */
export const toCents = (usd: number) => Math.round(usd * 100)

export const planView = (r: PlanRow): Plan => ({
  id: r.id,
  name: r.name,
  description: r.description,
  price: r.priceCents / 100,
  duration_unit: r.durationUnit as Plan['duration_unit'],
  duration_count: r.durationCount,
  windows: r.windows,
  models: r.models,
  group: r.group,
  channel_tags: r.channelTags,
  allow_balance_fallback: r.allowBalanceFallback,
  max_per_user: r.maxPerUser,
  priority: r.priority,
  published: r.published,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
})

/** What a subscription copies from its plan when it starts. */
export const termsOf = (r: PlanRow): PlanTerms => ({
  name: r.name,
  windows: r.windows,
  models: r.models,
  group: r.group,
  channel_tags: r.channelTags,
  allow_balance_fallback: r.allowBalanceFallback,
  priority: r.priority,
  price_cents: r.priceCents,
})

/** What a plan order freezes when it is placed: the terms and the duration its subscription will have. */
export const orderedTermsOf = (r: PlanRow): OrderedPlanTerms => ({
  terms: termsOf(r),
  duration_unit: r.durationUnit as PlanDurationUnit,
  duration_count: r.durationCount,
})

const columnsOf = (b: PlanBody) => ({
  name: b.name,
  description: b.description,
  priceCents: toCents(b.price),
  durationUnit: b.duration_unit,
  durationCount: b.duration_count,
  windows: b.windows,
  models: b.models,
  group: b.group,
  channelTags: b.channel_tags,
  allowBalanceFallback: b.allow_balance_fallback,
  maxPerUser: b.max_per_user,
  priority: b.priority,
  published: b.published,
})

/** A plan that is not deleted (or any stored plan, with `includeDeleted`); 404 otherwise. */
export async function findPlan(env: Env, id: number, includeDeleted = false): Promise<PlanRow> {
  const [row] = await createDb(env.DB)
    .select()
    .from(plans)
    .where(and(eq(plans.id, id), includeDeleted ? undefined : eq(plans.deleted, false)))
    .limit(1)
  if (!row) throw notFound('Plan not found')
  return row
}

/** Plans not deleted, by sort priority then id; `publishedOnly` for what users may see. */
export async function listPlans(env: Env, publishedOnly = false): Promise<PlanRow[]> {
  return createDb(env.DB)
    .select()
    .from(plans)
    .where(and(eq(plans.deleted, false), publishedOnly ? eq(plans.published, true) : undefined))
    .orderBy(desc(plans.priority), asc(plans.id))
}

export async function createPlan(env: Env, body: PlanBody): Promise<PlanRow> {
  const now = nowSeconds()
  const [row] = await createDb(env.DB)
    .insert(plans)
    .values({ ...columnsOf(body), createdAt: now, updatedAt: now })
    .returning()
  return row!
}

export async function updatePlan(env: Env, id: number, body: PlanBody): Promise<PlanRow> {
  const [row] = await createDb(env.DB)
    .update(plans)
    .set({ ...columnsOf(body), updatedAt: nowSeconds() })
    .where(and(eq(plans.id, id), eq(plans.deleted, false)))
    .returning()
  if (!row) throw notFound('Plan not found')
  return row
}

/** Marks the plan deleted and unpublished; running subscriptions keep their copied terms. */
export async function deletePlan(env: Env, id: number): Promise<PlanRow> {
  const [row] = await createDb(env.DB)
    .update(plans)
    .set({ deleted: true, published: false, updatedAt: nowSeconds() })
    .where(and(eq(plans.id, id), eq(plans.deleted, false)))
    .returning()
  if (!row) throw notFound('Plan not found')
  return row
}
