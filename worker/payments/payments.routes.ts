/**
 * Payment routes with one-hub's paths and field names:
 * - admin: GET /api/payment/, GET /api/payment/:id, GET /api/payment/types (the config fields of
 *   each gateway type), GET /api/payment/order (filters) and /order/export (the same as CSV),
 *   POST /api/payment/order/:id/refund;
 * - root only: POST/PUT /api/payment/ and DELETE /api/payment/:id. A gateway moves money and holds
 *   secrets that no view shows, so creating, changing or removing one is root's (an admin could
 *   otherwise point a stored secret at a host of their own). Its addresses pass the outbound-URL
 *   guard, a changed address drops the stored secrets (gateway-hosts.ts), and each change leaves a
 *   manage-log row (secrets as changed/unchanged only);
 * - users: GET /api/user/payment (enabled gateways, public fields), POST /api/user/order,
 *   GET /api/user/order/status?trade_no= (success only once paid, as one-hub's console polls it),
 *   GET /api/user/order (own orders) and /api/user/order/export (as CSV);
 * - ANY /api/payment/notify/:uuid — the gateways' callbacks (no session, no CSRF: signatures;
 *   rate-limited per client address, an unknown uuid is a plain 404 that writes nothing).
 */
import { Hono } from 'hono'
import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../db/client'
import { orders, payments, plans, users } from '../db/schema'
import { adminRoute, publicRoute, rootRoute, userRoute } from '../middleware/access'
import { criticalRateLimit } from '../middleware/rate-limit'
import { ApiError, badRequest, notFound } from '../lib/errors'
import { csvResponse } from '../lib/csv'
import { ok } from '../lib/respond'
import { nowSeconds } from '../lib/time'
import { accepting, idParam, validate } from '../lib/validate'
import { requireStepUp } from '../accounts/step-up'
import type { HonoEnv, SessionUser } from '../env'
import { getSettings } from '../settings/store'
import { listQuery, offset, orderBy, page } from '../lib/paging'
import { withinRank } from '../lib/rank'
import { PAYMENT_CURRENCIES } from '../../shared/contract/payment-amount'
import { GATEWAYS, gatewayOf } from './gateways/registry'
import { GatewayError } from './gateways/types'
import { createOrder, handleNotify, orderView, refundOrder } from './payments.service'
import { exportOrders } from './order-export'
import { GATEWAY_TYPES, ORDER_STATUSES, type GatewayBody, type GatewayPatch, type GatewayTypeInfo, type OrderBody } from '../../shared/contract/payments'
import { findGateway, gatewayView, mergeConfig, notifyUrl, parseConfig, publicConfig, userGatewayView } from './gateway-rows'
import { assertGatewayHosts, gatewayChanges, movedHosts, storedForUpdate } from './gateway-hosts'
import { auditLog } from '../logs/audit-log'
import { clientIp } from '../lib/client-ip'
import type { Payment } from '../db/schema'
import { publicSiteUrl } from '../lib/base-path'
import { flushSoon } from '../lib/metrics/recorder'

const money = z.coerce.number().min(0, 'must be at least 0').max(1_000_000, 'must be at most 1000000')
/** Each field without its default, so a partial update leaves out what it does not send. */
const gatewayFields = {
  name: z.string().trim().min(1, 'Name is required').max(100),
  type: z.enum(GATEWAY_TYPES, 'must be stripe, alipay, wxpay or epay'),
  icon: z.union([z.literal(''), z.url('must be a URL')]),
  currency: z.enum(PAYMENT_CURRENCIES, 'must be USD or CNY'),
  /** USD, two decimals at most. */
  fixed_fee: money.refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'at most two decimals'),
  /** A fraction below 1 (0.05 = 5 %), four decimals at most. */
  percent_fee: z.coerce.number().min(0, 'must be at least 0').max(0.99, 'must be below 1 (0.05 = 5 %)'),
  sort: z.coerce.number().int().min(0, 'must be at least 0').max(1_000_000),
  enable: z.boolean(),
  notify_domain: z.union([z.literal(''), z.url('must be a URL (https://pay.example.com)')]),
  config: z.record(z.string(), z.unknown()),
}
const createSchema = accepting<GatewayBody>()(
  z.object({
    ...gatewayFields,
    icon: gatewayFields.icon.default(''),
    fixed_fee: gatewayFields.fixed_fee.default(0),
    percent_fee: gatewayFields.percent_fee.default(0),
    sort: gatewayFields.sort.default(0),
    enable: gatewayFields.enable.default(true),
    notify_domain: gatewayFields.notify_domain.default(''),
    config: gatewayFields.config.default({}),
  })
)
const updateSchema = accepting<GatewayPatch>()(z.object({ id: z.coerce.number().int().positive(), ...z.object(gatewayFields).partial().shape }))

