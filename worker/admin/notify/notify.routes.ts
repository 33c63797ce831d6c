/**
 * /api/notify/channel/ (root): alert channels (worker/notify/). The secret is write-only — views
 * carry has_secret; an update without `secret` keeps it, `""` clears it. URLs of the webhook types
 * pass the outbound guard (DingTalk and WeCom keep their access-token query). `:id/test` sends a
 * test notice now and records it; `:id/deliveries` is the channel's delivery log, newest first.
 */
import { Hono } from 'hono'
import { and, count, desc, eq } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { notifyChannels, notifyDeliveries, type NotifyChannel, type NotifyDelivery } from '../../db/schema'
import { rootRoute } from '../../middleware/access'
import { badRequest, notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { accepting, idParam, validate } from '../../lib/validate'
import { assertOutboundUrls, outboundUrlProblem } from '../../lib/outbound-url'
import { listQuery, page } from '../../lib/paging'
import { nowSeconds } from '../../lib/time'
import { sinkOf } from '../../notify/registry'
import { sendTest } from '../../notify/emit'
import type { HonoEnv } from '../../env'
import { NOTIFY_CHANNEL_TYPES, NOTIFY_EVENT_LIST, type NotifyChannelBody, type NotifyChannelView, type NotifyDeliveryView } from '../../../shared/contract/notify'

const fields = accepting<NotifyChannelBody>()(
  z.object({
    name: z.string().trim().min(1, 'name is required').max(64),
    type: z.enum(NOTIFY_CHANNEL_TYPES),
    url: z.string().trim().max(2000).default(''),
    secret: z.string().max(500).optional(),
    config: z.record(z.string().regex(/^[a-z_]{1,32}$/), z.string().trim().max(500)).default({}),
    events: z.array(z.enum(NOTIFY_EVENT_LIST)).max(NOTIFY_EVENT_LIST.length).default([]),
    enabled: z.boolean().default(true),
  })
)

type Fields = z.infer<typeof fields>

function channelView(row: NotifyChannel): NotifyChannelView {
  return {
    id: row.id,
    name: row.name,
    type: row.type as NotifyChannelView['type'],
    url: row.url,
    has_secret: row.secret !== '',
    config: row.config ?? {},
    events: row.events ?? [],
    enabled: row.enabled,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

function deliveryView(row: NotifyDelivery): NotifyDeliveryView {
  return {
    id: row.id,
    channel_id: row.channelId,
    event: row.event,
    subject: row.subject,
    status: row.status as NotifyDeliveryView['status'],
    attempts: row.attempts,
    http_status: row.httpStatus,
    error: row.error,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }
}

const fieldError = (field: string, problem: string) => badRequest(`${field}: ${problem}`, { fields: { [field]: problem } })

/** The type's own rules: a guarded URL for the webhook types, the config fields the others need. */
function checkTarget(env: Env, f: Fields) {
  const sink = sinkOf(f.type)!
  if (sink.usesUrl) {
    if (!f.url) throw fieldError('url', 'is required for this type')
    let parsed: URL
    try {
      parsed = new URL(f.url)
    } catch {
      throw fieldError('url', 'must be a valid URL')
    }
    if (sink.urlQuery) {
      if (parsed.hash || parsed.username || parsed.password) throw fieldError('url', 'must not carry a fragment or credentials')
      assertOutboundUrls(env, `${parsed.origin}${parsed.pathname}`, 'url', outboundUrlProblem)
    } else {
      assertOutboundUrls(env, f.url, 'url')
    }
  } else if (f.url) {
    throw fieldError('url', 'is not used by this type (use config)')
  }
  for (const key of sink.requiredConfig) if (!f.config[key]) throw fieldError(`config.${key}`, 'is required for this type')
  if (f.type === 'email' && !z.string().email().safeParse(f.config.address).success) throw fieldError('config.address', 'must be an email address')
}

async function findChannel(env: Env, id: number): Promise<NotifyChannel> {
  const [row] = await createDb(env.DB).select().from(notifyChannels).where(eq(notifyChannels.id, id)).limit(1)
  if (!row) throw notFound('Notification channel not found')
  return row
}

const columns = (f: Fields, secret: string) => ({ name: f.name, type: f.type, url: f.url, secret, config: f.config, events: f.events, enabled: f.enabled, updatedAt: nowSeconds() })

export const notifyRoutes = new Hono<HonoEnv>()
  .get('/notify/channel/', rootRoute, async (c) => ok(c, (await createDb(c.env.DB).select().from(notifyChannels).orderBy(notifyChannels.id)).map(channelView)))
  .post('/notify/channel/', rootRoute, validate('json', fields), async (c) => {
    const body = c.req.valid('json')
    checkTarget(c.env, body)
    const [row] = await createDb(c.env.DB)
      .insert(notifyChannels)
      .values({ ...columns(body, body.secret ?? ''), createdAt: nowSeconds() })
      .returning()
    return ok(c, channelView(row!), 'Created')
  })
  .put('/notify/channel/:id{[0-9]+}', rootRoute, validate('param', idParam), validate('json', fields), async (c) => {
    const body = c.req.valid('json')
    const current = await findChannel(c.env, c.req.valid('param').id)
    checkTarget(c.env, body)
    // A new destination never takes the saved secret along unless it is typed again.
    const moved = body.url !== current.url || body.type !== current.type
    if (moved && body.secret === undefined && current.secret)
      throw fieldError('secret', 'a new URL or type does not take the saved secret along; type it again (or send "" to drop it)')
    const [row] = await createDb(c.env.DB)
      .update(notifyChannels)
      .set(columns(body, body.secret ?? current.secret))
      .where(eq(notifyChannels.id, current.id))
      .returning()
    return ok(c, channelView(row!), 'Updated')
  })
  .delete('/notify/channel/:id{[0-9]+}', rootRoute, validate('param', idParam), async (c) => {
    const current = await findChannel(c.env, c.req.valid('param').id)
    await c.env.DB.batch([
      c.env.DB.prepare('DELETE FROM notify_deliveries WHERE channel_id = ?').bind(current.id),
      c.env.DB.prepare('DELETE FROM notify_channels WHERE id = ?').bind(current.id),
    ])
    return ok(c, null, 'Deleted')
  })
  .post('/notify/channel/:id{[0-9]+}/test', rootRoute, validate('param', idParam), async (c) => ok(c, await sendTest(c.env, await findChannel(c.env, c.req.valid('param').id))))
  .get('/notify/channel/:id{[0-9]+}/deliveries', rootRoute, validate('param', idParam), validate('query', listQuery), async (c) => {
    const { id } = c.req.valid('param')
    const q = c.req.valid('query')
    await findChannel(c.env, id)
    const db = createDb(c.env.DB)
    const where = and(eq(notifyDeliveries.channelId, id))
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(notifyDeliveries)
        .where(where)
        .orderBy(desc(notifyDeliveries.id))
        .limit(q.page_size)
        .offset((q.p - 1) * q.page_size),
      db.select({ n: count() }).from(notifyDeliveries).where(where),
    ])
    return ok(c, page(q, rows.map(deliveryView), total?.n ?? 0))
  })
