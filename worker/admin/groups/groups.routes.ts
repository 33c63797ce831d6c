/**
 * /api/user_group (admin CRUD, one-hub paths), /api/group/ (symbols) and /api/user_group_map (public
 * groups for token forms). A group's ratio prices every request of its users, so each write that
 * changes a group leaves one manage-log row (actor, client address, field old → new).
 */
import { Hono, type Context } from 'hono'
import { eq } from 'drizzle-orm'
import { z } from 'zod'
import { createDb } from '../../db/client'
import { users, userGroups } from '../../db/schema'
import { isUniqueViolation } from '../../db/errors'
import { adminRoute, userRoute } from '../../middleware/access'
import { badRequest, conflict, notFound } from '../../lib/errors'
import { ok } from '../../lib/respond'
import { accepting, idParam, validate } from '../../lib/validate'
import type { HonoEnv } from '../../env'
import { clientIp } from '../../lib/client-ip'
import { auditLog } from '../../logs/audit-log'
import { groupView, listGroups, syncRatioSetting } from './groups.service'
import type { GroupInfo, UserGroupBody } from '../../../shared/contract/groups'

const fields = accepting<UserGroupBody>()(
  z.object({
    symbol: z
      .string()
      .trim()
      .min(1, 'Symbol is required')
      .max(32)
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
    name: z.string().trim().min(1, 'Name is required').max(50),
    ratio: z.coerce.number().min(0, 'must be at least 0').max(1000),
    api_rate: z.coerce.number().int().min(0).max(1_000_000).default(600),
    /** Tokens per minute per user of the group (0 = none). */
    tpm: z.coerce.number().int().min(0).max(100_000_000).default(0),
    public: z.boolean().default(false),
    enable: z.boolean().default(true),
  })
)

async function findGroup(env: Env, id: number) {
  const [row] = await createDb(env.DB).select().from(userGroups).where(eq(userGroups.id, id)).limit(1)
  if (!row) throw notFound('Group not found')
  return row
}

const columns = (f: z.infer<typeof fields>) => ({ symbol: f.symbol, name: f.name, ratio: f.ratio, apiRate: f.api_rate, tpm: f.tpm, public: f.public, enable: f.enable })

type GroupRow = typeof userGroups.$inferSelect

/** One row naming the fields a write changed (`null` before: created; `null` after: deleted); none if nothing did. */
async function auditGroup(c: Context<HonoEnv>, action: 'create' | 'update' | 'delete', before: GroupRow | null, after: GroupRow | null) {
  const [old, now] = [before && groupView(before), after && groupView(after)]
  const fields = (['ratio', 'name', 'api_rate', 'tpm', 'public', 'enable'] as const).filter((f) => old?.[f] !== now?.[f])
  if (fields.length === 0) return
  const changes = Object.fromEntries(fields.map((f) => [f, { old: old?.[f] ?? null, new: now?.[f] ?? null }]))
  const text = fields.map((f) => `${f} ${old?.[f] ?? '∅'} → ${now?.[f] ?? '∅'}`).join(', ')
  const actor = c.get('user')!
  const symbol = (after ?? before)!.symbol
  await auditLog(c.env, actor, actor, `group.${action} ${symbol}: ${text}`, { group: symbol, changes }, clientIp(c.req))
}

export const groupRoutes = new Hono<HonoEnv>()
  .get('/group/', adminRoute, async (c) =>
    ok(
      c,
      (await listGroups(c.env)).filter((g) => g.enable).map((g) => g.symbol)
    )
  )
  .get('/user_group_map', userRoute, async (c) => {
    const me = c.get('user')!
    const groups = (await listGroups(c.env)).filter((g) => g.enable && (g.public || g.symbol === me.group))
    return ok(c, Object.fromEntries(groups.map((g) => [g.symbol, { name: g.name, ratio: g.ratio, public: g.public } satisfies GroupInfo])))
  })
  .get('/user_group/', adminRoute, async (c) => ok(c, (await listGroups(c.env)).map(groupView)))
  .get('/user_group/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => ok(c, groupView(await findGroup(c.env, c.req.valid('param').id))))
  .post('/user_group/', adminRoute, validate('json', fields), async (c) => {
    try {
      const [row] = await createDb(c.env.DB)
        .insert(userGroups)
        .values(columns(c.req.valid('json')))
        .returning()
      await syncRatioSetting(c.env)
      await auditGroup(c, 'create', null, row!)
      return ok(c, groupView(row!), 'Created')
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('A group with this symbol already exists')
      throw err
    }
  })
  .put('/user_group/', adminRoute, validate('json', fields.extend({ id: z.coerce.number().int().positive() })), async (c) => {
    const body = c.req.valid('json')
    const current = await findGroup(c.env, body.id)
    if (current.symbol !== body.symbol) throw badRequest('symbol: the symbol of a group cannot change (users and tokens refer to it)')
    const [row] = await createDb(c.env.DB).update(userGroups).set(columns(body)).where(eq(userGroups.id, body.id)).returning()
    await syncRatioSetting(c.env)
    await auditGroup(c, 'update', current, row!)
    c.set('audit', { targetId: row!.id, before: current, after: row })
    return ok(c, groupView(row!), 'Updated')
  })
  .put('/user_group/enable/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const g = await findGroup(c.env, c.req.valid('param').id)
    const [row] = await createDb(c.env.DB).update(userGroups).set({ enable: !g.enable }).where(eq(userGroups.id, g.id)).returning()
    await syncRatioSetting(c.env)
    await auditGroup(c, 'update', g, row!)
    return ok(c, groupView(row!), 'Updated')
  })
  .delete('/user_group/:id{[0-9]+}', adminRoute, validate('param', idParam), async (c) => {
    const g = await findGroup(c.env, c.req.valid('param').id)
    const [member] = await createDb(c.env.DB).select({ id: users.id }).from(users).where(eq(users.group, g.symbol)).limit(1)
    if (member) throw conflict('Users still belong to this group: move them first')
    await createDb(c.env.DB).delete(userGroups).where(eq(userGroups.id, g.id))
    await syncRatioSetting(c.env)
    await auditGroup(c, 'delete', g, null)
    return ok(c, null, 'Deleted')
  })