const gatewayListQuery = listQuery.extend({
  type: z.string().trim().max(16).optional(),
  name: z.string().trim().max(100).optional(),
  uuid: z.string().trim().max(64).optional(),
  currency: z.string().trim().max(8).optional(),
})
const gatewaySortable = {
  id: payments.id,
  uuid: payments.uuid,
  name: payments.name,
  type: payments.type,
  sort: payments.sort,
  enable: payments.enable,
  created_at: payments.createdAt,
}

const seconds = z.coerce.number().int().min(0).max(4_102_444_800)
const orderListQuery = listQuery.extend({
  user_id: z.coerce.number().int().positive().optional(),
  gateway_id: z.coerce.number().int().positive().optional(),
  trade_no: z.string().trim().max(64).optional(),
  gateway_no: z.string().trim().max(100).optional(),
  status: z.enum(ORDER_STATUSES).optional().catch(undefined),
  start_timestamp: seconds.optional(),
  end_timestamp: seconds.optional(),
})
const orderSortable = { id: orders.id, gateway_id: orders.gatewayId, user_id: orders.userId, status: orders.status, created_at: orders.createdAt, amount: orders.amount }

const orderSchema = accepting<OrderBody>()(
  z.object({
    uuid: z.string().trim().min(1, 'Choose a payment method').max(64),
    amount: z.number('must be a whole number').int('must be a whole number').positive('must be positive'),
  })
)

/** Apply onSave (Stripe's webhook registration) and store what it returns. */
async function runOnSave(env: Env, row: typeof payments.$inferSelect, site: string, created: boolean) {
  const gateway = gatewayOf(row.type)
  if (!gateway?.onSave) return row
  const settings = await getSettings(env)
  const config = await gateway.onSave(parseConfig(row), { notifyUrl: notifyUrl(row, settings, site), created })
  const [saved] = await createDb(env.DB)
    .update(payments)
    .set({ config: JSON.stringify(config) })
    .where(eq(payments.id, row.id))
    .returning()
  return saved ?? row
}

/** The manage-log metadata of a gateway write: what changed (never a secret's value). */
function auditMeta(saved: Payment, before: Partial<Payment>) {
  const columns = (r: Partial<Payment>) => ({
    type: r.type,
    name: r.name,
    icon: r.icon,
    currency: r.currency,
    fixed_fee: r.fixedFee,
    percent_fee: r.percentFee,
    sort: r.sort,
    enable: r.enable,
    notify_domain: r.notifyDomain,
  })
  const gateway = gatewayOf(saved.type)!
  const was = before.config !== undefined && before.type === saved.type ? parseConfig({ config: before.config }) : {}
  return { gateway_id: saved.id, type: saved.type, ...gatewayChanges(gateway, { row: columns(before), config: was }, { row: columns(saved), config: parseConfig(saved) }) }
}

/** Notifies per client address and minute: far above any shop's payment rate, far below a flood. */
export const NOTIFY_RATE_LIMIT = { limit: 300, windowMs: 60_000 }

const gatewayFailure = (err: unknown) => new ApiError(502, err instanceof GatewayError ? err.message : 'The payment gateway could not be reached', { cause: err })

