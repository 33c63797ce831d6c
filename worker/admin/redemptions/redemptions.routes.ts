/**
 * Redemption codes: admins create them in batches (each code shown once, stored as a SHA-256),
 * list, edit, disable and delete them; a code may carry a subscription plan instead of quota
 * (`plan_id`, issue 33). Any user redeems one with POST /api/user/topup (the claim and the wallet
 * credit or the plan live in billing/redeem.ts, shared with the Telegram bot's /recharge). Each code
 * keeps its creator: an administrator cannot redeem codes they made (root can), and creating or
 * editing or deleting codes writes a manage log naming the actor and the client address (never a code).
 */
import { Hono } from 'hono'
import { and, count, desc, eq, or } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { redemptions } from '../../db/schema'
import { adminRoute, userRoute } from '../../middleware/access'
import { criticalRateLimit } from '../../middleware/rate-limit'
import { badRequest, notFound } from '../../lib/errors'
import { randomString, sha256Hex } from '../../lib/crypto'
import { ok } from '../../lib/respond'
import { clientIp } from '../../lib/client-ip'
import { nowSeconds } from '../../lib/time'
import { idParam, validate } from '../../lib/validate'
import type { Redemption as RedemptionView } from '../../../shared/contract/redemptions'
import type { HonoEnv } from '../../env'
import { contains, listQuery, offset, orderBy, page } from '../../lib/paging'
import { auditLog } from '../../logs/audit-log'
import { redeemCode } from '../../billing/redeem'
import { findPlan } from '../../plans/plan-store'
import { REDEMPTION_STATUS } from '../../../shared/contract/enums'

type Redemption = typeof redemptions.$inferSelect

const view = (r: Redemption) =>
  ({
    id: r.id,
    name: r.name,
    key: r.key.slice(0, 6) + '…',
    status: r.status,
    quota: r.quota,
    plan_id: r.planId,
    user_id: r.userId,
    created_by: r.createdBy,
    created_time: r.createdTime,
    redeemed_time: r.redeemedTime,
  }) satisfies RedemptionView

const name = z.string().trim().min(1, 'Name is required').max(20, 'must be at most 20 characters')
const quota = z.coerce.number().int('must be an integer').min(0, 'must be at least 0').max(Number.MAX_SAFE_INTEGER)
const createSchema = z.object({
  name,
  quota,
  count: z.coerce.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(1),
  /** A plan the codes grant instead of quota (0: quota codes). */
  plan_id: z.coerce.number().int().min(0).default(0),
})
const updateSchema = z.object({ id: z.coerce.number().int().positive(), name, quota, status: z.union([z.literal(1), z.literal(2)]) })
const redeemSchema = z.object({ key: z.string().trim().min(1, 'Please enter a redemption code').max(64) })

const sortable = {
  id: redemptions.id,
  name: redemptions.name,
  quota: redemptions.quota,
  status: redemptions.status,
  created_time: redemptions.createdTime,
  redeemed_time: redemptions.redeemedTime,
}

async function findRedemption(env: Env, id: number) {
  const [row] = await createDb(env.DB).select().from(redemptions).where(eq(redemptions.id, id)).limit(1)
  if (!row) throw notFound('Redemption code not found')
  return row
}

export const redemptionRoutes = new Hono<HonoEnv>()
  .get('/redemption/', adminRoute, validate('query', listQuery), async (c) => {
    const q = c.req.valid('query')
    const db = createDb(c.env.DB)
    const where = q.keyword ? or(/^\d+$/.test(q.keyword) ? eq(redemptions.id, Number(q.keyword)) : undefined, contains(redemptions.name, q.keyword)) : undefined
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(redemptions)
        .where(where)
        .orderBy(orderBy(q.order, sortable, desc(redemptions.id)))
        .limit(q.page_size)
        .offset(offset(q)),
      db.select({ n: count() }).from(redemptions).where(where),
    ])
    return ok(c, page(q, rows.map(view), total?.n ?? 0))
  })
  .get('/redemption/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => ok(c, view(await findRedemption(c.env, c.req.valid('param').id))))
  .post('/redemption/', adminRoute, validate('json', createSchema), async (c) => {
    const body = c.req.valid('json')
    const actor = c.get('user')!
    // A plan code grants the plan and no quota.
    const plan = body.plan_id > 0 ? await findPlan(c.env, body.plan_id) : undefined
    const worth = plan ? 0 : body.quota
    const keys = Array.from({ length: body.count }, () => randomString(32))
    const now = nowSeconds()
    const db = createDb(c.env.DB)
    const rows = await Promise.all(
      keys.map(async (k) => ({ name: body.name, quota: worth, planId: plan?.id ?? 0, key: await sha256Hex(k), createdTime: now, status: 1, createdBy: actor.id }))
    )
    for (let i = 0; i < rows.length; i += 15) await db.insert(redemptions).values(rows.slice(i, i + 15))
    await auditLog(
      c.env,
      actor,
      actor,
      `${actor.username} created ${keys.length} redemption codes "${body.name}" ${plan ? `granting plan "${plan.name}" (#${plan.id})` : `worth ${worth} quota`} each`,
      { count: keys.length, quota: worth, plan_id: plan?.id ?? 0 },
      clientIp(c.req)
    )
    return ok(c, keys, `Created ${keys.length} redemption codes: copy them now, they are shown only once`)
  })
  .put('/redemption/', adminRoute, validate('json', updateSchema), async (c) => {
    const body = c.req.valid('json')
    const current = await findRedemption(c.env, body.id)
    if (current.status === REDEMPTION_STATUS.REDEEMED) throw badRequest('A redeemed code cannot be edited')
    const [row] = await createDb(c.env.DB)
      .update(redemptions)
      .set({ name: body.name, quota: body.quota, status: body.status })
      .where(and(eq(redemptions.id, body.id), eq(redemptions.status, current.status)))
      .returning()
    if (!row) throw badRequest('The code changed meanwhile; reload and try again')
    const actor = c.get('user')!
    if (row.quota !== current.quota || row.status !== current.status) {
      await auditLog(
        c.env,
        actor,
        actor,
        `${actor.username} changed redemption code #${row.id} "${row.name}": quota ${current.quota} → ${row.quota}, status ${current.status} → ${row.status}`,
        { redemption_id: row.id, quota_before: current.quota, quota: row.quota, status_before: current.status, status: row.status },
        clientIp(c.req)
      )
    }
    return ok(c, view(row), 'Updated')
  })
  .delete('/redemption/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const rows = await createDb(c.env.DB)
      .delete(redemptions)
      .where(eq(redemptions.id, c.req.valid('param').id))
      .returning()
    const [row] = rows
    if (!row) throw notFound('Redemption code not found')
    const actor = c.get('user')!
    await auditLog(
      c.env,
      actor,
      actor,
      `${actor.username} deleted 1 redemption code #${row.id} "${row.name}" worth ${row.quota} quota (status ${row.status})`,
      { redemption_id: row.id, count: 1, quota: row.quota, status: row.status },
      clientIp(c.req)
    )
    return ok(c, null, 'Deleted')
  })
  .post('/user/topup', userRoute, criticalRateLimit('topup'), validate('json', redeemSchema), async (c) => {
    const result = await redeemCode(c.env, c.get('user')!, c.req.valid('json').key)
    return ok(c, result, 'Top up successful')
  })
