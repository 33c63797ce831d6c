/**
 * Site settings for root: GET /api/option/ lists every option (secrets masked, with a
 * `configured` flag), PUT /api/option/ saves one `{key, value}` or many `{options: {...}}`.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { rootRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { validate } from '../../lib/validate'
import { getSettings, publicOptionList, saveOptions } from '../../settings/store'
import type { HonoEnv } from '../../env'
import { syncGroupsFromRatio } from '../groups/groups.service'

const scalar = z.union([z.string().max(200_000), z.number(), z.boolean()]).transform(String)
const putSchema = z.union([
  z.object({ key: z.string().min(1).max(64), value: scalar }),
  z.object({ options: z.record(z.string().max(64), scalar) }),
])

export const optionRoutes = new Hono<HonoEnv>()
  .get('/option/', rootRoute, async (c) => ok(c, publicOptionList(await getSettings(c.env, c.executionCtx))))
  .put('/option/', rootRoute, validate('json', putSchema), async (c) => {
    const body = c.req.valid('json')
    const values = 'key' in body ? { [body.key]: body.value } : body.options
    const saved = await saveOptions(c.env, values)
    if ('GroupRatio' in values) await syncGroupsFromRatio(c.env, saved.str('GroupRatio'))
    return ok(c, null, 'Saved')
  })