async function orderRows(env: Env, where: ReturnType<typeof and>, q: z.infer<typeof orderListQuery>) {
  const db = createDb(env.DB)
  const [rows, [total]] = await Promise.all([
    db
      .select({ o: orders, username: users.username, gatewayName: payments.name, gatewayType: payments.type, planName: plans.name })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(payments, eq(payments.id, orders.gatewayId))
      .leftJoin(plans, eq(plans.id, orders.planId))
      .where(where)
      .orderBy(orderBy(q.order, orderSortable, desc(orders.id)))
      .limit(q.page_size)
      .offset(offset(q)),
    db.select({ n: count() }).from(orders).where(where),
  ])
  return page(
    q,
    rows.map((r) => orderView({ ...r.o, username: r.username, gatewayName: r.gatewayName, gatewayType: r.gatewayType, planName: r.planName })),
    total?.n ?? 0
  )
}

/** The admin order list's filters, within the admin's rank (the list and its CSV export). */
function adminOrderFilter(q: z.infer<typeof orderListQuery>, actor: SessionUser) {
  return and(
    q.user_id ? eq(orders.userId, q.user_id) : undefined,
    q.gateway_id ? eq(orders.gatewayId, q.gateway_id) : undefined,
    q.trade_no ? eq(orders.tradeNo, q.trade_no) : undefined,
    q.gateway_no ? eq(orders.gatewayNo, q.gateway_no) : undefined,
    q.status ? eq(orders.status, q.status) : undefined,
    q.start_timestamp ? gte(orders.createdAt, q.start_timestamp) : undefined,
    q.end_timestamp ? lte(orders.createdAt, q.end_timestamp) : undefined,
    withinRank(actor, orders.userId)
  )
}

const userOrderQuery = orderListQuery.pick({ p: true, page_size: true, order: true, status: true, trade_no: true })
const userOrderFilter = (q: z.infer<typeof userOrderQuery>, me: SessionUser) =>
  and(eq(orders.userId, me.id), q.status ? eq(orders.status, q.status) : undefined, q.trade_no ? eq(orders.tradeNo, q.trade_no) : undefined)

