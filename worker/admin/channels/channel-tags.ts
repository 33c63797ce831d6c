/**
 * /api/channel_tag (admin): one-hub's operations on every channel of one tag at once: set the
 * priority or the weight (PUT /:tag/priority with {type, value}), enable or disable
 * (PUT /:tag/status/enable|disable) and delete (DELETE /:tag). Each goes through the same
 * write paths as a single edit (abilities rebuilt, routing snapshot invalidated, manual status
 * history) and leaves one manage-log row naming the affected channel ids.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { eq } from 'drizzle-orm'
import { createDb } from '../../db/client'
import { channels } from '../../db/schema'
import { adminRoute } from '../../middleware/access'
import { notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { accepting, validate } from '../../lib/validate'
import { clientIp } from '../../lib/client-ip'
import { auditLog } from '../../logs/audit-log'
import { channelIdsIn, deleteChannels, patchChannel } from './channels.service'
import type { HonoEnv, SessionUser } from '../../env'
import type { ChannelTagResult, TagPriorityBody } from '../../../shared/contract/channels'

const tagParam = z.object({ tag: z.string().trim().min(1, 'tag is required').max(200) })
const statusParam = tagParam.extend({ status: z.enum(['enable', 'disable']) })
const priorityBody = accepting<TagPriorityBody>()(
  z
    .object({
      type: z.enum(['priority', 'weight']),
      value: z.coerce.number().int('must be a whole number').max(1_000_000),
    })
    .refine((b) => b.value >= (b.type === 'weight' ? 1 : 0), { path: ['value'], message: 'priority must be at least 0, weight at least 1' })
)

async function tagChannelIds(env: Env, tag: string): Promise<number[]> {
  const rows = await createDb(env.DB).select({ id: channels.id }).from(channels).where(eq(channels.tag, tag)).orderBy(channels.id)
  if (rows.length === 0) throw notFound('No channel has this tag')
  return rows.map((r) => r.id)
}

async function audit(env: Env, actor: SessionUser, ip: string, tag: string, action: string, ids: number[], extra: Record<string, unknown> = {}) {
  await auditLog(env, actor, actor, `${actor.username} ${action} the ${ids.length} channels of tag "${tag}" (#${ids.join(', #')})`, { tag, channel_ids: ids, ...extra }, ip)
}

export const channelTagRoutes = new Hono<HonoEnv>()
  .put('/channel_tag/:tag/priority', adminRoute, validate('param', tagParam), validate('json', priorityBody), async (c) => {
    const { tag } = c.req.valid('param')
    const { type, value } = c.req.valid('json')
    const actor = c.get('user')!
    const ids = await tagChannelIds(c.env, tag)
    for (const id of ids) await patchChannel(c.env, id, { [type]: value }, actor.username)
    await audit(c.env, actor, clientIp(c.req), tag, `set ${type} to ${value} on`, ids, { [type]: value })
    return ok(c, { tag, channel_ids: ids } satisfies ChannelTagResult, 'Updated')
  })
  .put('/channel_tag/:tag/status/:status', adminRoute, validate('param', statusParam), async (c) => {
    const { tag, status } = c.req.valid('param')
    const actor = c.get('user')!
    const ids = await tagChannelIds(c.env, tag)
    for (const id of ids) await patchChannel(c.env, id, { status: status === 'enable' ? 1 : 2 }, actor.username)
    await audit(c.env, actor, clientIp(c.req), tag, status === 'enable' ? 'enabled' : 'disabled', ids)
    return ok(c, { tag, channel_ids: ids } satisfies ChannelTagResult, status === 'enable' ? 'Enabled' : 'Disabled')
  })
  .delete('/channel_tag/:tag', adminRoute, validate('param', tagParam), async (c) => {
    const { tag } = c.req.valid('param')
    const actor = c.get('user')!
    const ids = await tagChannelIds(c.env, tag)
    await deleteChannels(c.env, channelIdsIn(ids))
    await audit(c.env, actor, clientIp(c.req), tag, 'deleted', ids)
    return ok(c, { tag, channel_ids: ids } satisfies ChannelTagResult, 'Deleted')
  })
