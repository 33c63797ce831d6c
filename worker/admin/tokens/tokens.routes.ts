/**
 * /api/token: every user manages their own keys (one-hub paths); admins can search and edit any
 * user's keys under /api/token/admin. Another user's token id answers 404, never its data.
 */
import { Hono } from 'hono'
import { and } from 'drizzle-orm'
import { adminRoute, rootRoute, userRoute } from '../../middleware/access'
import { ok } from '../../lib/respond'
import { idParam, validate } from '../../lib/validate'
import { requireStepUp } from '../../accounts/step-up'
import type { HonoEnv } from '../../env'
import { listQuery } from '../../lib/paging'
import { withinRank } from '../../lib/rank'
import { tokens } from '../../db/schema'
import { adminSearchQuery, createTokenSchema, statusSchema, updateTokenSchema } from './tokens.schema'
import { createToken, deleteToken, listTokens, ownedBy, playgroundToken, setTokenStatus, tokenIdIs, tokenView, updateToken } from './tokens.service'
import { findOwnedToken, revealTokenKey } from '../../access/key-reveal'

export const tokenRoutes = new Hono<HonoEnv>()
  .get('/token/', userRoute, validate('query', listQuery), async (c) => ok(c, await listTokens(c.env, ownedBy(c.get('user')!.id), c.req.valid('query'))))
  .get('/token/playground', userRoute, async (c) => ok(c, tokenView(await playgroundToken(c.env, c.get('user')!))))
  .get('/token/admin/search', adminRoute, validate('query', adminSearchQuery), async (c) => {
    const q = c.req.valid('query')
    const actor = c.get('user')!
    // Rank rule: an admin never sees tokens of peers or root; keys are masked in this view.
    const where = and(q.user_id ? ownedBy(q.user_id) : undefined, q.token_id ? tokenIdIs(q.token_id) : undefined, withinRank(actor, tokens.userId))
    return ok(c, await listTokens(c.env, where, { p: q.p, page_size: q.page_size, keyword: q.keyword }, { masked: true }))
  })
  .put('/token/admin', adminRoute, validate('json', updateTokenSchema), async (c) => {
    const body = c.req.valid('json')
    const before = await findOwnedToken(c.env, body.id, c.get('user')!, true)
    const after = await updateToken(c.env, c.get('user')!, body.id, body, true)
    c.set('audit', { targetId: body.id, before, after })
    return ok(c, tokenView(after, undefined, { masked: true }), 'Updated')
  })
  .post('/token/admin/:id/key', rootRoute, requireStepUp, validate('param', idParam), async (c) =>
    ok(c, await revealTokenKey(c.env, c.get('user')!, c.req.valid('param').id, true))
  )
  .post('/token/:id/key', userRoute, requireStepUp, validate('param', idParam), async (c) => ok(c, await revealTokenKey(c.env, c.get('user')!, c.req.valid('param').id)))
  .delete('/token/admin/:id', adminRoute, validate('param', idParam), async (c) => {
    c.set('audit', { before: await deleteToken(c.env, c.get('user')!, c.req.valid('param').id, true) })
    return ok(c, null, 'Deleted')
  })
  .get('/token/:id', userRoute, validate('param', idParam), async (c) => ok(c, tokenView(await findOwnedToken(c.env, c.req.valid('param').id, c.get('user')!))))
  .post('/token/', userRoute, validate('json', createTokenSchema), async (c) => ok(c, tokenView(await createToken(c.env, c.get('user')!, c.req.valid('json'))), 'Created'))
  .put('/token/status', userRoute, validate('json', statusSchema), async (c) => {
    const { id, status } = c.req.valid('json')
    return ok(c, tokenView(await setTokenStatus(c.env, c.get('user')!, id, status)), 'Updated')
  })
  .put('/token/', userRoute, validate('json', updateTokenSchema), async (c) => {
    const body = c.req.valid('json')
    const before = await findOwnedToken(c.env, body.id, c.get('user')!)
    const after = await updateToken(c.env, c.get('user')!, body.id, body)
    c.set('audit', { targetId: body.id, before, after })
    return ok(c, tokenView(after), 'Updated')
  })
  .delete('/token/:id', userRoute, validate('param', idParam), async (c) => {
    c.set('audit', { before: await deleteToken(c.env, c.get('user')!, c.req.valid('param').id) })
    return ok(c, null, 'Deleted')
  })