export const paymentRoutes = new Hono<HonoEnv>()
  // ---- gateways (admin) ----
  .get('/payment/', adminRoute, validate('query', gatewayListQuery), async (c) => {
    const q = c.req.valid('query')
    const db = createDb(c.env.DB)
    const where = and(
      eq(payments.deletedAt, 0),
      q.type ? eq(payments.type, q.type) : undefined,
      q.name ? sql`${payments.name} LIKE ${`${q.name.replace(/[\\%_]/g, (m) => `\\${m}`)}%`} ESCAPE '\\'` : undefined,
      q.uuid ? eq(payments.uuid, q.uuid) : undefined,
      q.currency ? eq(payments.currency, q.currency) : undefined
    )
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(payments)
        .where(where)
        .orderBy(orderBy(q.order, gatewaySortable, asc(payments.sort)), asc(payments.id))
        .limit(q.page_size)
        .offset(offset(q)),
      db.select({ n: count() }).from(payments).where(where),
    ])
    const settings = await getSettings(c.env)
    return ok(
      c,
      page(
        q,
        rows.map((r) => gatewayView(r, settings, publicSiteUrl(c))),
        total?.n ?? 0
      )
    )
  })
  .get('/payment/types', adminRoute, (c) =>
    ok(
      c,
      GATEWAY_TYPES.map((type) => ({ type, currencies: GATEWAYS[type].currencies, fields: GATEWAYS[type].fields }) satisfies GatewayTypeInfo)
    )
  )
  .get('/payment/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const row = await findGateway(c.env, c.req.valid('param').id)
    return ok(c, { ...gatewayView(row, await getSettings(c.env), publicSiteUrl(c)), ...publicConfig(row) })
  })
  .post('/payment/', rootRoute, requireStepUp, validate('json', createSchema), async (c) => {
    const body = c.req.valid('json')
    const gateway = gatewayOf(body.type)!
    if (!(gateway.currencies as readonly string[]).includes(body.currency))
      throw badRequest(`${body.type} charges in ${gateway.currencies.join(' or ')}`, { fields: { currency: `must be ${gateway.currencies.join(' or ')}` } })
    const config = await mergeConfig(gateway, body.config, {})
    assertGatewayHosts(c.env, gateway, config, body.notify_domain)
    const now = nowSeconds()
    const db = createDb(c.env.DB)
    const [row] = await db
      .insert(payments)
      .values({
        uuid: crypto.randomUUID().replace(/-/g, ''),
        type: body.type,
        name: body.name,
        icon: body.icon,
        currency: body.currency,
        fixedFee: Math.round(body.fixed_fee * 100),
        percentFee: Math.round(body.percent_fee * 10_000) / 10_000,
        sort: body.sort,
        enable: body.enable,
        notifyDomain: body.notify_domain.replace(/\/+$/, ''),
        config: JSON.stringify(config),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    let saved = row!
    try {
      saved = await runOnSave(c.env, saved, publicSiteUrl(c), true)
    } catch (err) {
      // As one-hub: a gateway whose set-up failed is not kept.
      await db.delete(payments).where(eq(payments.id, saved.id))
      throw gatewayFailure(err)
    }
    const actor = c.get('user')!
    await auditLog(c.env, actor, actor, `${actor.username} created payment gateway "${saved.name}" (#${saved.id}, ${saved.type})`, auditMeta(saved, {}), clientIp(c.req))
    return ok(c, { ...gatewayView(saved, await getSettings(c.env), publicSiteUrl(c)), ...publicConfig(saved) }, 'Created')
  })
  .put('/payment/', rootRoute, requireStepUp, validate('json', updateSchema), async (c) => {
    const body = c.req.valid('json')
    const current = await findGateway(c.env, body.id)
    const type = body.type ?? current.type
    const currency = body.currency ?? current.currency
    const gateway = gatewayOf(type)!
    if (!(gateway.currencies as readonly string[]).includes(currency))
      throw badRequest(`${type} charges in ${gateway.currencies.join(' or ')}`, { fields: { currency: `must be ${gateway.currencies.join(' or ')}` } })
    // Secrets carry over only within the same gateway type, and only while its addresses stay.
    const submitted = body.config ?? {}
    const sameType = type === current.type ? parseConfig(current) : {}
    const stored = storedForUpdate(gateway, submitted, sameType, movedHosts(gateway, submitted, sameType, { before: current.notifyDomain, after: body.notify_domain }))
    const config = body.config !== undefined || type !== current.type || stored !== sameType ? await mergeConfig(gateway, submitted, stored) : stored
    assertGatewayHosts(c.env, gateway, config, body.notify_domain ?? current.notifyDomain)
    const db = createDb(c.env.DB)
    const [row] = await db
      .update(payments)
      .set({
        type,
        currency,
        ...(body.name !== undefined && { name: body.name }),
        ...(body.icon !== undefined && { icon: body.icon }),
        ...(body.fixed_fee !== undefined && { fixedFee: Math.round(body.fixed_fee * 100) }),
        ...(body.percent_fee !== undefined && { percentFee: Math.round(body.percent_fee * 10_000) / 10_000 }),
        ...(body.sort !== undefined && { sort: body.sort }),
        ...(body.enable !== undefined && { enable: body.enable }),
        ...(body.notify_domain !== undefined && { notifyDomain: body.notify_domain.replace(/\/+$/, '') }),
        config: JSON.stringify(config),
        updatedAt: nowSeconds(),
      })
      .where(eq(payments.id, current.id))
      .returning()
    let saved = row!
    const credentialsChanged = JSON.stringify(config) !== current.config || saved.notifyDomain !== current.notifyDomain
    if (credentialsChanged || !config.webhook_secret) {
      try {
        saved = await runOnSave(c.env, saved, publicSiteUrl(c), false)
      } catch (err) {
        throw gatewayFailure(err)
      }
    }
    const actor = c.get('user')!
    const meta = auditMeta(saved, current)
    const withConfig = (r: Payment) => ({ ...r, config: r.type === saved.type ? parseConfig(r) : {} })
    c.set('audit', {
      targetId: saved.id,
      before: withConfig(current),
      after: withConfig(saved),
      ignore: ['updatedAt'],
      secrets: gateway.fields.filter((f) => f.secret).map((f) => `config.${f.key}`),
    })
    const what = [...meta.changed, ...Object.entries(meta.secrets).flatMap(([k, v]) => (v === 'unchanged' ? [] : [`${k} (secret, ${v})`]))]
    await auditLog(c.env, actor, actor, `${actor.username} updated payment gateway "${saved.name}" (#${saved.id}): ${what.join(', ') || 'nothing changed'}`, meta, clientIp(c.req))
    return ok(c, { ...gatewayView(saved, await getSettings(c.env), publicSiteUrl(c)), ...publicConfig(saved) }, 'Updated')
  })
  .delete('/payment/:id{[0-9]+}', rootRoute, requireStepUp, validate('param', idParam), async (c) => {
    const row = await findGateway(c.env, c.req.valid('param').id)
    await createDb(c.env.DB).update(payments).set({ deletedAt: nowSeconds(), enable: false }).where(eq(payments.id, row.id))
    const actor = c.get('user')!
    await auditLog(
      c.env,
      actor,
      actor,
      `${actor.username} deleted payment gateway "${row.name}" (#${row.id}, ${row.type})`,
      { gateway_id: row.id, type: row.type },
      clientIp(c.req)
    )
    return ok(c, null, 'Deleted')
  })
  // ---- orders (admin) ----
  .get('/payment/order', adminRoute, validate('query', orderListQuery), async (c) => {
    const q = c.req.valid('query')
    return ok(c, await orderRows(c.env, adminOrderFilter(q, c.get('user')!), q))
  })
  .get('/payment/order/export', adminRoute, validate('query', orderListQuery), (c) =>
    csvResponse(exportOrders(c.env, adminOrderFilter(c.req.valid('query'), c.get('user')!), true), 'orders')
  )
  .post('/payment/order/:id{[0-9]+}/refund', adminRoute, validate('param', idParam), async (c) => {
    const row = await refundOrder(c.env, c.get('user')!, c.req.valid('param').id)
    return ok(c, orderView(row), row.planId === null ? 'Marked refunded; the quota was taken back' : 'Marked refunded; the subscription was revoked')
  })
  // ---- users ----
  .get('/user/payment', userRoute, async (c) => {
    const rows = await createDb(c.env.DB)
      .select()
      .from(payments)
      .where(and(eq(payments.enable, true), eq(payments.deletedAt, 0)))
      .orderBy(asc(payments.sort), asc(payments.id))
    return ok(c, rows.filter((r) => gatewayOf(r.type)).map(userGatewayView))
  })
  .post('/user/order', userRoute, criticalRateLimit('order'), validate('json', orderSchema), async (c) => {
    const settings = await getSettings(c.env)
    return ok(c, await createOrder(c.env, settings, c.get('user')!, c.req.valid('json'), publicSiteUrl(c)))
  })
  .get('/user/order/status', userRoute, validate('query', z.object({ trade_no: z.string().trim().min(1).max(64) })), async (c) => {
    const me = c.get('user')!
    const [order] = await createDb(c.env.DB)
      .select({ status: orders.status, quota: orders.quota })
      .from(orders)
      .where(and(eq(orders.tradeNo, c.req.valid('query').trade_no), eq(orders.userId, me.id)))
      .limit(1)
    if (!order) throw notFound('Order not found')
    // one-hub's console polls this and waits for success: true.
    const paid = order.status === 'success'
    return c.json({ success: paid, message: paid ? '' : order.status, data: { trade_no: c.req.valid('query').trade_no, status: order.status, quota: order.quota } })
  })
  .get('/user/order', userRoute, validate('query', userOrderQuery), async (c) => {
    const q = c.req.valid('query')
    return ok(c, await orderRows(c.env, userOrderFilter(q, c.get('user')!), { ...q } as z.infer<typeof orderListQuery>))
  })
  .get('/user/order/export', userRoute, validate('query', userOrderQuery), (c) =>
    csvResponse(exportOrders(c.env, userOrderFilter(c.req.valid('query'), c.get('user')!), false), 'my-orders')
  )
  // ---- gateway callbacks ----
  // Public: at most NOTIFY_RATE_LIMIT a minute per client address (a gateway retries what is refused).
  .all('/payment/notify/:uuid', publicRoute, criticalRateLimit('notify', NOTIFY_RATE_LIMIT), async (c) => {
    const req = c.req.raw
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : new TextDecoder().decode(await req.arrayBuffer())
    const answer = await handleNotify(c.env, c.req.param('uuid'), { method: req.method, url: new URL(req.url), headers: req.headers, body }, c.executionCtx)
    flushSoon(c.env, c.executionCtx)
    return answer
  })
